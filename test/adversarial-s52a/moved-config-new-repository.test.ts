// Review s52a probe, HELD (passes today; kept as a record of what was tried). git-aftercare.ts looks a config's
// earlier text up by its path first. Moving a nested
// repository is allowed now (s51z 2's fix); a NEW git directory the command makes at the old path, with the user's
// config text copied into it, passes the config check (the text equals what stood at that path) although the
// repository is the agent's. With the user's `core.hooksPath = .githooks` the user's git in lib/ runs
// lib/.githooks/* of the new tree.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const EVIL = 'printf \'#!/bin/sh\\ntouch "@WS@/PWNED"\\n\'';
const NEW_REPO =
  'mv lib lib2 && mkdir -p lib/.git/objects lib/.git/refs/heads lib/.githooks && printf "ref: refs/heads/main\\n" > lib/.git/HEAD && cp lib2/.git/config lib/.git/config && cp lib2/a.txt lib/a.txt';

function layout(t: import('ava').ExecutionContext, hook: string): string {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': `${NEW_REPO} && ${EVIL} > lib/.githooks/${hook} && chmod +x lib/.githooks/${hook}\n` });
  withWorkspacePath(ws);
  execFileSync('git', ['init', '-q', 'lib'], { cwd: ws });
  execFileSync('git', ['-C', 'lib', 'config', 'core.hooksPath', '.githooks'], { cwd: ws });
  mkdirSync(path.join(ws, 'lib/.githooks'));
  writeFileSync(path.join(ws, 'lib/.githooks/pre-commit'), '#!/bin/sh\necho checked\n');
  chmodSync(path.join(ws, 'lib/.githooks/pre-commit'), 0o755);
  writeFileSync(path.join(ws, 'lib/a.txt'), 'a\n');
  return ws;
}

async function userCommits(t: import('ava').ExecutionContext, ws: string): Promise<void> {
  for (const top of ['lib', 'lib2']) {
    try {
      git(path.join(ws, top), 'add', 'a.txt');
      git(path.join(ws, top), 'commit', '-q', '-m', 'user change');
    } catch (error) {
      t.log(`user git in ${top} failed:`, String(error).slice(0, 300));
    }
  }
}

for (const hook of ['pre-commit', 'post-commit']) {
  test(`a new repository made where the user's moved one stood, with its config copied, never runs the agent's ${hook}`, async (t) => {
    const ws = layout(t, hook);
    t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-1500));
    await userCommits(t, ws);
    t.false(existsSync(path.join(ws, 'PWNED')));
  });
}
