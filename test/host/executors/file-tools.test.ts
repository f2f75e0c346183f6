import test, { type ExecutionContext } from 'ava';
import { chmodSync, linkSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../../src/errors.js';
import { executeEdit, executeRead, executeWrite, MAX_READ_FILE_BYTES } from '../../../src/host/executors/file-tools.js';
import type { ApprovedPath } from '../../../src/policy/gate-server.js';
import { decidePathAccess, type PathTool } from '../../../src/policy/path-decision.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { tempDir } from '../../fixtures/temp.js';

function tree(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-exec-'));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(ws, 'src', 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(path.join(outside, 'secret'), 'secret');
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const approve = (tool: PathTool, target: string): ApprovedPath => {
    const decision = decidePathAccess(tool, target, scopes);
    if (!decision.allow) throw new Error(decision.reason);
    return decision;
  };
  return { root, ws, outside, approve };
}

const code = (error: unknown) => (error as { code?: ErrorCode }).code;

test('read returns lines with offset and limit, and says when it cut them', (t) => {
  const { approve } = tree(t);
  t.like(executeRead(approve('read', 'src/a.txt'), {}), { content: 'one\ntwo\nthree', startLine: 1, endLine: 3, totalLines: 3, truncated: false, binary: false });
  t.like(executeRead(approve('read', 'src/a.txt'), { offset: 1, limit: 1 }), { content: 'two', startLine: 2, endLine: 2, truncated: true });
  t.like(executeRead(approve('read', 'src/a.txt'), { offset: 10 }), { content: '', startLine: 0, totalLines: 3 });
});

test('read reports binary files without their content', (t) => {
  const { ws, approve } = tree(t);
  writeFileSync(path.join(ws, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
  writeFileSync(path.join(ws, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  t.like(executeRead(approve('read', 'bin.dat'), {}), { binary: true, content: '', size: 4 });
  t.like(executeRead(approve('read', 'latin1.txt'), {}), { binary: true });
});

test('read refuses files over the size cap, saying how to proceed', (t) => {
  const { ws, approve } = tree(t);
  writeFileSync(path.join(ws, 'big.txt'), Buffer.alloc(MAX_READ_FILE_BYTES + 1, 0x61));
  t.is(code(t.throws(() => executeRead(approve('read', 'big.txt'), {}))), 'ZB_EXEC_FILE_TOO_LARGE');
});

test("write creates missing parents inside the scope and keeps an existing file's mode", (t) => {
  const { ws, approve } = tree(t);
  t.like(executeWrite(approve('write', 'new/deep/file.txt'), { content: 'hello' }), { created: true, bytes: 5 });
  t.is(readFileSync(path.join(ws, 'new/deep/file.txt'), 'utf8'), 'hello');
  chmodSync(path.join(ws, 'src/a.txt'), 0o600);
  t.like(executeWrite(approve('write', 'src/a.txt'), { content: 'replaced' }), { created: false });
  t.is(statSync(path.join(ws, 'src/a.txt')).mode & 0o777, 0o600);
  t.false(
    readdirSync(path.join(ws, 'src')).some((name) => name.endsWith('.tmp')),
    'no temporary file left',
  );
});

test('edit replaces exactly one occurrence, and says when there are none or several', (t) => {
  const { ws, approve } = tree(t);
  t.like(executeEdit(approve('edit', 'src/a.txt'), { old_string: 'two', new_string: '2' }), { path: path.join(ws, 'src/a.txt') });
  t.is(readFileSync(path.join(ws, 'src/a.txt'), 'utf8'), 'one\n2\nthree\n');
  t.is(code(t.throws(() => executeEdit(approve('edit', 'src/a.txt'), { old_string: 'four', new_string: '4' }))), 'ZB_EXEC_EDIT_NO_MATCH');
  writeFileSync(path.join(ws, 'src/a.txt'), 'x x');
  t.is(code(t.throws(() => executeEdit(approve('edit', 'src/a.txt'), { old_string: 'x', new_string: 'y' }))), 'ZB_EXEC_EDIT_AMBIGUOUS');
});

// The race: approved while safe, swapped before the effect.
test('a read whose file is swapped for a symlink after approval is refused', (t) => {
  const { ws, outside, approve } = tree(t);
  const decision = approve('read', 'src/a.txt');
  rmSync(path.join(ws, 'src/a.txt'));
  symlinkSync(path.join(outside, 'secret'), path.join(ws, 'src/a.txt'));
  t.is(code(t.throws(() => executeRead(decision, {}))), 'ZB_POLICY_PATH_UNRESOLVABLE');
});

test('a read whose directory is swapped for a symlink after approval is refused', (t) => {
  const { ws, outside, approve } = tree(t);
  writeFileSync(path.join(outside, 'a.txt'), 'outside copy');
  const decision = approve('read', 'src/a.txt');
  renameSync(path.join(ws, 'src'), path.join(ws, 'src-old'));
  symlinkSync(outside, path.join(ws, 'src'));
  t.is(code(t.throws(() => executeRead(decision, {}))), 'ZB_POLICY_PATH_UNRESOLVABLE');
});

test('a write whose target is swapped for a symlink after approval replaces the link, never writing through it', (t) => {
  const { ws, outside, approve } = tree(t);
  const decision = approve('write', 'src/a.txt');
  rmSync(path.join(ws, 'src/a.txt'));
  symlinkSync(path.join(outside, 'secret'), path.join(ws, 'src/a.txt'));
  executeWrite(decision, { content: 'mine' });
  t.is(readFileSync(path.join(outside, 'secret'), 'utf8'), 'secret', 'the outside file is untouched');
  t.is(readFileSync(path.join(ws, 'src/a.txt'), 'utf8'), 'mine');
});

test('a write whose directory is swapped for a symlink after approval is refused and writes nothing outside', (t) => {
  const { ws, outside, approve } = tree(t);
  const decision = approve('write', 'src/new.txt');
  renameSync(path.join(ws, 'src'), path.join(ws, 'src-old'));
  symlinkSync(outside, path.join(ws, 'src'));
  t.is(code(t.throws(() => executeWrite(decision, { content: 'planted' }))), 'ZB_POLICY_PATH_UNRESOLVABLE');
  t.deepEqual(readdirSync(outside), ['secret']);
});

test('a hard link created after approval is not written through: the other name keeps its content', (t) => {
  const { ws, outside, approve } = tree(t);
  const decision = approve('write', 'src/a.txt');
  rmSync(path.join(ws, 'src/a.txt'));
  linkSync(path.join(outside, 'secret'), path.join(ws, 'src/a.txt'));
  executeWrite(decision, { content: 'mine' });
  t.is(readFileSync(path.join(outside, 'secret'), 'utf8'), 'secret');
});

test('a write below a path that became a file reports an I/O error, not a bug', (t) => {
  const { ws, approve } = tree(t);
  const decision = approve('write', 'newdir/file.txt');
  writeFileSync(path.join(ws, 'newdir'), 'now a file');
  const error = t.throws(() => executeWrite(decision, { content: 'x' }));
  t.true(['ZB_IO_FAILED', 'ZB_POLICY_PATH_UNRESOLVABLE'].includes(code(error)!), `${String(code(error))}: ${error.message}`);
});
