// Review s46u of issue 21: user-path-programs.ts names each bare command a hook runs in every relative entry of the
// user's PATH (`./bin`, the binstub habit), and finds the name behind `env`, `nohup`, `xargs`, `time`, `sh -c`. Behind a
// wrapper that takes a value first, or one that runs its command itself, it does not: `timeout 60 acme-lint`,
// `nice -n 5 acme-lint`, `flock .git/lint.lock acme-lint`, `stdbuf -oL acme-lint`, `find src -exec acme-lint {} +`
// all search the user's PATH for `acme-lint` (GNU timeout/nice/flock/stdbuf/find -exec use execvp), so `./bin/acme-lint`
// runs, and it is neither protected nor unresolved. The write tool rewrites the binstub, the user's commit (made from
// their shell, `./bin` first on PATH) runs it (end to end). Control: `nohup acme-lint` is refused today.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';
import { markerOf, userCommits } from '../adversarial-s45t/fixtures.js';

function binstubProject(t: ExecutionContext, run: string): string {
  const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${run}\n`, 'bin/acme-lint': '#!/bin/sh\necho lint ok\n', 'src/app.rb': 'puts 1\n' });
  chmodSync(path.join(ws, 'bin/acme-lint'), 0o755);
  return ws;
}

/** The write tool writes `file` in a zotbox run started with the user's PATH (`./bin` first). */
async function agentWritesOnPath(t: ExecutionContext, ws: string, file: string, content: string): Promise<string> {
  const dir = tempDir(t, 'zb-s46u-agent-');
  const agent = path.join(dir, 'agent');
  mkdirSync(agent);
  const permissions = { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'none' } };
  const manifest = {
    zotfile: 1,
    name: 'writer',
    version: '1.0.0',
    description: 'writes one file',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 32000 },
    permissions,
    entry: { greeting: 'g', default_prompt: 'go' },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(agent, 'AGENT.md'), '# writer\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    { content: [{ type: 'tool_use', id: 't1', name: 'write', input: { path: file, content } }], stop: 'tool_use', usage },
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  writeFileSync(path.join(dir, 'replay.json'), JSON.stringify({ zotbox_replay: 1, model: 'm', turns }));
  const result = await runCliCaptured(['run', agent, '--cwd', ws, '--replay', path.join(dir, 'replay.json'), '-y'], {
    env: { PATH: `./bin:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '' },
    cwd: ws,
  });
  return result.stdout + result.stderr;
}

async function binstubThenCommit(t: ExecutionContext, run: string): Promise<void> {
  const ws = binstubProject(t, run);
  t.log(await agentWritesOnPath(t, ws, 'bin/acme-lint', `#!/bin/sh\ntouch ${markerOf(ws)}\n`));
  userCommits(ws, './bin');
  t.false(existsSync(markerOf(ws)), `the agent-written bin/acme-lint ran in the user's pre-commit hook (${run})`);
}

for (const run of ['timeout 60 acme-lint', 'nice -n 5 acme-lint', 'flock .git/lint.lock acme-lint', 'stdbuf -oL acme-lint', 'find src -name "*.rb" -exec acme-lint {} +'])
  test(`with ./bin on the user's PATH, the binstub a wrapper runs is refused: ${run}`, async (t) => {
    await binstubThenCommit(t, run);
  });

test('control (passes today): nohup acme-lint', async (t) => {
  await binstubThenCommit(t, 'nohup acme-lint');
});
