// test/fixtures/compat is a copy of ../shared/compat, so the other tests use the
// fixtures from the clone alone. This test compares the two: it needs ../shared/compat
// (CI lays shared/ beside the clone) and fails, never passes, when it is missing.
import test from 'ava';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './fixtures/paths.js';

const VENDORED = path.join(REPO_ROOT, 'test/fixtures/compat');
const SHARED = path.join(REPO_ROOT, '..', 'shared', 'compat');

const listFiles = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();

test('the vendored compat fixtures equal ../shared/compat', (t) => {
  // CI lays shared/ beside the clone (read-only); without it this test cannot compare anything, so it fails.
  if (!existsSync(SHARED)) {
    t.fail(`${SHARED} is not present, so the vendored copy ${VENDORED} cannot be compared with it. Fix: lay the shared tree (with compat/) beside the clone, as CI does.`);
    return;
  }
  const files = listFiles(SHARED);
  t.true(files.length > 0, `${SHARED} holds no files`);
  t.deepEqual(listFiles(VENDORED), files);
  for (const file of files) t.deepEqual(readFileSync(path.join(VENDORED, file)), readFileSync(path.join(SHARED, file)), file);
});
