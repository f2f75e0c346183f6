import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../src/errors.js';
import { ensureReceiptKey, readReceiptKey, receiptKeyPath } from '../../../src/host/consent/receipt-key.js';
import { tempDir } from '../../fixtures/temp.js';

const refusal = (t: Parameters<typeof tempDir>[0], run: () => unknown) => {
  const error = t.throws(run, { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_IO_FAILED');
  t.regex(error.message, /receipt\.key .*Fix: delete it/);
  return error.details as { path: string; problem: string };
};

test('the key is created on first use: 32 random bytes, mode 0600, in a new 0700 state directory; no temporary file remains', (t) => {
  const state = path.join(tempDir(t), 'fresh', 'zotbox');
  const key = ensureReceiptKey(state);
  t.is(key.length, 32);
  t.is(statSync(receiptKeyPath(state)).mode & 0o7777, 0o600);
  t.is(statSync(state).mode & 0o777, 0o700);
  t.deepEqual(readdirSync(state), ['receipt.key']);
  t.deepEqual(readFileSync(receiptKeyPath(state)), key);
  t.notDeepEqual(ensureReceiptKey(path.join(tempDir(t), 'other')), key, 'each installation has its own');
});

test('the key is 0600 whatever the umask of the process that creates it', (t) => {
  // A child process, so the test process's umask is never changed.
  const state = path.join(tempDir(t), 'zotbox');
  const module = new URL('../../../src/host/consent/receipt-key.js', import.meta.url).href;
  execFileSync(process.execPath, ['--input-type=module', '-e', `process.umask(0o277); const m = await import(${JSON.stringify(module)}); m.ensureReceiptKey(${JSON.stringify(state)});`]);
  t.is(statSync(receiptKeyPath(state)).mode & 0o7777, 0o600);
});

test('an existing key is read, never replaced', (t) => {
  const state = tempDir(t);
  const first = ensureReceiptKey(state);
  t.deepEqual(ensureReceiptKey(state), first);
  t.deepEqual(readReceiptKey(state), first);
});

test('reading when there is no key yet gives undefined and creates nothing', (t) => {
  const state = tempDir(t);
  t.is(readReceiptKey(state), undefined);
  t.false(existsSync(receiptKeyPath(state)));
});

test('a key that is a symlink (even to a good 0600 key) is refused, by reading and by creating', (t) => {
  const state = tempDir(t);
  const elsewhere = path.join(tempDir(t), 'key');
  writeFileSync(elsewhere, Buffer.alloc(32, 1), { mode: 0o600 });
  symlinkSync(elsewhere, receiptKeyPath(state));
  t.is(refusal(t, () => readReceiptKey(state)).problem, 'is a symbolic link');
  t.is(refusal(t, () => ensureReceiptKey(state)).problem, 'is a symbolic link');
});

test('a key readable by others (0644), or with any mode but 0600, is refused', (t) => {
  for (const mode of [0o644, 0o640, 0o400, 0o700, 0o4600]) {
    const state = tempDir(t);
    writeFileSync(receiptKeyPath(state), Buffer.alloc(32, 1));
    chmodSync(receiptKeyPath(state), mode);
    t.regex(refusal(t, () => readReceiptKey(state)).problem, /^has mode \d{4}, not 0600$/, mode.toString(8));
  }
});

test('a key owned by another user is refused', (t) => {
  const state = tempDir(t);
  writeFileSync(receiptKeyPath(state), Buffer.alloc(32, 1), { mode: 0o600 });
  const me = statSync(receiptKeyPath(state)).uid;
  t.regex(refusal(t, () => readReceiptKey(state, me + 1)).problem, /^is owned by uid \d+, not by you/);
  t.is(readReceiptKey(state, me)?.length, 32);
});

test('a key that is a directory, a FIFO, or not exactly 32 bytes is refused', (t) => {
  const directory = tempDir(t);
  mkdirSync(receiptKeyPath(directory));
  t.is(refusal(t, () => readReceiptKey(directory)).problem, 'is not a regular file');
  const fifo = tempDir(t);
  execFileSync('mkfifo', ['-m', '600', receiptKeyPath(fifo)]);
  t.is(refusal(t, () => readReceiptKey(fifo)).problem, 'is not a regular file', 'opened without blocking, then refused');
  for (const size of [0, 31, 33]) {
    const state = tempDir(t);
    writeFileSync(receiptKeyPath(state), Buffer.alloc(size, 1), { mode: 0o600 });
    t.is(refusal(t, () => readReceiptKey(state)).problem, `holds ${size} bytes, not 32`);
  }
});
