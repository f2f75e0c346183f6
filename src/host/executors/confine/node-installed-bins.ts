// Whether a program run through node_modules/.bin (a bin's link or what pnpm's shim runs, a runner's package bin) is
// installed code: a package installed in a node_modules is the project's dependencies, not a tool file, as a bare
// specifier's package is (node-module-resolution.ts). Such a file is protected where it is named, but not read on for
// what it loads or runs; one that leads back into the project (a workspace link) is the project's own, read on.
// Pure, no I/O: the caller gives the path canonically resolved.

import path from 'node:path';

/**
 * Whether `canonical` (where `written` resolves) lies in a package installed in a node_modules, seen from the directory
 * that holds `written`'s last node_modules (where npm looked it up): npm's `node_modules/NAME/…`, pnpm's
 * `node_modules/.pnpm/NAME@1/node_modules/NAME/…`, a hoisted one farther up. Not a file in `node_modules/.bin` itself
 * (pnpm's shim, read as a script), and never where `written` names no node_modules at all (nothing to be installed in).
 */
export function isInstalledPackageFile(written: string, canonical: string): boolean {
  const pieces = path.resolve(written).split(path.sep);
  const at = pieces.lastIndexOf('node_modules');
  if (at === -1) return false;
  const relative = path.relative(pieces.slice(0, at).join(path.sep) || path.sep, canonical).split(path.sep);
  // A node_modules followed by a package's directory (not .bin) and something in it.
  return relative.some((piece, index) => piece === 'node_modules' && index + 2 < relative.length && relative[index + 1] !== '.bin');
}

/** Whether `file` is an entry of a node_modules/.bin directory (run through it, whether by name or by its path written out). */
export function isNodeBinEntry(file: string): boolean {
  const directory = path.dirname(path.resolve(file));
  return path.basename(directory) === '.bin' && path.basename(path.dirname(directory)) === 'node_modules';
}
