// Review s51z, fail-open (git-directory-state.ts `recordGitDirectory` / `undoGitDirectoryChanges`). A directory a
// gitfile names counts as one git opens (`usable: pointedTo || ...`) whether or not it holds a HEAD. Where the user's
// gitfile names a directory that is missing (`lib/.git`: `gitdir: ../gitstore/lib`, a separate git directory moved
// or not yet restored), run 1 makes it with only a hook in it: it is new, not named like .git, so nothing is removed,
// and there is no HEAD to remove ("without a HEAD git does not open it"); the hook stays (the run is stopped). From
// run 2 on it is a git directory that git "opened" before the call, so the hook is the record's, and run 2 adds HEAD,
// objects/ and refs/, all of them git's data: nothing is undone, no stop. The user's `git commit` in lib/ runs the
// agent's hook, unconfined. The target need not be missing: where the user's separate git directory (`git init
// --separate-git-dir`) lies in an ordinary directory, run 1 renames that directory away first (the git directory is
// bound over itself, its parent is not) and makes the hook where the gitfile points.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const PLANT = "mkdir -p gitstore/lib/hooks && printf '#!/bin/sh\\ntouch ../PWNED\\n' > gitstore/lib/hooks/pre-commit && chmod +x gitstore/lib/hooks/pre-commit\n";
const ARM = "mkdir -p gitstore/lib/objects gitstore/lib/refs/heads && printf 'ref: refs/heads/main\\n' > gitstore/lib/HEAD\n";

function layout(t: import('ava').ExecutionContext): string {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': PLANT, 'two.sh': ARM });
  mkdirSync(path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  writeFileSync(path.join(ws, 'lib/a.txt'), 'a\n');
  return ws;
}

test("a hook planted in the missing directory a user's gitfile names is never run by the user's git", async (t) => {
  const ws = layout(t);
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-700));
  t.log('hook after run 1:', existsSync(path.join(ws, 'gitstore/lib/hooks/pre-commit')));
  const two = await agentWrites(t, ws, 'y.txt', 'y\n', 'sh two.sh');
  t.log(two.slice(-700));
  // The user's own work in lib/ (git now opens it through their gitfile).
  try {
    git(path.join(ws, 'lib'), 'add', 'a.txt');
    git(path.join(ws, 'lib'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});

test("the same with the user's real separate git directory, renamed away first (its parent is an ordinary directory)", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': `mv gitstore gitstore.old && ${PLANT}`, 'two.sh': ARM });
  mkdirSync(path.join(ws, 'gitstore'));
  execFileSync('git', ['init', '-q', '--separate-git-dir', 'gitstore/lib', 'lib'], { cwd: ws });
  writeFileSync(path.join(ws, 'lib/a.txt'), 'a\n');
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-700));
  const two = await agentWrites(t, ws, 'y.txt', 'y\n', 'sh two.sh');
  t.log(two.slice(-700));
  try {
    git(path.join(ws, 'lib'), 'add', 'a.txt');
    git(path.join(ws, 'lib'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  t.false(existsSync(path.join(ws, 'PWNED')));
});

test("the same through the user's .git symlink to a missing directory", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': PLANT, 'two.sh': ARM });
  mkdirSync(path.join(ws, 'lib'));
  symlinkSync('../gitstore/lib', path.join(ws, 'lib/.git'));
  writeFileSync(path.join(ws, 'lib/a.txt'), 'a\n');
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-400));
  t.log((await agentWrites(t, ws, 'y.txt', 'y\n', 'sh two.sh')).slice(-400));
  try {
    git(path.join(ws, 'lib'), 'add', 'a.txt');
    git(path.join(ws, 'lib'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  t.false(existsSync(path.join(ws, 'PWNED')));
});

test('control: the same hook planted after the directory is complete is undone', async (t) => {
  const ws = layout(t);
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh two.sh')).slice(-400));
  t.regex(await agentWrites(t, ws, 'y.txt', 'y\n', 'sh one.sh'), /ZB_CONFINEMENT_GIT_PROGRAM|Read-only|read-only/u);
  t.false(existsSync(path.join(ws, 'gitstore/lib/hooks/pre-commit')));
});
