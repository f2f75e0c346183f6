import test from 'ava';
import { outermostPaths } from '../../../../src/host/executors/confine/outermost-paths.js';
import { isInsideRoot } from '../../../../src/policy/scopes.js';

test('a path inside another is dropped; a sibling that only shares a prefix is kept', (t) => {
  t.deepEqual(outermostPaths(['/w/a/b/c.py', '/w/a/b', '/w/a/b-c', '/w/a/bc/d', '/w/a/b/d/e']), ['/w/a/b', '/w/a/b-c', '/w/a/bc/d']);
});

test('the root holds every path, and duplicates count once', (t) => {
  t.deepEqual(outermostPaths(['/w/x', '/', '/w']), ['/']);
  t.deepEqual(outermostPaths(['/w/x', '/w/x', '/v']), ['/v', '/w/x']);
});

test('the same result as comparing every pair with isInsideRoot, on generated paths', (t) => {
  const parts = ['a', 'b', 'a-b', 'ab', '__init__.py', 'os.py'];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  for (let round = 0; round < 200; round++) {
    const paths = Array.from({ length: 1 + (next() % 12) }, () => `/${Array.from({ length: 1 + (next() % 4) }, () => parts[next() % parts.length]).join('/')}`);
    const unique = [...new Set(paths)];
    const expected = unique.filter((p) => !unique.some((outer) => outer !== p && isInsideRoot(p, outer)));
    t.deepEqual(outermostPaths(paths).sort(), expected.sort(), paths.join(' '));
  }
});
