// zotbox's own index parser (third review, findings 6-8): flags read from the
// bytes, names expanded only within MAX_INDEX_NAME_BYTES, one object format, and
// every field git would read another way refused. Indexes built by
// test/fixtures/git-index-bytes.ts; the real git's own in git-index-rewrite.test.ts.
import test from 'ava';
import { MAX_INDEX_NAME_BYTES, parseIndex, type IndexParse } from '../../../../src/host/executors/confine/git-index-parse.js';
import { buildIndex, expandingNames } from '../../../fixtures/git-index-bytes.js';

function parsed(result: IndexParse) {
  if (!result.ok) throw new Error(result.reason);
  return result.index;
}

test('the flags are read from the entries: assume-unchanged, skip-worktree; intent-to-add is no flag that hides', (t) => {
  const index = parsed(
    parseIndex(
      buildIndex({
        version: 3,
        entries: [{ name: 'Makefile', valid: true }, { name: 'a.js', extended: 0x2000 }, { name: 'package.json', skip: true }, { name: 'z' }],
      }),
      'sha1',
    ),
  );
  t.deepEqual(
    index.entries.map((e) => [e.path, e.valid, e.skip]),
    [
      ['Makefile', true, false],
      ['a.js', false, false],
      ['package.json', false, true],
      ['z', false, false],
    ],
  );
  t.true(index.named);
});

test('version 4 names are expanded from the previous one', (t) => {
  const index = parsed(
    parseIndex(
      buildIndex({
        version: 4,
        entries: [{ name: 'src/a.c' }, { name: 'b.c', strip: 3 }, { name: 'test/x', strip: 7 }],
      }),
      'sha1',
    ),
  );
  t.deepEqual(
    index.entries.map((e) => e.path),
    ['src/a.c', 'src/b.c', 'test/x'],
  );
  t.is(index.nameBytes, 20);
});

test('a 1.6 MB version 4 index naming 312 MB is parsed without building a name past the bound', (t) => {
  const bytes = buildIndex({ version: 4, entries: expandingNames(25_000, 5_000) });
  t.true(bytes.length < 1_700_000, 'precondition: the index is small');
  const index = parsed(parseIndex(bytes, 'sha1'));
  t.is(index.entries.length, 25_000, 'every entry is still located, for the rewrite');
  t.is(index.nameBytes, (25_000 * 25_001) / 2);
  t.true(index.nameBytes > MAX_INDEX_NAME_BYTES);
  t.false(index.named);
  t.true(
    index.entries.every((e) => e.path === undefined),
    'no name is kept',
  );
  t.deepEqual(
    index.entries.flatMap((e, i) => (e.skip ? [i] : [])),
    [0, 5_000, 10_000, 15_000, 20_000],
    'flags are read without names',
  );
});

test('the bound is on the expanded names: just within it every name is built, one byte past it none', (t) => {
  const bytes = buildIndex({ version: 4, entries: expandingNames(100) });
  const total = (100 * 101) / 2;
  t.true(parsed(parseIndex(bytes, 'sha1', total)).named);
  t.false(parsed(parseIndex(bytes, 'sha1', total - 1)).named);
});

test('an index is read in the format given, never the other: a SHA-256 index is refused as SHA-1, and the reverse', (t) => {
  const sha256 = buildIndex({ version: 2, hash: 'sha256', entries: [{ name: 'a' }] });
  const sha1 = buildIndex({ version: 2, entries: [{ name: 'a' }] });
  t.true(parseIndex(sha256, 'sha256').ok);
  t.false(parseIndex(sha256, 'sha1').ok);
  t.true(parseIndex(sha1, 'sha1').ok);
  t.false(parseIndex(sha1, 'sha256').ok);
});

test("a zero trailer (index.skipHash) is accepted at the format's full length only", (t) => {
  t.true(parseIndex(buildIndex({ version: 2, entries: [{ name: 'a' }], trailer: 'zero' }), 'sha1').ok);
  t.true(parseIndex(buildIndex({ version: 2, hash: 'sha256', entries: [{ name: 'a' }], trailer: 'zero' }), 'sha256').ok);
  const halfZero = Buffer.alloc(32);
  halfZero[31] = 1;
  const result = parseIndex(buildIndex({ version: 2, hash: 'sha256', entries: [{ name: 'a' }], trailer: halfZero }), 'sha256');
  t.false(result.ok);
  t.regex(result.ok ? '' : result.reason, /checksum/u);
});

for (const [what, spec, reason] of [
  ['a name length in the flags shorter than the name (git would read another name, and shift the entries)', { version: 2, entries: [{ name: 'Makefile', nameLength: 4 }] }, /name length/u],
  ['a name length in the flags longer than the name', { version: 4, entries: [{ name: 'a' }, { name: 'b', nameLength: 5 }] }, /name length/u],
  ['an extended flag git does not know', { version: 3, entries: [{ name: 'a', extended: 0x1000 }] }, /extended flags git does not know/u],
  ['extended flags in a version 2 index', { version: 2, entries: [{ name: 'a', skip: true }] }, /version 2/u],
  ['a version 4 strip longer than the previous name', { version: 4, entries: [{ name: 'a' }, { name: 'b', strip: 2 }] }, /prefix-compressed/u],
  ['an unknown extension', { version: 2, entries: [{ name: 'a' }], extensions: [{ signature: 'ZZZZ', body: Buffer.alloc(0) }] }, /"ZZZZ" extension/u],
] as const) {
  test(`refused: ${what}`, (t) => {
    const result = parseIndex(buildIndex(spec), 'sha1');
    t.false(result.ok);
    t.regex(result.ok ? '' : result.reason, reason);
  });
}

test('a name of 0xfff bytes or more is read to its NUL, as git does', (t) => {
  const long = 'd/'.repeat(2100);
  const index = parsed(parseIndex(buildIndex({ version: 2, entries: [{ name: long }, { name: `${long}z` }] }), 'sha1'));
  t.deepEqual(
    index.entries.map((e) => e.path?.length),
    [4200, 4201],
  );
});
