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

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

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
      stats = lstatSync(absolute, { throwIfNoEntry: false });
    } catch (error) {
      return fail(describeErrno(errnoOf(error), absolute));
    }
    if (stats === undefined) return resolveMissing(absolute, hops);
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
    let stats;
    try {
      stats = lstatSync(absolute, { throwIfNoEntry: false });
    } catch (lstatError) {
      return fail(describeErrno(errnoOf(lstatError), absolute));
    }
    if (stats === undefined) return resolveMissing(absolute, hops);
    // Only a dangling final symlink makes realpath fail with ENOENT while lstat succeeds.
    return stats.isSymbolicLink() ? resolveThroughFinalLink(absolute, hops, withStats) : fail(`"${absolute}" changed while it was being resolved`);
  }
}

function realpathOrFail(absolute: string): string | UnresolvedPath {
  try {
    return realpathSync.native(absolute);
  } catch (error) {
    return fail(describeErrno(errnoOf(error), absolute));
  }
}

function describeErrno(code: string | undefined, absolute: string): string {
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
      return `"${absolute}" cannot be resolved (${code ?? 'error'})`;
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

/**
 * Nothing exists at `absolute`: walk up to the nearest existing ancestor (one
 * lstat per missing level, which reports absence without an exception), resolve
 * it, and append the missing names. They must be plain names: "missing/.." would
 * be normalised away lexically, while the kernel would fail, and so do we.
 */
function resolveMissing(absolute: string, hops: number): PathResolution {
  const missing: string[] = [];
  let current = absolute.replace(/\/+$/, '');
  for (;;) {
    const slash = current.lastIndexOf('/');
    const name = current.slice(slash + 1);
    if (name === '' || name === '.' || name === '..') {
      return fail(`"${absolute}" goes through a directory that does not exist and then "${name || '/'}"`);
    }
    missing.unshift(name);
    const parent = slash <= 0 ? '/' : current.slice(0, slash);
    let stats;
    try {
      stats = lstatSync(parent, { throwIfNoEntry: false });
    } catch (error) {
      return fail(describeErrno(errnoOf(error), absolute));
    }
    if (stats === undefined) {
      current = parent;
      continue;
    }
    let base: string;
    if (stats.isSymbolicLink()) {
      // The nearest existing ancestor is a symlink (maybe dangling): follow it.
      const resolved = resolveThroughFinalLink(parent, hops, false);
      if (!resolved.ok) return resolved;
      if (resolved.exists && !isDirectoryNow(resolved.path)) return fail(describeErrno('ENOTDIR', absolute));
      base = resolved.path;
    } else {
      if (!stats.isDirectory()) return fail(describeErrno('ENOTDIR', absolute));
      const real = realpathOrFail(parent);
      if (typeof real !== 'string') return real;
      base = real;
    }
    return { ok: true, path: `${base === '/' ? '' : base}/${missing.join('/')}`, exists: false };
  }
}

/** Whether `path` is a directory right now; false on any error (the caller then denies). */
function isDirectoryNow(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // an error here means we cannot vouch for it: treated as "not a directory", which denies
  }
}
