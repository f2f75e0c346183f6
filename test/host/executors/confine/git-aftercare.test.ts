import test from 'ava';
import { execFileSync } from 'node:child_process';
import { realpathSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { removeUnsafeGitChanges } from '../../../../src/host/executors/confine/git-aftercare.js';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { tempDir } from '../../../fixtures/temp.js';

test('a git directory the aftercare cannot look at after the call (a link loop on its path) is reported, never thrown', (t) => {
  const ws = realpathSync(tempDir(t));
  execFileSync('git', ['init', '-q', path.join(ws, 'lib')]);
  const before = scanGitMetadata([ws]);
  // The command moved the repository away and left a link to itself where it stood: lstat of lib/.git meets ELOOP.
  renameSync(path.join(ws, 'lib'), path.join(ws, 'lib.old'));
  symlinkSync('lib', path.join(ws, 'lib'));
  const after = scanGitMetadata([ws], [], false);
  const violations = removeUnsafeGitChanges(before, after);
  t.deepEqual(
    violations.map((v) => v.path),
    [path.join(ws, 'lib/.git')],
  );
  t.regex(violations[0]?.reason ?? '', /could not check it \(ELOOP\): review it by hand/u);
});
