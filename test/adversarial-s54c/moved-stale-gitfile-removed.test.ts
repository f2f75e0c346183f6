// Review s54c, data loss by zotbox (git-moved-entries.ts `movedPointers`): a gitfile moved with its parent is kept
// only while it names the same directory as before. git's own gitfile is absolute (`git init --separate-git-dir`
// writes `gitdir: /abs/path`); the user's `mv project project2` moves the worktree and its git directory together,
// so the gitfile names nothing now (its old path is gone): "a pointer whose meaning changed", undone like a new
// one: removed. Before 5e9a1b5 it was kept (matched by inode). The user's project2/lib is no longer a worktree and
// the one line saying where its history lives is gone (the user would `echo gitdir: ... > .git` by hand).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

test('a user gitfile moved with its parent is never removed by zotbox', async (t) => {
  const ws = project(t, { 'project/gitstore/.keep': '', 'one.sh': 'mv project project2\n' });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'project/gitstore/lib'), path.join(ws, 'project/lib'));
  const written = readFileSync(path.join(ws, 'project/lib/.git'), 'utf8');
  t.log('gitfile:', written);
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-600));
  // SAFE: the user's gitfile is still there (kept, or set aside beside it), with its text.
  t.true(existsSync(path.join(ws, 'project2/lib/.git')));
});
