// The one path resolver of zotbox: agent paths, scope roots and the executors'
// re-checks all go through it (gate-rules §6). It uses the operating system's
// own resolver (realpath(3): component by component, ".." applied to the
// already resolved parent, at most 40 symlinks) and never normalises a path
// lexically. A path that does not exist resolves through its nearest existing
// parent, with only plain names below it; a dangling final symlink is followed
// to its target. Any error is a failure with a reason, never a fallback.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';

/** Symlinks followed at most, across the whole resolution (the kernel's MAXSYMLINKS). */
export const MAX_SYMLINK_HOPS = 40;

export interface ResolvedPath {
  readonly ok: true;
  /** Canonical absolute path: no symlinks, no "." or "..", no repeated "/". */
  readonly path: string;
  /** Whether something exists at the canonical path. */
  readonly exists: boolean;
  /** The existing file's identity and link count (only when `withStats` was asked for and it exists). */
  readonly stats?: { readonly dev: number; readonly ino: number; readonly nlink: number; readonly isFile: boolean; readonly isDirectory: boolean };
}

export interface UnresolvedPath {
  readonly ok: false;
  readonly reason: string;
}

export type PathResolution = ResolvedPath | UnresolvedPath;

const errnoOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

function fail(reason: string): UnresolvedPath {
  return { ok: false, reason };
}

/** Joins a path the agent gave to the directory it is relative to, by string only ("a/../b" stays as it is). */
export function absoluteFrom(base: string, target: string): string {
  return target.startsWith('/') ? target : `${base.endsWith('/') ? base : `${base}/`}${target}`;
}

/**
 * Resolves an absolute path. `withStats` also returns the existing file's
 * identity and link count (one more system call: writes need it).
 */
export function resolveCanonicalPath(absolute: string, options: { readonly withStats?: boolean } = {}): PathResolution {
  return resolveWithHops(absolute, options.withStats === true, 0);
}

function resolveWithHops(absolute: string, withStats: boolean, hops: number): PathResolution {
  if (!absolute.startsWith('/')) return fail(`"${absolute}" is not an absolute path`);
  if (withStats) {
    // lstat first: it tells existence, and for a final component that is not a symlink,
    // the file's own identity and link count, in one call.
    let stats;
    try {
      stats = lstatSync(absolute);
    } catch (error) {
      return resolveMissing(absolute, errnoOf(error), hops);
    }
    if (stats.isSymbolicLink()) return resolveThroughFinalLink(absolute, hops, withStats);
    const path = realpathOrFail(absolute);
    if (typeof path !== 'string') return path;
    return {
      ok: true,
      path,
      exists: true,
      stats: { dev: stats.dev, ino: stats.ino, nlink: stats.nlink, isFile: stats.isFile(), isDirectory: stats.isDirectory() },
    };
  }
  try {
    return { ok: true, path: realpathSync.native(absolute), exists: true };
  } catch (error) {
    const code = errnoOf(error);
    if (code !== 'ENOENT') return fail(describeErrno(code, absolute));
    let isLink = false;
    try {
      isLink = lstatSync(absolute).isSymbolicLink();
    } catch (lstatError) {
      return resolveMissing(absolute, errnoOf(lstatError), hops);
    }
    // Only a dangling final symlink makes realpath fail with ENOENT while lstat succeeds.
    return isLink ? resolveThroughFinalLink(absolute, hops, withStats) : fail(`"${absolute}" changed while it was being resolved`);
  }
}

function realpathOrFail(absolute: string): string | UnresolvedPath {
  try {
    return realpathSync.native(absolute);
  } catch (error) {
    return fail(describeErrno(errnoOf(error), absolute));
  }
}

function describeErrno(code: unknown, absolute: string): string {
  switch (code) {
    case 'ELOOP':
      return `"${absolute}" has a symlink loop or more than ${MAX_SYMLINK_HOPS} symlinks`;
    case 'ENOTDIR':
      return `"${absolute}" uses a file as if it were a directory`;
    case 'EACCES':
      return `"${absolute}" cannot be resolved: permission denied`;
    case 'ENAMETOOLONG':
      return `"${absolute}" is too long`;
    default:
      return `"${absolute}" cannot be resolved (${String(code ?? 'error')})`;
  }
}

/** The final component is a symlink: follow it (a dangling one leads to the file a write would create). */
function resolveThroughFinalLink(absolute: string, hops: number, withStats: boolean): PathResolution {
  if (hops >= MAX_SYMLINK_HOPS) return fail(describeErrno('ELOOP', absolute));
  let target: string;
  try {
    target = readlinkSync(absolute);
  } catch (error) {
    return fail(describeErrno(errnoOf(error), absolute));
  }
  const slash = absolute.lastIndexOf('/');
  const parent = slash === 0 ? '/' : absolute.slice(0, slash);
  // A relative target is relative to the link's directory; resolve that directory first so
  // ".." in the target applies to the real parent, not to the spelling of the link's path.
  if (target.startsWith('/')) return resolveWithHops(target, withStats, hops + 1);
  const resolvedParent = resolveWithHops(parent, false, hops + 1);
  if (!resolvedParent.ok) return resolvedParent;
  return resolveWithHops(absoluteFrom(resolvedParent.path, target), withStats, hops + 1);
}

/** Nothing exists at `absolute` (or lstat failed): resolve the nearest existing parent and append plain names. */
function resolveMissing(absolute: string, code: unknown, hops: number): PathResolution {
  if (code !== 'ENOENT') return fail(describeErrno(code, absolute));
  const trimmed = absolute.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  const name = trimmed.slice(slash + 1);
  const parent = slash <= 0 ? '/' : trimmed.slice(0, slash);
  if (name === '' || name === '.' || name === '..') {
    // "missing/.." would be normalised away lexically; the kernel would fail. So do we.
    return fail(`"${absolute}" goes through a directory that does not exist and then "${name}"`);
  }
  const resolvedParent = resolveWithHops(parent, false, hops);
  if (!resolvedParent.ok) return resolvedParent;
  const path = resolvedParent.path === '/' ? `/${name}` : `${resolvedParent.path}/${name}`;
  if (resolvedParent.exists) {
    // The parent exists: it must be a directory for a child to be created in it.
    try {
      if (!lstatSync(resolvedParent.path).isDirectory()) return fail(describeErrno('ENOTDIR', absolute));
    } catch (error) {
      return fail(describeErrno(errnoOf(error), absolute));
    }
  }
  return { ok: true, path, exists: false };
}
