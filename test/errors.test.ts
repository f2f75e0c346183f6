import test from 'ava';
import { ERROR_CODES, ZotboxError, fileSystemError, fromWireError, isZotboxError, toZotboxError } from '../src/errors.js';

test('every registered code follows the ZB_<AREA>_<FAULT> pattern and has a summary', (t) => {
  for (const [code, info] of Object.entries(ERROR_CODES)) {
    t.regex(code, /^ZB_[A-Z]+_[A-Z_]+$/, code);
    t.true(info.summary.length > 10, code);
    t.true([1, 2].includes(info.exit), code); // stated apart from ExitStatus, which the compiler already holds to 1 | 2
  }
});

test('usage errors exit 2 and every other error exits 1', (t) => {
  t.is(new ZotboxError('ZB_CLI_USAGE', 'x').exitStatus, 2);
  t.is(new ZotboxError('ZB_CLI_UNKNOWN_COMMAND', 'x').exitStatus, 2);
  t.is(new ZotboxError('ZB_CLI_NOT_AVAILABLE', 'x').exitStatus, 1);
  t.is(new ZotboxError('ZB_INTERNAL_BUG', 'x').exitStatus, 1);
});

test('an error keeps its cause and JSON-safe details', (t) => {
  const cause = new Error('root');
  const error = new ZotboxError('ZB_CLI_USAGE', 'bad', { cause, details: { option: '--x' } });
  t.is(error.cause, cause);
  t.deepEqual(error.toWire(), { code: 'ZB_CLI_USAGE', message: 'bad', details: { option: '--x' } });
  t.deepEqual(JSON.parse(JSON.stringify(error.toWire())), error.toWire());
});

test('an error survives structured clone as wire data and is rebuilt with its code', (t) => {
  const original = new ZotboxError('ZB_CLI_NOT_AVAILABLE', 'later', { details: { command: 'run' } });
  const cloned = structuredClone(original.toWire());
  const rebuilt = fromWireError(cloned);
  t.true(rebuilt instanceof ZotboxError);
  t.is(rebuilt.code, 'ZB_CLI_NOT_AVAILABLE');
  t.deepEqual(rebuilt.details, { command: 'run' });
});

test('a malformed or unknown wire error becomes ZB_INTERNAL_BUG instead of being trusted', (t) => {
  for (const payload of [null, 42, 'text', { code: 'ZB_NOT_A_CODE', message: 'x' }, { code: 'ZB_CLI_USAGE' }, { code: 'toString', message: 'x' }]) {
    t.is(fromWireError(payload).code, 'ZB_INTERNAL_BUG', JSON.stringify(payload));
  }
});

test('isZotboxError recognises clones by shape and rejects look-alikes', (t) => {
  t.true(isZotboxError(new ZotboxError('ZB_INTERNAL_BUG', 'x')));
  t.true(isZotboxError({ code: 'ZB_CLI_USAGE', message: 'x' }));
  t.false(isZotboxError({ code: 'ENOENT', message: 'x' }));
  t.false(isZotboxError(new Error('x')));
});

test('anything thrown that is not a ZotboxError is wrapped as ZB_INTERNAL_BUG with the original as cause', (t) => {
  const thrown = new RangeError('boom');
  const wrapped = toZotboxError(thrown);
  t.is(wrapped.code, 'ZB_INTERNAL_BUG');
  t.is(wrapped.cause, thrown);
  t.regex(wrapped.message, /boom/);
  const circular: Record<string, unknown> = {};
  circular['self'] = circular;
  t.is(toZotboxError(circular).code, 'ZB_INTERNAL_BUG');
});

test('file-system failures become ZB_IO_FAILED with the path, a plain reason and the errno', (t) => {
  const cause = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const error = fileSystemError('write', '/out/a.zot', cause);
  t.is(error.code, 'ZB_IO_FAILED');
  t.is(error.message, 'cannot write /out/a.zot: the disk is full (ENOSPC).');
  t.deepEqual(error.details, { path: '/out/a.zot', errno: 'ENOSPC' });
  t.is(error.cause, cause);
  const passthrough = new ZotboxError('ZB_ARCHIVE_CORRUPT', 'x');
  t.is(fileSystemError('read', '/x', passthrough), passthrough, 'archive errors are not relabelled');
});
