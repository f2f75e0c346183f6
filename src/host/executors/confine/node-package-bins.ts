// What npx / `npm exec` run for a package spec (npm's libnpmexec): a folder (`./packages/lint`), or the package of
// that name installed in the tree (node_modules from where it runs upward; a workspace's link is such a package), and
// the bins its package.json lists. Closed world: a package.json zotbox cannot read, or a bin it cannot spell out, is
// unresolved, never "runs nothing". A registry name installed nowhere is downloaded: no project file runs.

import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface PackageBins {
  /** The package.json npm reads and every bin target it lists (absolute), nearest candidates first; none when not installed. */
  readonly places: readonly string[];
  /** The bins' names: npm runs the one it picks by name, on a PATH holding node_modules/.bin. */
  readonly bins: readonly string[];
  readonly unresolved?: string;
}

/** The package name of a registry spec (`@acme/lint@1` is `@acme/lint`, `pkg@latest` is `pkg`); undefined for a folder. */
export function specPackageName(spec: string): string | undefined {
  return /^((?:@[\w.-]+\/)?[\w.-][\w.+-]*)(?:@[^\s/]*)?$/u.exec(spec)?.[1];
}

/**
 * The files npx runs for `spec` from `directory`: a folder spec's package, or the nearest `node_modules/NAME` upward
 * (every nearer candidate named too: a package created there would be found first). `home` spells `~/`.
 */
export function packageBins(spec: string, directory: string, home?: string): PackageBins {
  const name = specPackageName(spec);
  if (name === undefined) {
    const folder = spec.replace(/^file:/u, '');
    if (folder.startsWith('~') && home === undefined) return { places: [], bins: [], unresolved: `it runs the package in ${JSON.stringify(spec)}, a folder zotbox cannot work out` };
    const root = folder.startsWith('~') ? path.join(home!, folder.slice(1)) : path.resolve(directory, folder);
    return binsOf(root, []);
  }
  const candidates: string[] = [];
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    if (path.basename(at) !== 'node_modules') {
      const candidate = path.join(at, 'node_modules', name);
      if (present(candidate)) return binsOf(candidate, candidates);
      candidates.push(path.join(candidate, 'package.json'));
    }
    if (path.dirname(at) === at) return { places: [], bins: [] };
  }
}

/** Whether `file` is there (a link counts); a place zotbox cannot examine counts too, so its reading refuses it. */
function present(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    // Below a file (ENOTDIR): nothing there.
    return (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

/** A package's package.json and its bins (`bin`: a path named like the unscoped package, or a map of name to path). */
function binsOf(root: string, candidates: readonly string[]): PackageBins {
  const manifest = path.join(root, 'package.json');
  const places = [...candidates, manifest];
  let text: string;
  try {
    text = readFileSync(manifest, 'utf8');
  } catch (error) {
    // No package.json: npm cannot run it (nothing runs); anything else cannot be told.
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { places, bins: [] } : { places, bins: [], unresolved: `${manifest} cannot be read, so zotbox cannot tell which bin npx runs from it` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { places, bins: [], unresolved: `${manifest} is not JSON zotbox can read, so it cannot tell which bin npx runs from it` };
  }
  const { name, bin, directories } = (parsed ?? {}) as { name?: unknown; bin?: unknown; directories?: { bin?: unknown } };
  // directories.bin makes every file below it a bin: not read here.
  if (directories?.bin !== undefined && bin === undefined) return { places, bins: [], unresolved: `${manifest} lists its bins as a directory (directories.bin), which zotbox does not read` };
  const entries: [string, unknown][] =
    typeof bin === 'string' ? [[typeof name === 'string' ? name.replace(/^@[^/]+\//u, '') : '', bin]] : bin !== null && typeof bin === 'object' ? Object.entries(bin) : [];
  if (bin !== undefined && (entries.length === 0 || entries.some(([, target]) => typeof target !== 'string' || target === ''))) {
    return { places, bins: [], unresolved: `${manifest} has a bin zotbox cannot read` };
  }
  return { places: [...places, ...entries.map(([, target]) => path.resolve(root, target as string))], bins: entries.map(([bin]) => bin).filter((bin) => bin !== '') };
}
