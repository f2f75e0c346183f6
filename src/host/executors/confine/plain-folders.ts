// Whether a script's or program's own folder is plain: its path, as written, is where the kernel finds it (no link on
// the way). A climb out of the own folder (lexical-climb.ts) is read as a path only then: when the user's repository
// links `scripts -> vendor/tools`, `scripts/..` is `vendor` to the kernel (and to node's realpath'd __dirname) but the
// top to a reader that tidies the text; which one a program means cannot be told, so such a climb is unresolved.
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';

/** Whether `folder` is an absolute path the kernel walks as written, every component a directory (no link). */
export function isPlainFolder(folder: string): boolean {
  if (!path.isAbsolute(folder)) return false;
  const real = resolveCanonicalPath(folder);
  return real.ok && real.exists && real.path === path.normalize(folder).replace(/(.)\/$/u, '$1');
}

/** Where an absolute folder really is, every link on its way followed; undefined where it is not an existing folder. */
export function realFolder(folder: string): string | undefined {
  if (!path.isAbsolute(folder)) return undefined;
  const real = resolveCanonicalPath(folder);
  return real.ok && real.exists ? real.path : undefined;
}
