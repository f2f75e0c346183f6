// A name a setting gives that does not exist yet is protected as a file. When a call makes it a directory (the
// project's first tests/test_x.py), the aftercare keeps it as the gate allowed it, since a directory a setting names is
// not protected; a file protected inside it now (a new .envrc) is still removed, and the name made a file is too.
import test from 'ava';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ProtectedSet, recordProtected, restoreProtected } from '../../../../src/host/executors/confine/protected-locations.js';
import { tempDir } from '../../../fixtures/temp.js';

/** A protected set of `paths` (files, not trees), as protectedSetOf gives it. */
function setOf(paths: readonly string[]): ProtectedSet {
  return { locations: paths.map((p) => ({ path: p, tree: false, reason: 'named by a setting' })), paths, reasons: new Map(paths.map((p) => [p, 'named by a setting'])), unresolved: [] };
}

test('a protected name the call made a directory nothing protects stays; what is protected inside it is removed', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-first-dir-'));
  const tests = path.join(ws, 'tests');
  const record = recordProtected(setOf([tests]), [ws]);
  mkdirSync(tests);
  writeFileSync(path.join(tests, 'test_app.py'), 'def test_add():\n    pass\n');
  writeFileSync(path.join(tests, '.envrc'), 'PATH_add bin\n');
  // After the call the reader sees a directory (not protected) and a new tool file in it (protected).
  const changes = restoreProtected(record, setOf([path.join(tests, '.envrc')]), [ws]);
  t.deepEqual(
    changes.map((change) => path.relative(ws, change.path)),
    ['tests/.envrc'],
  );
  t.true(existsSync(path.join(tests, 'test_app.py')));
  t.false(existsSync(path.join(tests, '.envrc')));
});

test('a protected name the call made a file, or a directory still protected, is removed', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-first-dir-'));
  const check = path.join(ws, 'check');
  writeFileSync(check, 'run me\n');
  t.deepEqual(
    restoreProtected(recordProtected(setOf([]), [ws]), setOf([check]), [ws]).map((change) => change.path),
    [check],
  );
  const hooks = path.join(ws, 'githooks');
  const record = recordProtected(setOf([hooks]), [ws]);
  mkdirSync(hooks);
  t.deepEqual(
    restoreProtected(record, setOf([hooks]), [ws]).map((change) => change.path),
    [hooks],
  );
  t.false(existsSync(hooks));
});
