// Issue 22 §4: SIGINT and SIGTERM stop an eval whatever a case is doing, and remove
// every workspace. Found by the second review: a case workspace was removed on the
// main thread in one synchronous sweep, before the report, with no bound on what the
// agent left. The agent (allowlisted python3, in bubblewrap) leaves 60,000 empty
// files and the eval gets SIGTERM once they are written: the CLI then sat 15.8 s
// without answering, and a CI runner that follows SIGTERM with SIGKILL got no report.
// Stated by hand: the reports are written before any of it is removed (the report
// file is whole, status "interrupted", at the moment the CLI says it starts
// removing), the exit status is 143, and at exit nothing is left in TMPDIR.
import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evalWorld, leftovers, writeSuite, writeTranscript } from '../fixtures/eval-world.js';

const BIN = fileURLToPath(new URL('../../../bin/zotbox.js', import.meta.url));

/** The first entry of `directory` that `wanted` accepts: from a watch, so no clock is waited on. */
function entryIn(directory: string, wanted: (name: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const watcher = watch(directory, () => check());
    const check = () => {
      let names: string[] = [];
      try {
        names = readdirSync(directory);
      } catch {
        // Gone already (the eval removed it): nothing more will appear; the assertions after say what happened.
        watcher.close();
        resolve(path.join(directory, '(removed)'));
        return;
      }
      const found = names.find(wanted);
      if (found !== undefined) {
        watcher.close();
        resolve(path.join(directory, found));
      }
    };
    check();
  });
}

test('SIGTERM on a case that left 60,000 files: the reports are written first, then every workspace is removed', async (t) => {
  const world = evalWorld(t, { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['python3'] } });
  writeFileSync(
    path.join(world.suites, 'fixture', 'flood.py'),
    ['import os', "os.mkdir('f')", 'for i in range(60000):', "    open('f/%d' % i, 'w').close()", "open('done', 'w').close()", ''].join('\n'),
  );
  const replay = writeTranscript(world, 'flood', [{ tool: { name: 'bash', input: { command: 'python3 flood.py' } } }, { text: 'Done.' }]);
  const suite = writeSuite(world, 'flood', { replay, cases: [{ id: 'many-files', prompt: 'Make files.', workspace: 'fixture' }] });
  const reportFile = path.join(world.root, 'report.json');
  const child = spawn(process.execPath, [BIN, 'eval', suite, '-y', '--reporter', 'line', '--reporter', `json=${reportFile}`], {
    cwd: world.root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: world.root, TMPDIR: world.temp, XDG_STATE_HOME: world.state },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // What the report file holds when the CLI says it starts removing the workspaces (read at that line, in order).
  let reportAtRemoval: string | undefined;
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (reportAtRemoval === undefined && output.includes('now removing the case workspaces')) reportAtRemoval = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '(none)';
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const evalRoot = await entryIn(world.temp, (name) => name.startsWith('zotbox-eval-'));
  const workspace = await entryIn(evalRoot, (name) => name.startsWith('case-'));
  await entryIn(workspace, (name) => name === 'done');
  t.true(existsSync(path.join(workspace, 'f', '59999')));
  child.kill('SIGTERM');
  const status = await exited;
  t.log(`exit ${String(status)}\n${output}`);
  t.is(status, 143);
  t.not(reportAtRemoval, undefined, 'the CLI said when it started removing the workspaces');
  t.is((JSON.parse(reportAtRemoval ?? '{}') as { status?: string }).status, 'interrupted', 'the report was whole before the removal began');
  t.deepEqual(leftovers(world), []);
});
