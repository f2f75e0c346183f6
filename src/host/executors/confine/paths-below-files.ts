// A protected path below a file (a hook's `sh README.md/x`; `from pytest import …` in `.venv/bin/pytest`, which looks
// for `.venv/bin/pytest/__init__.py`) does not exist, and cannot come to exist unless the file on the way is replaced
// by a directory. Protecting that file instead keeps the path from existing, as protecting the path would, and leaves
// nothing later (the record, the binds, the put-back) to lstat through a file, which fails with ENOTDIR.
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** The entry on the way to `target` that is not a directory (a file, a link), where `target` lies below one; else undefined. */
export function fileOnTheWay(target: string): string | undefined {
  try {
    lstatSync(target, { throwIfNoEntry: false });
    return undefined;
  } catch (error) {
    if (code(error) !== 'ENOTDIR') throw error;
  }
  for (let at = path.dirname(target); at !== path.dirname(at); at = path.dirname(at)) {
    try {
      if (lstatSync(at, { throwIfNoEntry: false })?.isDirectory() === false) return at;
    } catch (error) {
      if (code(error) !== 'ENOTDIR') throw error;
    }
  }
  return undefined;
}

/**
 * The location itself, or, for one below a file, that file (protected as itself: no module entries, no tree); a link on
 * the way is protected as the link and where it leads, since a directory made there would hold the path too.
 */
export function onExistingPaths(location: ControlLocation): ControlLocation[] {
  const blocker = fileOnTheWay(location.path);
  if (blocker === undefined) return [location];
  const reason = `${location.reason} (it names ${location.path}, below this file)`;
  if (!lstatSync(blocker).isSymbolicLink()) return [{ path: blocker, tree: false, reason }];
  const real = resolveCanonicalPath(blocker);
  const target = real.ok ? real.path : path.resolve(path.dirname(blocker), readlinkSync(blocker));
  return [{ path: blocker, tree: false, reason, asLink: true }, ...onExistingPaths({ path: target, tree: false, reason })];
}
