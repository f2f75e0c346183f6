// Review s52a, fail-open (git-aftercare.ts `movedGitDirectories` + git-directory-state.ts `undoGitDirectoryChanges`).
// Every directory holding a HEAD entry in any case has a record, usable or not, with its device+inode. A directory
// named like .git that appears at a new path is judged against a record "gone from its old path" with the same inode,
// and, being named, that record is taken as its baseline even though git never opened it. So:
// run 1: `stash/` with `head` (lower case: not a repository) and `hooks/pre-commit` — an ordinary directory: nothing
//        undone, no stop;
// run 2: `mv stash src/.git`, plus HEAD, objects/, refs/ — a new repository in the user's own `src/`, whose hook is
//        "the record's": nothing undone, no stop.
// The user's `git commit` run from inside src/ (a terminal there, an editor's git panel opened on it) now opens
// src/.git and runs the agent's hook, unconfined. Made directly (the control), the same hook is removed.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const HOOK = "mkdir -p stash/hooks && printf '#!/bin/sh\\ntouch ../PWNED\\n' > stash/hooks/pre-commit && chmod +x stash/hooks/pre-commit";
const ARM = "mkdir -p src/.git/objects src/.git/refs/heads && printf 'ref: refs/heads/main\\n' > src/.git/HEAD";

async function userCommitsInSrc(t: import('ava').ExecutionContext, ws: string): Promise<void> {
  try {
    git(path.join(ws, 'src'), 'add', 'app.js');
    git(path.join(ws, 'src'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
}

test("a directory moved into a new .git never brings a hook the user's git runs", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': `${HOOK} && : > stash/head\n`, 'two.sh': `mv stash src/.git && ${ARM}\n` });
  t.log('run 1:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-500));
  t.log('run 2:', (await agentWrites(t, ws, 'y.txt', 'y\n', 'sh two.sh')).slice(-500));
  t.log('hook kept:', existsSync(path.join(ws, 'src/.git/hooks/pre-commit')));
  await userCommitsInSrc(t, ws);
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});

test("the same at the workspace's top when the workspace is a package inside the user's repository", async (t) => {
  // The user runs zotbox in a monorepo package: the workspace has no .git of its own, the repository is one level up.
  const outer = path.dirname(project(t, { 'README.md': 'outer\n' }));
  const repo = path.join(outer, 'ws');
  const ws = path.join(repo, 'pkg');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'app.js'), '1;\n');
  writeFileSync(path.join(ws, 'one.sh'), `${HOOK} && : > stash/head\n`);
  writeFileSync(path.join(ws, 'two.sh'), "mv stash .git && mkdir -p .git/objects .git/refs/heads && printf 'ref: refs/heads/main\\n' > .git/HEAD\n");
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'pkg');
  t.log('run 1:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-500));
  t.log('run 2:', (await agentWrites(t, ws, 'y.txt', 'y\n', 'sh two.sh')).slice(-500));
  try {
    git(ws, 'add', 'app.js');
    git(ws, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // The hook touches ../PWNED from the top it runs in: pkg/ (the agent's repository) or the user's repository.
  t.false(existsSync(path.join(repo, 'PWNED')) || existsSync(path.join(outer, 'PWNED')));
});

test('control: the same hook in a new src/.git made in one call is removed', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': `${HOOK} && mv stash src/.git && ${ARM}\n` });
  t.log('run 1:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-500));
  await userCommitsInSrc(t, ws);
  t.false(existsSync(path.join(ws, 'PWNED')));
});
