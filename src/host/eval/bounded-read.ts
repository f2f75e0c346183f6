// Reads a regular file the eval host found by a no-link walk (no-link-path.ts):
// opened through the executors' guarded open (O_NOFOLLOW | O_NONBLOCK, then
// fstat, dev/ino and /proc checks: a FIFO is never opened, a link swapped in is
// never followed), and never more than the caller's bound plus one byte.
import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { openApprovedForRead } from '../executors/file-guard.js';

const CHUNK_BYTES = 64 * 1024;

/** The errno of a failed read from here (ZB_IO_FAILED carries it in details), else the error's code. */
export function errnoOf(error: unknown): string {
  const errno = error instanceof ZotboxError ? (error.details as { errno?: unknown } | undefined)?.errno : (error as { code?: unknown } | null)?.code;
  if (typeof errno === 'string') return errno;
  return error instanceof ZotboxError ? error.code : 'error';
}

/**
 * Opens `canonical` (a path every parent of which was just lstat'ed as a real
 * directory) for reading. A file that changed kind since (a race with something
 * still running in the folder) is ZB_IO_FAILED naming it; so is an open that fails.
 */
export function openChecked(canonical: string): number {
  try {
    return openApprovedForRead(canonical);
  } catch (cause) {
    if (cause instanceof ZotboxError && cause.code !== 'ZB_IO_FAILED') {
      // The guard's own message speaks of gate approvals; here nothing was approved, the folder changed.
      throw new ZotboxError('ZB_IO_FAILED', `cannot read ${canonical}: it changed while zotbox was reading it (${cause.message}) Fix: make sure nothing still runs in that folder.`, {
        cause,
        details: { path: canonical, errno: 'ECHANGED' },
      });
    }
    throw fileSystemError('read', canonical, cause);
  }
}

/** Calls `consume` with successive chunks, at most `maxBytes + 1` bytes in all; returns the byte count read. */
export function readChunks(fd: number, maxBytes: number, consume: (chunk: Buffer) => void): number {
  let total = 0;
  const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1));
  while (total <= maxBytes) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, maxBytes + 1 - total), null);
    if (read === 0) break;
    consume(Buffer.from(buffer.subarray(0, read)));
    total += read;
  }
  return total;
}

/** The file's bytes, or undefined when it holds more than `maxBytes` (then only maxBytes + 1 were read). */
export function readFileAtMost(canonical: string, maxBytes: number): Buffer | undefined {
  const fd = openChecked(canonical);
  try {
    const chunks: Buffer[] = [];
    const total = readChunks(fd, maxBytes, (chunk) => chunks.push(chunk));
    return total > maxBytes ? undefined : Buffer.concat(chunks, total);
  } catch (cause) {
    throw fileSystemError('read', canonical, cause);
  } finally {
    closeSync(fd);
  }
}

/** The file's sha256 (hex) and size, or undefined when it holds more than `maxBytes`. */
export function digestFileAtMost(canonical: string, maxBytes: number): { sha256: string; size: number } | undefined {
  const fd = openChecked(canonical);
  try {
    const hash = createHash('sha256');
    const total = readChunks(fd, maxBytes, (chunk) => hash.update(chunk));
    return total > maxBytes ? undefined : { sha256: hash.digest('hex'), size: total };
  } catch (cause) {
    throw fileSystemError('read', canonical, cause);
  } finally {
    closeSync(fd);
  }
}
