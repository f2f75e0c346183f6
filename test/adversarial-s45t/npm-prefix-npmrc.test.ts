// Review s45t of issue 21: package-manager-configs.ts protects the `.npmrc` npm reads "in every directory it runs in
// and above", placing the directory by the hook's `cd`. npm's own `--prefix DIR` / `-C DIR` (the usual way a hook at a
// repository's top runs the front end's tools: `npm --prefix frontend run lint`) makes DIR npm's project, and npm reads
// `DIR/.npmrc` as the project config: its `node-options` become NODE_OPTIONS for the script's node. The directory is
// not placed: `frontend/.npmrc` is writable, and the user's commit runs the payload (end to end with npm here).
// Control: the top's `.npmrc` is refused; the same hook through `cd frontend && npm run lint` refuses frontend's.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';
import { nodeOptionsPayload, ordinaryWriteAccepted, writeThenCommit } from './fixtures.js';

const npmProject = (t: ExecutionContext, hook: string) =>
  project(t, {
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    'package.json': '{"name":"top","private":true}\n',
    'frontend/package.json': '{"name":"frontend","private":true,"scripts":{"lint":"node lint.js"}}\n',
    'frontend/lint.js': 'console.log("lint ok");\n',
  });
const npmrc = (marker: string) => `node-options=${nodeOptionsPayload(marker)}\n`;

for (const hook of ['npm --prefix frontend run lint', 'npm -C frontend run lint', 'npm run lint --prefix=frontend'])
  test(`the .npmrc of the project npm is given by --prefix is refused: ${hook}`, async (t) => {
    await writeThenCommit(t, npmProject(t, hook), 'frontend/.npmrc', npmrc);
  });

// Controls: pnpm's `-C`/`--dir` and yarn's `--cwd` (run in DIR, read DIR/.npmrc and DIR/.yarnrc) are placed today;
// npm's own spellings are what is missing (pnpm and yarn 1 not installed: the write alone).
for (const [hook, file] of [
  ['pnpm -C frontend lint', 'frontend/.npmrc'],
  ['pnpm --dir frontend lint', 'frontend/.npmrc'],
  ['yarn --cwd frontend lint', 'frontend/.yarnrc'],
] as const)
  test(`control (passes today): the config of the directory a runner is moved to by its option is refused: ${hook} (${file})`, async (t) => {
    const ws = npmProject(t, hook);
    t.log(await agentWrites(t, ws, file, file.endsWith('.yarnrc') ? 'yarn-path "../notes/y.js"\n' : npmrc('/tmp/owned')));
    t.false(existsSync(path.join(ws, file)), `${file} was written`);
  });

test('control (passes today): cd frontend && npm run lint: frontend/.npmrc refused', async (t) => {
  await writeThenCommit(t, npmProject(t, 'cd frontend && npm run lint'), 'frontend/.npmrc', npmrc);
});

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, npmProject(t, 'npm --prefix frontend run lint'), 'frontend/src.js');
});
