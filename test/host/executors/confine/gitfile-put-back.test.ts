// Gitfiles an unconfined command changed are put back each on its own (git-aftercare.ts restoreControlFiles), driven
// as command-isolation.ts `unconfinedCall` drives it: beginGitStateCheck, the command's effects, finish.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../../src/errors.js';
import { beginGitStateCheck } from '../../../../src/host/executors/confine/git-state-check.js';
import { tempDir } from '../../../fixtures/temp.js';

/** A workspace with two checkouts, lib/ and zlib/, whose gitfiles name their git directories in gitstore/. */
function twoCheckouts(t: ExecutionContext): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-put-back-')), 'ws');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  for (const name of ['lib', 'zlib']) {
    execFileSync('git', ['init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', name), path.join(ws, name)]);
    writeFileSync(path.join(ws, name, '.git'), `gitdir: ../gitstore/${name}\n`);
  }
  return ws;
}

test('an unconfined command that moves a checkout (mv lib lib2) is ordinary work: nothing to put back, no stop', (t) => {
  const ws = twoCheckouts(t);
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  renameSync(path.join(ws, 'lib'), path.join(ws, 'lib2'));
  t.notThrows(() => check.finish());
  t.is(readFileSync(path.join(ws, 'lib2', '.git'), 'utf8'), 'gitdir: ../gitstore/lib\n');
  t.is(execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: path.join(ws, 'lib2'), encoding: 'utf8' }), `${path.join(ws, 'gitstore', 'lib')}\n`);
});

test('a gitfile that cannot be put back is reported as the command’s, and every other one is still put back', (t) => {
  const ws = twoCheckouts(t);
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  const [first, second] = [...check.before.gitEntries.keys()] as [string, string];
  t.deepEqual([first, second].map((entry) => path.relative(ws, entry)).sort(), ['lib/.git', 'zlib/.git']);
  // The command swaps the two gitfiles' texts: the first made anew (a new inode) and immutable, so that zotbox can
  // neither remove nor replace it (the command runs as root, as zotbox does); the second rewritten in place.
  const otherOf = (entry: string) => (entry === first ? second : first);
  // Written beside it and renamed over it, so that its inode is new (a removed file's inode is often reused at once).
  writeFileSync(`${first}.new`, `gitdir: ../gitstore/${path.basename(path.dirname(otherOf(first)))}\n`);
  renameSync(`${first}.new`, first);
  const pinned = spawnSync('chattr', ['+i', first], { encoding: 'utf8' });
  t.teardown(() => spawnSync('chattr', ['-i', first]));
  t.is(pinned.status, 0, `chattr +i must work here (ext4, root): ${pinned.stderr}`);
  writeFileSync(second, `gitdir: ../gitstore/${path.basename(path.dirname(otherOf(second)))}\n`);
  const error = t.throws(() => check.finish(), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  // The second is the user's text again, though the first could not be put back.
  t.is(readFileSync(second, 'utf8'), `gitdir: ../gitstore/${path.basename(path.dirname(second))}\n`);
  // The first is reported: its put-back failed, and what stands there is judged as the command's gitfile (never as the
  // user's, which zotbox did not manage to put back).
  t.regex(error.message, new RegExp(`${first} \\(an existing gitfile was changed; putting it back failed \\([A-Z]+\\): review it by hand\\)`, 'u'));
  t.regex(error.message, new RegExp(`${first} \\(a gitfile points git at another directory's config and hooks; undoing it failed \\([A-Z]+\\)`, 'u'));
});

test("putting back a gitfile never acts through a link further up its path (the user's other repository outside the scope)", (t) => {
  const top = realpathSync(tempDir(t, 'zb-put-back-'));
  const ws = path.join(top, 'ws');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  execFileSync('git', ['init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'lib'), path.join(ws, 'packages', 'lib')]);
  writeFileSync(path.join(ws, 'packages', 'lib', '.git'), 'gitdir: ../../gitstore/lib\n');
  // Outside the write scope: another checkout of the user's, with the same layout and a repository of its own.
  const other = path.join(top, 'other');
  execFileSync('git', ['init', '-q', path.join(other, 'lib')]);
  const otherHead = readFileSync(path.join(other, 'lib', '.git', 'HEAD'), 'utf8');
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  renameSync(path.join(ws, 'packages'), path.join(ws, 'packages.old'));
  symlinkSync(other, path.join(ws, 'packages'));
  const error = t.throws(() => check.finish(), { instanceOf: ZotboxError });
  t.regex(error.message, /packages on the way to this gitfile is not a plain directory now/u);
  // The other repository keeps its git directory, untouched.
  t.true(lstatSync(path.join(other, 'lib', '.git')).isDirectory());
  t.is(readFileSync(path.join(other, 'lib', '.git', 'HEAD'), 'utf8'), otherHead);
});
