// A case workspace: the fixture copied faithfully and refused when it holds
// anything but files and folders; afterwards, whatever the run planted (links,
// FIFOs, huge files, locked folders) is reported by kind and never followed,
// opened or read past a bound; remove() deletes links, never their targets.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../../src/errors.js';
import { createCaseWorkspace, type CaseWorkspace } from '../../../src/host/eval/case-workspace.js';
import { tempDir } from '../../fixtures/temp.js';

const code = (error: unknown) => (error as { code?: ErrorCode } | undefined)?.code;
const details = (error: unknown) => (error as { details?: Record<string, unknown> } | undefined)?.details;
const mode = (file: string) => lstatSync(file).mode & 0o777;
const isRoot = process.getuid?.() === 0;

/** sha256 of "hello\n" and of nothing, written down by hand (`printf 'hello\n' | sha256sum`). */
const SHA_HELLO = '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03';
const SHA_EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** root/temp (the eval temp root), root/fixture, and root/outside/sentinel.txt beside them. */
function world(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-ws-'));
  const temp = path.join(root, 'temp');
  const fixture = path.join(root, 'fixture');
  const outside = path.join(root, 'outside');
  for (const directory of [temp, fixture, outside]) mkdirSync(directory);
  const sentinel = path.join(outside, 'sentinel.txt');
  writeFileSync(sentinel, 'TOP SECRET');
  // Teardown of a test that locked folders: give them back first, so tempDir's rmSync can delete them.
  t.teardown(() => {
    if (existsSync(temp)) execFileSync('chmod', ['-R', 'u+rwx', temp]);
  });
  return { root, temp, fixture, outside, sentinel };
}

/** fixture: hello.txt, empty, run.sh (executable), nested/deeper/ünï €.txt */
function basicFixture(fixture: string): void {
  mkdirSync(path.join(fixture, 'nested', 'deeper'), { recursive: true });
  writeFileSync(path.join(fixture, 'hello.txt'), 'hello\n');
  writeFileSync(path.join(fixture, 'empty'), '');
  writeFileSync(path.join(fixture, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(path.join(fixture, 'nested', 'deeper', 'ünï €.txt'), 'deep');
}

function makeFifo(at: string): void {
  execFileSync('mkfifo', [at]);
}

async function workspaceFrom(t: ExecutionContext, fixture?: (directory: string) => void): Promise<{ ws: CaseWorkspace } & ReturnType<typeof world>> {
  const w = world(t);
  fixture?.(w.fixture);
  const ws = await createCaseWorkspace(w.temp, fixture === undefined ? undefined : w.fixture);
  t.teardown(() => ws.remove());
  return { ws, ...w };
}

// --- the fixture copy ---

test('the fixture is copied faithfully: nested folders, the executable bit, empty files, unicode names', async (t) => {
  const { ws, temp } = await workspaceFrom(t, basicFixture);
  t.is(path.dirname(ws.path), temp);
  t.is(mode(ws.path), 0o700);
  t.is(readFileSync(path.join(ws.path, 'hello.txt'), 'utf8'), 'hello\n');
  t.is(readFileSync(path.join(ws.path, 'empty'), 'utf8'), '');
  t.is(readFileSync(path.join(ws.path, 'nested', 'deeper', 'ünï €.txt'), 'utf8'), 'deep');
  t.is(mode(path.join(ws.path, 'run.sh')) & 0o111, 0o111);
  t.is(mode(path.join(ws.path, 'hello.txt')) & 0o111, 0);
  t.deepEqual(readdirSync(ws.path).sort(), ['empty', 'hello.txt', 'nested', 'run.sh']);
  t.deepEqual(ws.snapshot.get('hello.txt'), { size: 6, sha256: SHA_HELLO });
  t.deepEqual(ws.snapshot.get('empty'), { size: 0, sha256: SHA_EMPTY });
  t.deepEqual([...ws.snapshot.keys()].sort(), ['empty', 'hello.txt', 'nested/deeper/ünï €.txt', 'run.sh']);
  t.deepEqual(ws.changedFiles().files, [], 'a fresh copy has no changes');
});

test('no fixture gives an empty private workspace', async (t) => {
  const { ws } = await workspaceFrom(t);
  t.deepEqual(readdirSync(ws.path), []);
  t.is(mode(ws.path), 0o700);
  t.is(ws.snapshot.size, 0);
});

test('two workspaces from one fixture are independent', async (t) => {
  const w = world(t);
  basicFixture(w.fixture);
  const first = await createCaseWorkspace(w.temp, w.fixture);
  const second = await createCaseWorkspace(w.temp, w.fixture);
  t.teardown(() => Promise.all([first.remove(), second.remove()]));
  t.not(first.path, second.path);
  writeFileSync(path.join(first.path, 'hello.txt'), 'changed');
  unlinkSync(path.join(first.path, 'empty'));
  t.is(readFileSync(path.join(second.path, 'hello.txt'), 'utf8'), 'hello\n');
  t.true(existsSync(path.join(second.path, 'empty')));
  t.is(readFileSync(path.join(w.fixture, 'hello.txt'), 'utf8'), 'hello\n', 'the fixture itself is untouched');
  t.deepEqual(second.changedFiles().files, []);
});

const refusedFixture = test.macro({
  async exec(t, arrange: (fixture: string, outside: string) => void, offending: string, limits?: { maxEntries: number; maxBytes: number }) {
    const w = world(t);
    arrange(w.fixture, w.outside);
    const error = await t.throwsAsync(createCaseWorkspace(w.temp, w.fixture, limits));
    t.is(code(error), 'ZB_EVAL_FIXTURE_INVALID');
    t.is(details(error)?.path, offending);
    t.deepEqual(readdirSync(w.temp), [], 'a refused fixture leaves no workspace behind');
  },
  title: (given = '') => `a fixture with ${given} is refused with ZB_EVAL_FIXTURE_INVALID naming the entry`,
});

test('a symlink to a file outside', refusedFixture, (fixture, outside) => symlinkSync(path.join(outside, 'sentinel.txt'), path.join(fixture, 'link.txt')), 'link.txt');
test(
  'a symlink to a folder, nested',
  refusedFixture,
  (fixture, outside) => {
    mkdirSync(path.join(fixture, 'sub'));
    writeFileSync(path.join(fixture, 'sub', 'a.txt'), 'a');
    symlinkSync(outside, path.join(fixture, 'sub', 'out'));
  },
  'sub/out',
);
test('a FIFO', refusedFixture, (fixture) => makeFifo(path.join(fixture, 'pipe')), 'pipe');
test(
  'more entries than the limit',
  refusedFixture,
  (fixture) => {
    for (const name of ['a', 'b', 'c', 'd']) writeFileSync(path.join(fixture, name), name);
  },
  'd',
  { maxEntries: 3, maxBytes: 1000 },
);
test(
  'more bytes than the limit',
  refusedFixture,
  (fixture) => {
    writeFileSync(path.join(fixture, 'a'), 'x'.repeat(600));
    writeFileSync(path.join(fixture, 'b'), 'x'.repeat(600));
  },
  'b',
  { maxEntries: 10, maxBytes: 1000 },
);

// --- what the run left: readWorkspaceFile ---

test('a planted out.txt -> /etc/hostname reads as not_regular symlink, never the target', async (t) => {
  const { ws, sentinel } = await workspaceFrom(t);
  symlinkSync('/etc/hostname', path.join(ws.path, 'out.txt'));
  symlinkSync(sentinel, path.join(ws.path, 'secret.txt'));
  t.deepEqual(ws.readWorkspaceFile('out.txt', 1000), { kind: 'not_regular', what: 'symlink', at: 'out.txt' });
  t.deepEqual(ws.readWorkspaceFile('secret.txt', 1000), { kind: 'not_regular', what: 'symlink', at: 'secret.txt' });
  const changes = ws.changedFiles();
  t.deepEqual(changes.files, [
    { path: 'out.txt', change: 'added', size: '/etc/hostname'.length, content: null, omitted: 'not_a_regular_file', kind: 'symlink' },
    { path: 'secret.txt', change: 'added', size: sentinel.length, content: null, omitted: 'not_a_regular_file', kind: 'symlink' },
  ]);
  t.false(JSON.stringify(changes).includes('TOP SECRET'));
});

test('a planted dir -> / never lets dir/etc/passwd be read: the link is reported where it is', async (t) => {
  const { ws } = await workspaceFrom(t);
  symlinkSync('/', path.join(ws.path, 'dir'));
  t.deepEqual(ws.readWorkspaceFile('dir/etc/passwd', 1_000_000), { kind: 'not_regular', what: 'symlink', at: 'dir' });
  t.deepEqual(ws.changedFiles().files, [{ path: 'dir', change: 'added', size: 1, content: null, omitted: 'not_a_regular_file', kind: 'symlink' }], 'the walk never descends into /');
});

test('a fixture file replaced by a link to a file outside is modified, not_a_regular_file, never read', async (t) => {
  const { ws, sentinel } = await workspaceFrom(t, basicFixture);
  unlinkSync(path.join(ws.path, 'hello.txt'));
  symlinkSync(sentinel, path.join(ws.path, 'hello.txt'));
  t.deepEqual(ws.readWorkspaceFile('hello.txt', 1000), { kind: 'not_regular', what: 'symlink', at: 'hello.txt' });
  t.deepEqual(ws.changedFiles().files, [{ path: 'hello.txt', change: 'modified', size: sentinel.length, content: null, omitted: 'not_a_regular_file', kind: 'symlink' }]);
});

test('a FIFO named out.txt is not_regular fifo and nothing waits on it', async (t) => {
  const { ws } = await workspaceFrom(t);
  makeFifo(path.join(ws.path, 'out.txt'));
  // No writer ever comes: a blocking open or read would hang this test until ava's timeout.
  t.deepEqual(await Promise.resolve(ws.readWorkspaceFile('out.txt', 1000)), { kind: 'not_regular', what: 'fifo', at: 'out.txt' });
  t.deepEqual(ws.changedFiles().files, [{ path: 'out.txt', change: 'added', size: 0, content: null, omitted: 'not_a_regular_file', kind: 'fifo' }]);
});

test('a 1 GiB sparse file is too_large for expectations and graders alike', async (t) => {
  const { ws } = await workspaceFrom(t);
  const big = path.join(ws.path, 'big.bin');
  writeFileSync(big, '');
  truncateSync(big, 1024 ** 3);
  t.deepEqual(ws.readWorkspaceFile('big.bin', 1024 * 1024), { kind: 'too_large', size: 1024 ** 3 });
  t.deepEqual(ws.changedFiles().files, [{ path: 'big.bin', change: 'added', size: 1024 ** 3, content: null, omitted: 'too_large' }]);
});

test('a directory where a file is expected is not_regular directory; a missing one is absent', async (t) => {
  const { ws } = await workspaceFrom(t, basicFixture);
  t.deepEqual(ws.readWorkspaceFile('nested', 1000), { kind: 'not_regular', what: 'directory', at: 'nested' });
  t.deepEqual(ws.readWorkspaceFile('missing.txt', 1000), { kind: 'absent' });
  t.deepEqual(ws.readWorkspaceFile('hello.txt/below', 1000), { kind: 'absent' }, 'nothing can be below a regular file');
  t.deepEqual(ws.readWorkspaceFile('nested/deeper/ünï €.txt', 1000), { kind: 'file', bytes: Buffer.from('deep') });
});

test('a file one byte over maxBytes is too_large; one at maxBytes is read', async (t) => {
  const { ws } = await workspaceFrom(t);
  writeFileSync(path.join(ws.path, 'at.txt'), 'x'.repeat(10));
  writeFileSync(path.join(ws.path, 'over.txt'), 'x'.repeat(11));
  t.deepEqual(ws.readWorkspaceFile('at.txt', 10), { kind: 'file', bytes: Buffer.from('x'.repeat(10)) });
  t.deepEqual(ws.readWorkspaceFile('over.txt', 10), { kind: 'too_large', size: 11 });
});

const outsidePath = test.macro({
  async exec(t, relative: string) {
    const { ws } = await workspaceFrom(t);
    t.is(code(t.throws(() => ws.readWorkspaceFile(relative, 1000))), 'ZB_EVAL_PATH_INVALID');
  },
  title: (_given, relative: string) => `the expectation path ${JSON.stringify(relative)} is refused with ZB_EVAL_PATH_INVALID`,
});
test(outsidePath, '../outside/sentinel.txt');
test(outsidePath, '/etc/passwd');
test(outsidePath, 'a/../b');
test(outsidePath, '');

// --- changedFiles ---

test('changedFiles lists added, modified and deleted files sorted by path, with text content', async (t) => {
  const { ws } = await workspaceFrom(t, basicFixture);
  writeFileSync(path.join(ws.path, 'hello.txt'), 'hello\nworld\n');
  writeFileSync(path.join(ws.path, 'empty'), ''); // rewritten, same content: not a change
  rmSync(path.join(ws.path, 'nested'), { recursive: true });
  writeFileSync(path.join(ws.path, 'a-new.txt'), 'new');
  mkdirSync(path.join(ws.path, 'made'));
  writeFileSync(path.join(ws.path, 'made', 'b.bin'), Buffer.from([0xff, 0x00, 0xfe]));
  t.deepEqual(ws.changedFiles(), {
    files: [
      { path: 'a-new.txt', change: 'added', size: 3, content: 'new' },
      { path: 'hello.txt', change: 'modified', size: 12, content: 'hello\nworld\n' },
      { path: 'made/b.bin', change: 'added', size: 3, content: null, omitted: 'binary' },
      { path: 'nested/deeper/ünï €.txt', change: 'deleted', size: 0, content: null, omitted: 'deleted' },
    ],
    truncated: false,
    unreadable: [],
  });
});

test('a modified file of the same size is found by its digest', async (t) => {
  const { ws } = await workspaceFrom(t, basicFixture);
  writeFileSync(path.join(ws.path, 'hello.txt'), 'HELLO\n');
  t.deepEqual(ws.changedFiles().files, [{ path: 'hello.txt', change: 'modified', size: 6, content: 'HELLO\n' }]);
});

test('a file replaced by a folder is deleted, and the folder’s files are added', async (t) => {
  const { ws } = await workspaceFrom(t, basicFixture);
  unlinkSync(path.join(ws.path, 'empty'));
  mkdirSync(path.join(ws.path, 'empty'));
  writeFileSync(path.join(ws.path, 'empty', 'x'), 'x');
  t.deepEqual(ws.changedFiles().files, [
    { path: 'empty', change: 'deleted', size: 0, content: null, omitted: 'deleted' },
    { path: 'empty/x', change: 'added', size: 1, content: 'x' },
  ]);
});

test('contents past the per-file bound and past the total bound are omitted as too_large', async (t) => {
  const { ws } = await workspaceFrom(t);
  writeFileSync(path.join(ws.path, 'a.txt'), 'a'.repeat(8));
  writeFileSync(path.join(ws.path, 'b.txt'), 'b'.repeat(11));
  writeFileSync(path.join(ws.path, 'c.txt'), 'c'.repeat(8));
  writeFileSync(path.join(ws.path, 'd.txt'), 'd'.repeat(4));
  const { files } = ws.changedFiles({ maxFileBytes: 10, maxTotalBytes: 14, maxEntries: 100, maxPathBytes: 1000 });
  t.deepEqual(files, [
    { path: 'a.txt', change: 'added', size: 8, content: 'a'.repeat(8) },
    { path: 'b.txt', change: 'added', size: 11, content: null, omitted: 'too_large' }, // over the per-file bound
    { path: 'c.txt', change: 'added', size: 8, content: null, omitted: 'too_large' }, // 8 + 8 > 14
    { path: 'd.txt', change: 'added', size: 4, content: 'dddd' }, // 8 + 4 <= 14
  ]);
});

// --- remove ---

test('remove() deletes a link to a folder outside, never the folder: the sentinel survives', async (t) => {
  const { ws, outside, sentinel } = await workspaceFrom(t, basicFixture);
  chmodSync(outside, 0o500);
  t.teardown(() => chmodSync(outside, 0o700));
  symlinkSync(outside, path.join(ws.path, 'escape'));
  symlinkSync(outside, path.join(ws.path, 'nested', 'escape-deep'));
  symlinkSync(sentinel, path.join(ws.path, 'escape-file'));
  await ws.remove();
  t.false(existsSync(ws.path));
  t.is(readFileSync(sentinel, 'utf8'), 'TOP SECRET');
  t.deepEqual(readdirSync(outside), ['sentinel.txt']);
  t.is(statSync(outside).mode & 0o777, 0o500, 'the folder behind the link was never chmod’ed');
});

test('remove() deletes read-only and chmod 000 folders and files, and is idempotent', async (t) => {
  const { ws } = await workspaceFrom(t, basicFixture);
  chmodSync(path.join(ws.path, 'hello.txt'), 0o000);
  chmodSync(path.join(ws.path, 'nested', 'deeper'), 0o000);
  chmodSync(path.join(ws.path, 'nested'), 0o500);
  chmodSync(ws.path, 0o500);
  await ws.remove();
  t.false(existsSync(ws.path));
  await t.notThrowsAsync(ws.remove());
});

test('a chmod 000 folder the run left is unreadable, and its fixture files are not reported deleted', async (t) => {
  const { ws } = await workspaceFrom(t, basicFixture);
  chmodSync(path.join(ws.path, 'nested', 'deeper'), 0o000);
  const read = ws.readWorkspaceFile('nested/deeper/ünï €.txt', 1000);
  const changes = ws.changedFiles();
  if (isRoot) {
    // Root reads through any mode: nothing is unreadable, and nothing changed.
    t.deepEqual(read, { kind: 'file', bytes: Buffer.from('deep') });
    t.deepEqual(changes, { files: [], truncated: false, unreadable: [] });
  } else {
    t.deepEqual(read, { kind: 'unreadable', at: 'nested/deeper/ünï €.txt', errno: 'EACCES' });
    t.deepEqual(changes, {
      files: [],
      truncated: false,
      unreadable: [
        { path: 'nested/deeper', errno: 'EACCES' },
        { path: 'nested/deeper/ünï €.txt', errno: 'EACCES' },
      ],
    });
  }
});
