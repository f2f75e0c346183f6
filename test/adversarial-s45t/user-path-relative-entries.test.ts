// Review s45t of issue 21: script-path-programs.ts looks a hook's bare command names up on the PATH the hook sets, and
// leaves "the user's own PATH" to the word as written. But a relative entry on the user's PATH (`./bin`, the
// binstub habit Rails and others document: `export PATH="./bin:$PATH"`) is resolved from where the hook runs, the
// repository top: every bare name the hook runs (`acme-lint`, but also `git`, `grep`, `npx`) is looked up in the
// workspace's `bin/` first. zotbox runs with that same PATH and still neither protects `bin/NAME` nor refuses: the
// write tool rewrites the binstub the hook runs, or creates `bin/git` beside it, and the user's commit, made from
// their own shell, runs it unconfined. Control: the same project with an absolute PATH only: an ordinary write works.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { markerOf, userCommits } from './fixtures.js';
import { tempDir } from '../fixtures/temp.js';

const HOOK = '#!/bin/sh\nfiles=$(git diff --cached --name-only)\nacme-lint $files\n';

function binstubProject(t: ExecutionContext): string {
  const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'bin/acme-lint': '#!/bin/sh\necho lint ok\n', 'lib/app.rb': 'puts 1\n' });
  chmodSync(path.join(ws, 'bin/acme-lint'), 0o755);
  return ws;
}

/** agentWrites with the user's PATH (a relative entry first), as the user runs zotbox from their shell. */
async function agentWritesOnPath(t: ExecutionContext, ws: string, file: string, content: string, PATH: string, command?: string): Promise<string> {
  const dir = tempDir(t, 'zb-s45t-agent-');
  const agent = path.join(dir, 'agent');
  mkdirSync(agent);
  const manifest = {
    zotfile: 1,
    name: 'writer',
    version: '1.0.0',
    description: 'writes one file',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 32000 },
    permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: command === undefined ? { mode: 'none' } : { mode: 'allowlist', allow: ['chmod'] } },
    entry: { greeting: 'g', default_prompt: 'go' },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(agent, 'AGENT.md'), '# writer\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    { content: [{ type: 'tool_use', id: 't1', name: 'write', input: { path: file, content } }], stop: 'tool_use', usage },
    ...(command === undefined ? [] : [{ content: [{ type: 'tool_use', id: 't2', name: 'bash', input: { command } }], stop: 'tool_use', usage }]),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  writeFileSync(path.join(dir, 'replay.json'), JSON.stringify({ zotbox_replay: 1, model: 'm', turns }));
  const result = await runCliCaptured(['run', agent, '--cwd', ws, '--replay', path.join(dir, 'replay.json'), '-y'], { env: { PATH, HOME: process.env.HOME ?? '' }, cwd: ws });
  return result.stdout + result.stderr;
}

const script = (marker: string) => `#!/bin/sh\ntouch ${marker}\n`;

for (const target of ['bin/acme-lint', 'bin/git'])
  test(`with ./bin on the user's PATH, a name the hook runs from bin/ is refused: ${target}`, async (t) => {
    const ws = binstubProject(t);
    // A new file needs its mode: the agent's confined `chmod` sets it (the rewritten binstub keeps its own).
    const chmod = target === 'bin/git' ? `chmod +x ${target}` : undefined;
    t.log(await agentWritesOnPath(t, ws, target, script(markerOf(ws)), `./bin:${process.env.PATH ?? ''}`, chmod));
    userCommits(ws, './bin');
    t.false(existsSync(markerOf(ws)), `the agent-written ${target} ran in the user's pre-commit hook`);
  });

test("control: with the user's PATH absolute only, an ordinary write is accepted", async (t) => {
  const ws = binstubProject(t);
  t.log(await agentWritesOnPath(t, ws, 'lib/other.rb', 'puts 2\n', process.env.PATH ?? ''));
  t.true(existsSync(path.join(ws, 'lib/other.rb')));
});
