// The re-check every file executor makes right before its effect (gate-rules
// §6, issue: executors). The gate approved a canonical path; between that
// decision and the effect, a symlink may have been swapped in. So: re-resolve
// the path (it must still be exactly itself), open the final component without
// following symlinks, and verify the opened descriptor is the approved file (by
// dev/ino, and on Linux by its /proc/self/fd path too). Writes go to a new file in the
// verified directory and are renamed over the target: a swapped final symlink
// is replaced, never written through, and other hard links keep their content.
// Each layer is pinned by a race test through FileGuardProbe, a seam production
// code never passes and src/index.ts never exports.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { isInsideGitMetadata } from '../../policy/git-control.js';
import { resolveCanonicalPath } from '../../policy/path-resolve.js';

/**
 * Test seam: callbacks at named points between two checks, where a race test
 * swaps a file, and the temporary file's name. Production never passes one.
 */
export interface FileGuardProbe {
  /** Read: after the path is re-resolved, before it is lstat'ed. Write: after the parent is re-resolved. */
  readonly afterReverify?: (path: string) => void;
  /** Read: after the lstat that records the file's identity, before the open. */
  readonly afterLstat?: (canonical: string) => void;
  /** Read: after the open, before the descriptor is verified. */
  readonly afterOpen?: (canonical: string) => void;
  /** Write: before the temporary file is opened. */
  readonly beforeOpenTemp?: (temp: string) => void;
  /** Write: after the temporary file is written and closed, before the re-check that precedes the rename. */
  readonly beforeRename?: (temp: string) => void;
  /** Write: the temporary file's name in the target's directory (default: random). */
  readonly tempName?: () => string;
}

function changed(canonical: string, what: string): ZotboxError {
  return new ZotboxError('ZB_POLICY_PATH_UNRESOLVABLE', `${canonical} changed after it was approved (${what}); the call was refused. Retry it: the gate will decide again on the current file.`, {
    details: { path: canonical },
  });
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
export function openApprovedForRead(canonical: string, probe?: FileGuardProbe): number {
  reverifyCanonical(canonical);
  probe?.afterReverify?.(canonical);
  let before;
  try {
    before = lstatSync(canonical);
  } catch (cause) {
    throw new ZotboxError('ZB_IO_FAILED', `cannot read ${canonical}: ${(cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (cause as Error).message}.`, {
      cause,
      details: { path: canonical },
    });
  }
  // Never open what is not a regular file: opening a FIFO or a device has effects of its own.
  if (!before.isFile()) throw new ZotboxError('ZB_IO_FAILED', `cannot read ${canonical}: it is not a regular file.`, { details: { path: canonical } });
  probe?.afterLstat?.(canonical);
  let fd: number;
  try {
    // O_NOFOLLOW: a final symlink swapped in since the lstat is never opened, so its target's open has no effect.
    fd = openSync(canonical, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ELOOP') throw changed(canonical, 'it became a symlink');
    throw cause;
  }
  try {
    probe?.afterOpen?.(canonical);
    verifyDescriptor(fd, canonical, before.dev, before.ino);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The descriptor is the file the lstat saw (dev/ino: another file renamed to the
 * same name is refused) and was opened by the approved name (/proc: the same file
 * reached through a directory swapped for a symlink is refused too).
 */
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
export function writeApproved(canonical: string, content: string | Uint8Array, probe?: FileGuardProbe): { created: boolean; bytes: number } {
  // The gate never approves git metadata (path-decision.ts); this is the same predicate at the effect,
  // so no decision however made lets the host create or change a .git entry (issue 9 §3).
  if (isInsideGitMetadata(canonical)) {
    throw new ZotboxError('ZB_POLICY_PATH_PROTECTED', `write denied: ${canonical} is git metadata, which agents may not create or change. Fix: write outside .git.`, { details: { path: canonical } });
  }
  try {
    return writeThroughTemporaryFile(canonical, content, probe);
  } catch (cause) {
    throw fileSystemError('write', canonical, cause); // ZotboxErrors pass through unchanged
  }
}

/** Creates the temporary file; something already at its name (planted there) is refused, never opened. */
function openTemporaryFile(temp: string, canonical: string): number {
  try {
    // O_EXCL: a file or a hard link planted at the name is never written into (and, by POSIX, neither is a symlink).
    return openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    if (errno === 'EEXIST' || errno === 'ELOOP') throw changed(canonical, `something already exists at the temporary name ${temp}`);
    throw cause;
  }
}

function writeThroughTemporaryFile(canonical: string, content: string | Uint8Array, probe: FileGuardProbe | undefined): { created: boolean; bytes: number } {
  createParents(canonical);
  const parent = path.dirname(canonical);
  reverifyCanonical(parent);
  probe?.afterReverify?.(parent);
  const existing = lstatSync(canonical, { throwIfNoEntry: false });
  if (existing !== undefined && !existing.isFile() && !existing.isSymbolicLink()) {
    throw new ZotboxError('ZB_IO_FAILED', `cannot write ${canonical}: it is not a regular file.`, { details: { path: canonical } });
  }
  const temp = path.join(parent, probe?.tempName?.() ?? `.zotbox-${randomBytes(6).toString('hex')}.tmp`);
  probe?.beforeOpenTemp?.(temp);
  const fd = openTemporaryFile(temp, canonical);
  let renamed = false;
  try {
    // The new file has no identity to compare yet: only its name tells that it landed in the verified directory.
    const opened = pathOfDescriptor(fd);
    if (opened !== undefined && opened !== temp) throw changed(canonical, `its directory moved; the new file landed at ${opened}`);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    if (existing?.isFile() === true) fchmodSync(fd, existing.mode & 0o777);
    fsyncSync(fd);
    closeSync(fd);
    probe?.beforeRename?.(temp);
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
