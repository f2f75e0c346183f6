// The per-installation secret that signs consent receipts: 32 random bytes at
// <state>/receipt.key, a regular 0600 file owned by the current user (issue 9 §6).
// Never follows a symlink to it and never trusts a key anyone else could have
// read or written: such a file is an error with the fix, not a silent fallback.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, linkSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';

export const RECEIPT_KEY_BYTES = 32;

const errnoOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

export function receiptKeyPath(stateDirectory: string): string {
  return path.join(stateDirectory, 'receipt.key');
}

function unsafeKey(file: string, problem: string): ZotboxError {
  return new ZotboxError(
    'ZB_IO_FAILED',
    `the consent receipt key ${file} ${problem}, so receipts signed with it cannot be trusted. Fix: delete it (rm '${file}'); zotbox creates a new key, and agents you approved before ask for consent again.`,
    { details: { path: file, problem } },
  );
}

/**
 * The key, or undefined when there is none yet (then no receipt is trusted).
 * Throws ZB_IO_FAILED when the file is a symlink, not a regular file, not mode
 * 0600, not owned by `owner` (this process's uid), or not exactly 32 bytes.
 */
export function readReceiptKey(stateDirectory: string, owner: number | undefined = process.getuid?.()): Buffer | undefined {
  const file = receiptKeyPath(stateDirectory);
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted at the path must not hang the open; fstat then refuses it.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    if (errnoOf(error) === 'ELOOP') throw unsafeKey(file, 'is a symbolic link');
    throw fileSystemError('read the consent receipt key', file, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw unsafeKey(file, 'is not a regular file');
    if ((stats.mode & 0o7777) !== 0o600) throw unsafeKey(file, `has mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')}, not 0600`);
    if (owner !== undefined && stats.uid !== owner) throw unsafeKey(file, `is owned by uid ${stats.uid}, not by you (uid ${owner})`);
    if (stats.size !== RECEIPT_KEY_BYTES) throw unsafeKey(file, `holds ${stats.size} bytes, not ${RECEIPT_KEY_BYTES}`);
    const key = Buffer.alloc(RECEIPT_KEY_BYTES);
    let filled = 0;
    while (filled < RECEIPT_KEY_BYTES) {
      const read = readSync(fd, key, filled, RECEIPT_KEY_BYTES - filled, filled);
      if (read === 0) throw unsafeKey(file, 'was truncated while it was read');
      filled += read;
    }
    return key;
  } catch (error) {
    throw fileSystemError('read the consent receipt key', file, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * The key, created on first use: written complete to a private temporary file
 * (O_EXCL|O_NOFOLLOW, 0600), then linked into place, which fails rather than
 * replaces when another run created the key first; that key is then used.
 */
export function ensureReceiptKey(stateDirectory: string): Buffer {
  const existing = readReceiptKey(stateDirectory);
  if (existing !== undefined) return existing;
  const file = receiptKeyPath(stateDirectory);
  try {
    mkdirSync(stateDirectory, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw fileSystemError('create', stateDirectory, cause);
  }
  const temp = path.join(stateDirectory, `.receipt.key.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      fchmodSync(fd, 0o600); // whatever the umask
      writeSync(fd, randomBytes(RECEIPT_KEY_BYTES));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, file);
  } catch (error) {
    // EEXIST from link: a concurrent run created the key first; it is read below.
    if (errnoOf(error) !== 'EEXIST') throw fileSystemError('create the consent receipt key', file, error);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // the temporary file was never created (open failed): nothing to remove
    }
  }
  const created = readReceiptKey(stateDirectory);
  if (created === undefined) throw fileSystemError('read the consent receipt key', file, Object.assign(new Error('it vanished right after it was created'), { code: 'ENOENT' }));
  return created;
}
