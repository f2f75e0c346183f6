// A `..` after a folder's name in a path a config or script gives. path.resolve drops the name and the `..` as text;
// the kernel walks into the folder first and then to its parent, so when the folder is a link (one an agent may make
// in a write scope) the path leads somewhere else: `scripts/cache/../hooks` is `<where cache leads>/../hooks`. zotbox
// cannot protect what such a path names ahead of time, so a reader treats it as unresolved. One exception, in a
// script: a climb out of the script's own folder (`$(dirname "$0")/../lib/x`, a package manager's shim's
// `$basedir/../pkg/bin.js`): that folder is on the way to the script, a protected file, and the record of a protected
// file stops the run when a directory on its way is no longer a plain one (protected-locations.ts linkOnTheWay).
import path from 'node:path';

/** Whether a `..` in `text` follows a component that is a name (not `.`, `..` or empty). */
export function climbsOutOfName(text: string): boolean {
  return climbPrefix(text) !== undefined;
}

/** The text before the first `..` that follows a name (`scripts/cache` of `scripts/cache/../hooks`), if there is one. */
export function climbPrefix(text: string): string | undefined {
  const parts = text.split('/');
  let named = false;
  for (const [index, part] of parts.entries()) {
    if (part === '..' && named) return parts.slice(0, index).join('/');
    if (part !== '' && part !== '.' && part !== '..') named = true;
  }
  return undefined;
}

/** Why such a path is unresolved, for the message. */
export const CLIMB_REASON = 'a ".." after a folder name is walked through that folder, which may be a link to anywhere';

/**
 * Whether `text` climbs out of a folder other than one of `own` (a script's own folders: $0's, BASH_SOURCE's) and its
 * parents: every `..` after a name counts, not only the first (`$(dirname "$0")/../tools/cache/../x` climbs out of `cache`).
 */
export function climbsOutsideOwn(text: string, own: readonly string[]): boolean {
  const prefix = climbPrefix(text);
  if (prefix === undefined) return false;
  if (!path.isAbsolute(prefix) || !own.some((folder) => path.isAbsolute(folder) && path.resolve('/', prefix) === path.resolve('/', folder))) return true;
  // Out of its own folder: what follows may climb on out of that folder's parents (a run of `..`), nothing else.
  return climbPrefix(text.slice(prefix.length + '/..'.length)) !== undefined;
}
