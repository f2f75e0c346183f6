// Review s53b, data loss by zotbox (git-aftercare.ts `movedFiles`, s52a 5's fix, gitfiles only).
// A gitfile moved with its parent is matched by inode and kept; a `.git` symlink is not (links are recorded without
// an inode, and movedFiles looks at files only). `mv lib lib2` of a worktree whose `.git` is a relative link
// (`.git -> ../gitstore/lib`, as `repo`-tool checkouts and dotfile layouts make, meaning the same after the move)
// makes `lib2/.git` "new", and zotbox removes it: lib2/ is no longer a repository.
import { existsSync, lstatSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

test("a user's .git link moved with its parent is kept", async (t) => {
  const ws = project(t, { 'one.sh': 'mv lib lib2\n', 'gitstore/.keep': '' });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  rmSync(path.join(ws, 'lib/.git'));
  symlinkSync('../gitstore/lib', path.join(ws, 'lib/.git'));
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-500));
  t.true(existsSync(path.join(ws, 'lib2')));
  // SAFE: the user's link moved with lib/ and still stands.
  t.true(lstatSync(path.join(ws, 'lib2/.git'), { throwIfNoEntry: false })?.isSymbolicLink() === true);
});
