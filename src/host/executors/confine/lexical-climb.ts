// A `..` after a folder's name in a path a config or script gives. path.resolve drops the name and the `..` as text;
// the kernel walks into the folder first and then to its parent, so when the folder is a link (one an agent may make
// in a write scope) the path leads somewhere else: `scripts/cache/../hooks` is `<where cache leads>/../hooks`. zotbox
// cannot protect what such a path names ahead of time, so a reader treats it as unresolved. One exception, in a
// script: a climb out of the script's own folder (`$(dirname "$0")/../lib/x`, a package manager's shim's
// `$basedir/../pkg/bin.js`): that folder is on the way to the script, a protected file, and the record of a protected
// file stops the run when a directory on its way is no longer a plain one (protected-locations.ts linkOnTheWay).

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
