// test/fixtures/compat is a copy of ../shared/compat, so `npm test` works on a clone
// without the development tree around it. When the shared copy is present, they must agree.
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
  if (!existsSync(SHARED)) {
    t.log(`skipped: ${SHARED} is not present (a clone outside the development tree)`);
    t.pass();
    return;
  }
  const files = listFiles(SHARED);
  t.deepEqual(listFiles(VENDORED), files);
  for (const file of files) t.deepEqual(readFileSync(path.join(VENDORED, file)), readFileSync(path.join(SHARED, file)), file);
});
