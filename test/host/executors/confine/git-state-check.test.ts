import test from 'ava';
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beginGitStateCheck } from '../../../../src/host/executors/confine/git-state-check.js';
import { git } from '../../../adversarial-s36i/harness.js';
import { tempDir } from '../../../fixtures/temp.js';

// An unconfined command (nothing binds the gitfiles read-only: beginGitStateCheck's snapshot) rewrites the user's
// gitfile to name the user's own folder, which holds a file named HEAD and notes. The gitfile is put back; what the
// rewritten text named is never taken for a git directory, so nothing in the folder is touched (its HEAD kept).
test('a gitfile an unconfined command rewrote is put back before the scan: the folder it named is never judged', (t) => {
  const root = tempDir(t, 'zb-state-check-');
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  mkdirSync(path.join(ws, 'docs'));
  writeFileSync(path.join(ws, 'docs/HEAD'), 'the head of the document\n');
  writeFileSync(path.join(ws, 'docs/notes.txt'), 'notes\n');
  // A second name for the gitfile outside the scope keeps its inode in use: the put-back's new file always gets another.
  linkSync(path.join(ws, 'lib/.git'), path.join(root, 'held-gitfile'));
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../docs\n');
  const error = t.throws(() => check.finish());
  t.regex(error.message, /lib\/\.git \(an existing gitfile was changed; its content was restored\)/u);
  t.is(readFileSync(path.join(ws, 'lib/.git'), 'utf8'), 'gitdir: ../gitstore/lib\n');
  t.is(readFileSync(path.join(ws, 'docs/HEAD'), 'utf8'), 'the head of the document\n');
  t.is(readFileSync(path.join(ws, 'docs/notes.txt'), 'utf8'), 'notes\n');
});
