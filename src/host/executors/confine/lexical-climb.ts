// A `..` after a folder's name in a path a config or script gives. path.resolve drops the name and the `..` as text;
// the kernel walks into the folder first and then to its parent, so when the folder is a link (one an agent may make
// in a write scope) the path leads somewhere else: `scripts/cache/../hooks` is `<where cache leads>/../hooks`. zotbox
// cannot protect what such a path names ahead of time, so a reader treats it as unresolved.

/** Whether a `..` in `text` follows a component that is a name (not `.`, `..` or empty). */
export function climbsOutOfName(text: string): boolean {
  let named = false;
  for (const part of text.split('/')) {
    if (part === '..' && named) return true;
    if (part !== '' && part !== '.' && part !== '..') named = true;
  }
  return false;
}

/** Why such a path is unresolved, for the message. */
export const CLIMB_REASON = 'a ".." after a folder name is walked through that folder, which may be a link to anywhere';
