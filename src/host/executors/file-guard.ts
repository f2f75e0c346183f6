// The re-check every file executor makes right before its effect (gate-rules
// §6, issue: executors). The gate approved a canonical path; between that
// decision and the effect, a symlink may have been swapped in. So: re-resolve
// the path (it must still be exactly itself), open the final component without
// following symlinks, and verify the opened descriptor is the approved file (on
// Linux by /proc/self/fd, elsewhere by dev/ino). Writes go to a new file in the
// verified directory and are renamed over the target: a swapped final symlink
// is replaced, never written through, and other hard links keep their content.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { resolveCanonicalPath } from '../../policy/path-resolve.js';

function changed(canonical: string, what: string): ZotboxError {
  return new ZotboxError(
    'ZB_POLICY_PATH_UNRESOLVABLE',
    `${canonical} changed after it was approved (${what}); the call was refused. Retry it: the gate will decide again on the current file.`,
    { details: { path: canonical } },
  );
}

/** The path an open descriptor refers to, where the platform can tell (Linux /proc); undefined elsewhere. */
function pathOfDescriptor(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined; // no /proc (macOS): callers fall back to comparing dev/ino
  }
}

/** Re-resolves `canonical`: it must resolve to itself, i.e. no symlink appeared anywhere on it. */
export function reverifyCanonical(canonical: string): void {
  const again = resolveCanonicalPath(canonical);
  if (!again.ok) throw changed(canonical, again.reason);
  if (again.path !== canonical) throw changed(canonical, `it now resolves to ${again.path}`);
}

/** Opens an approved existing regular file for reading and returns its descriptor, verified. */
export function openApprovedForRead(canonical: string): number {
  reverifyCanonical(canonical);
  let before;
  try {
    before = lstatSync(canonical);
  } catch (cause) {
    throw new ZotboxError('ZB_IO_FAILED', `cannot read ${canonical}: ${(cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (cause as Error).message}.`, { cause, details: { path: canonical } });
  }
  if (!before.isFile()) throw new ZotboxError('ZB_IO_FAILED', `cannot read ${canonical}: it is not a regular file.`, { details: { path: canonical } });
  let fd: number;
  try {
    fd = openSync(canonical, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ELOOP') throw changed(canonical, 'it became a symlink');
    throw cause;
  }
  try {
    verifyDescriptor(fd, canonical, before.dev, before.ino);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function verifyDescriptor(fd: number, canonical: string, dev: number, ino: number): void {
  const stats = fstatSync(fd);
  if (!stats.isFile()) throw changed(canonical, 'it is no longer a regular file');
  if (stats.dev !== dev || stats.ino !== ino) throw changed(canonical, 'it was replaced by another file');
  const opened = pathOfDescriptor(fd);
  if (opened !== undefined && opened !== canonical) throw changed(canonical, `the file opened is ${opened}`);
}

/** Creates the missing parents of `canonical` one level at a time, checking each lands where approved. */
function createParents(canonical: string): void {
  const missing: string[] = [];
  let current = path.dirname(canonical);
  try {
    let stats = lstatSync(current, { throwIfNoEntry: false });
    while (stats === undefined) {
      missing.unshift(current);
      current = path.dirname(current);
      stats = lstatSync(current, { throwIfNoEntry: false });
    }
    reverifyCanonical(current); // a symlink swapped in since the approval is reported as such
    if (!stats.isDirectory()) {
      throw new ZotboxError('ZB_IO_FAILED', `cannot write ${canonical}: ${current} is not a directory.`, { details: { path: canonical } });
    }
    for (const directory of missing) {
      mkdirSync(directory, { mode: 0o755 });
      reverifyCanonical(directory);
    }
  } catch (cause) {
    if (cause instanceof ZotboxError) throw cause;
    throw fileSystemError('create the directories of', canonical, cause);
  }
}

/**
 * Writes `content` to an approved path: a new file in the verified parent,
 * fsynced, then renamed over the target. Keeps an existing file's mode.
 */
export function writeApproved(canonical: string, content: string | Uint8Array): { created: boolean; bytes: number } {
  try {
    return writeThroughTemporaryFile(canonical, content);
  } catch (cause) {
    throw fileSystemError('write', canonical, cause); // ZotboxErrors pass through unchanged
  }
}

function writeThroughTemporaryFile(canonical: string, content: string | Uint8Array): { created: boolean; bytes: number } {
  createParents(canonical);
  const parent = path.dirname(canonical);
  reverifyCanonical(parent);
  const existing = lstatSync(canonical, { throwIfNoEntry: false });
  if (existing !== undefined && !existing.isFile() && !existing.isSymbolicLink()) {
    throw new ZotboxError('ZB_IO_FAILED', `cannot write ${canonical}: it is not a regular file.`, { details: { path: canonical } });
  }
  const temp = path.join(parent, `.zotbox-${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  let renamed = false;
  try {
    const opened = pathOfDescriptor(fd);
    if (opened !== undefined && opened !== temp) throw changed(canonical, `its directory moved; the new file landed at ${opened}`);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    if (existing?.isFile() === true) fchmodSync(fd, existing.mode & 0o777);
    fsyncSync(fd);
    closeSync(fd);
    reverifyCanonical(parent);
    renameSync(temp, canonical);
    renamed = true;
    return { created: existing === undefined, bytes: bytes.length };
  } finally {
    if (!renamed) {
      try {
        closeSync(fd);
      } catch {
        // already closed on the path that reached the rename
      }
      try {
        unlinkSync(temp);
      } catch {
        // nothing to remove
      }
    }
  }
}
