// Paths below a root the eval host chose (the suite folder, a case workspace),
// looked at without ever following a link (DEVELOPERS: never resolve through a
// link the agent could have planted). Names are checked as strings first, then
// every component is lstat'ed from the root down; nothing here opens a file.
import { lstatSync, type Stats } from 'node:fs';

/** What an entry is, as lstat tells it: never what a link points at. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'character_device' | 'block_device' | 'unknown';

export function describeEntry(stats: Stats): EntryKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character_device';
  if (stats.isBlockDevice()) return 'block_device';
  return 'unknown';
}

/**
 * The segments of a relative path with forward slashes, or why it is not one:
 * absolute, empty, a backslash or NUL, or an empty, "." or ".." segment. A
 * string check only: it runs before any I/O.
 */
export function splitRelativePath(relative: string): { ok: true; segments: string[] } | { ok: false; reason: string } {
  if (relative === '') return { ok: false, reason: 'it is empty' };
  if (relative.startsWith('/')) return { ok: false, reason: 'it is absolute' };
  if (relative.includes('\\') || relative.includes('\0')) return { ok: false, reason: 'it contains a backslash or a NUL character' };
  const segments = relative.split('/');
  if (segments.some((segment) => segment === '..')) return { ok: false, reason: 'it has a ".." segment' };
  if (segments.some((segment) => segment === '' || segment === '.')) return { ok: false, reason: 'it has an empty or "." segment' };
  return { ok: true, segments };
}

/** The outcome of lstat'ing a relative path component by component. */
export type ComponentWalk =
  /** Every parent is a real directory; `stats` is the final entry's own (a final link is not followed). */
  | { readonly found: true; readonly path: string; readonly stats: Stats }
  /** Nothing there: a component is missing, or a parent is a regular file. */
  | { readonly found: false; readonly absent: true; readonly at: string }
  /** A parent is a link, FIFO, device or socket: the walk stops there and never looks through it. */
  | { readonly found: false; readonly absent: false; readonly at: string; readonly kind: Exclude<EntryKind, 'file' | 'directory'> }
  /** lstat failed for another reason (EACCES below a chmod 000 directory, ...). */
  | { readonly found: false; readonly absent: false; readonly at: string; readonly errno: string };

/**
 * lstat's root/a, root/a/b, ... in turn. `root` must be canonical (no links);
 * then a path reached with every parent a directory is canonical too.
 * `at` is the relative path of the component where the walk stopped.
 */
export function walkComponents(root: string, segments: readonly string[]): ComponentWalk {
  let current = root;
  for (const [index, segment] of segments.entries()) {
    current = `${current}/${segment}`;
    const at = segments.slice(0, index + 1).join('/');
    let stats: Stats | undefined;
    try {
      stats = lstatSync(current, { throwIfNoEntry: false });
    } catch (cause) {
      return { found: false, absent: false, at, errno: (cause as NodeJS.ErrnoException).code ?? 'error' };
    }
    if (stats === undefined) return { found: false, absent: true, at };
    if (index === segments.length - 1) return { found: true, path: current, stats };
    if (stats.isDirectory()) continue;
    if (stats.isFile()) return { found: false, absent: true, at };
    return { found: false, absent: false, at, kind: describeEntry(stats) as Exclude<EntryKind, 'file' | 'directory'> }; // both ruled out above
  }
  throw new Error('walkComponents needs at least one segment'); // splitRelativePath never returns none
}
