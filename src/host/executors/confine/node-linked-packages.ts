// What node loads for a bare specifier naming another package (`require("@acme/utils")`): the first node_modules up
// from the program's real directory that holds the name (then NODE_PATH and the home folders: node-global-folders.ts).
// A package really installed there is the project's dependencies, not read; one that leads back into the project (a
// workspace package npm, yarn or pnpm links in, `node_modules/@acme/utils -> ../../packages/utils`, a `file:`/`link:`
// dependency, `npm link`) runs the project's own files: its package.json and the entry files it maps (exports, else
// main, else index) are named where they are, and every link on the way to them is named as a link (re-pointed, it
// changes what runs). Every place node looks before the one that holds the name (`tools/node_modules/NAME`, NAME.js...)
// is named whole where nothing is yet: whoever makes it there, node loads it instead. Closed world: what zotbox cannot
// decide is unresolved, never "installed".

import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { MAX_SYMLINK_HOPS, resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { GlobalFolder } from './node-global-folders.js';
import { mappedTargets, packageMap, readPackageJson } from './package-json-maps.js';
import { typescriptCandidates } from './typescript-resolution.js';

/**
 * An absolute path node may load for the specifier (`tree`: a directory, or a name not made yet, whole; `link`: a link on
 * the way to the package, protected as a link, not what it leads to), and why.
 */
export interface LinkedPackageName {
  readonly name: string;
  readonly tree: boolean;
  readonly link?: true;
  readonly why: string;
}

/** The extensions CommonJS tries for a name written without one. */
const EXTENSIONS = ['.js', '.json', '.node'];

/**
 * The package a bare specifier names and the subpath in it (`@acme/utils/lint.js`: `@acme/utils`, `./lint.js`), split as
 * node splits it. A name an import would refuse (`@a`, `.x`) is still looked up by require, so it is a name all the same.
 */
export function packageOf(specifier: string): { readonly name: string; readonly subpath: string } {
  const scope = specifier.startsWith('@') ? specifier.indexOf('/') : -1;
  const end = specifier.startsWith('@') && scope === -1 ? -1 : specifier.indexOf('/', scope + 1);
  return end === -1 ? { name: specifier, subpath: '.' } : { name: specifier.slice(0, end), subpath: `.${specifier.slice(end)}` };
}

/** The node_modules directories node looks a bare specifier up in from `directory`, nearest first (never node_modules/node_modules). */
export function nodeModulesDirectories(directory: string): string[] {
  const found: string[] = [];
  for (let at = directory; ; at = path.dirname(at)) {
    if (path.basename(at) !== 'node_modules') found.push(path.join(at, 'node_modules'));
    if (path.dirname(at) === at) return found;
  }
}

/** Whether an entry exists (a link counts, followed or not), or the error that keeps zotbox from knowing. */
function presence(entry: string): boolean | string {
  try {
    return lstatSync(entry, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOTDIR' ? false : (code ?? 'error');
  }
}

/**
 * The links on the way to `entry`, hop by hop as the kernel follows them, each named under its real parent directory
 * (so it is recorded as the link it is), or why they cannot be followed.
 */
export function linkHops(entry: string): string[] | string {
  const hops: string[] = [];
  let rest = entry.split('/').filter((part) => part !== '');
  let at = '/';
  while (rest.length > 0) {
    const next = path.join(at, rest.shift()!);
    let target: string | undefined;
    try {
      target = lstatSync(next, { throwIfNoEntry: false })?.isSymbolicLink() === true ? readlinkSync(next) : undefined;
    } catch (error) {
      return `${next} cannot be examined (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    if (target === undefined) {
      at = next; // a real directory (or the end): `..` below it is its real parent
      continue;
    }
    hops.push(next);
    if (hops.length > MAX_SYMLINK_HOPS) return `${entry} leads through more than ${MAX_SYMLINK_HOPS} links`;
    rest = [...target.split('/').filter((part) => part !== ''), ...rest];
    if (target.startsWith('/')) at = '/';
  }
  return hops;
}

/** The files a name in a package loads as node tries them: itself (a directory whole), with each extension, a directory's index files (read on). */
function fileCandidates(file: string): { name: string; tree: boolean }[] {
  const index = isDirectory(file) ? EXTENSIONS.map((extension) => `/index${extension}`) : [];
  return [{ name: file, tree: true }, ...[...EXTENSIONS, ...index].map((suffix) => ({ name: `${file}${suffix}`, tree: false }))];
}

/** Whether `file` leads to a directory (a name below a file, or nothing, does not). */
function isDirectory(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // below a file, or unreadable: no index files to name there (the name itself is protected whole)
  }
}

/**
 * The files node loads from a package's real directory `entry` for `subpath`: its package.json,
 * then what "exports" maps (every condition), else the subpath or "main" as a file, else index. Undefined: unresolved.
 */
function packageEntryFiles(entry: string, subpath: string, say: (what: string) => string, unresolved: string[]): { files: { name: string; tree: boolean }[]; exported: boolean } | undefined {
  const manifest = path.join(entry, 'package.json');
  const json = readPackageJson(manifest);
  if (typeof json === 'string') {
    unresolved.push(say(`, and ${manifest}: ${json}`));
    return undefined;
  }
  const files = [{ name: manifest, tree: false }];
  const exports = json?.exports;
  if (exports !== undefined && exports !== null) {
    const map = packageMap(exports, true);
    const targets = map === undefined ? undefined : mappedTargets(map, subpath);
    if (targets === undefined || targets.some((target) => !target.startsWith('./'))) {
      unresolved.push(say(`, mapped by the "exports" of ${manifest}, and zotbox cannot work out which file that is`));
      return undefined;
    }
    for (const target of targets) for (const name of [target, ...typescriptCandidates(target)]) files.push({ name: path.join(entry, name), tree: false });
    return { files, exported: true };
  }
  const main = json?.main;
  const named = subpath !== '.' ? subpath : typeof main === 'string' && main !== '' ? main : undefined;
  if (named !== undefined)
    files.push(...fileCandidates(path.join(entry, named)), ...typescriptCandidates(`./${path.posix.normalize(named)}`).map((name) => ({ name: path.join(entry, name), tree: false })));
  if (subpath === '.') files.push(...['index.js', 'index.json', 'index.node'].map((name) => ({ name: path.join(entry, name), tree: false })));
  return { files, exported: false };
}

/**
 * What node may load for the bare specifier `specifier` of `file` that leads into the project, or where a name made
 * nearer than what node finds now would load instead. `say(what)` names the line for an unresolved reason; `global`:
 * the places CommonJS looks in after the walk (node-global-folders.ts). Node's built-in modules, URL-like specifiers
 * (`npm:`, `https:`, the TypeScript runners') and packages really installed name nothing themselves.
 */
export function linkedPackageNames(file: string, specifier: string, say: (what: string) => string, unresolved: string[], global: readonly GlobalFolder[]): LinkedPackageName[] {
  if (isBuiltin(specifier) || /^[a-z][\w+.-]*:/iu.test(specifier)) return [];
  const spelled = JSON.stringify(specifier);
  const wanted = packageOf(specifier);
  // Node looks a module's bare specifiers up from its real path (links resolved), not from the name it was loaded by.
  const real = resolveCanonicalPath(path.dirname(file));
  if (!real.ok) {
    unresolved.push(say(`: node looks ${spelled} up from the program's real directory, which zotbox cannot resolve (${real.reason})`));
    return [];
  }
  const names: LinkedPackageName[] = [];
  // Where nothing is yet, nearer than what node finds: whoever makes it there, node loads it (each name whole).
  const nearer: string[] = [];
  const withNearer = (found: string) => [...names, ...nearer.map((name) => ({ name, tree: true, why: `node looks for ${spelled} there before ${found}, and loads what is made there` }))];
  for (const place of [...nodeModulesDirectories(real.path).map((directory) => ({ directory })), ...global]) {
    if ('reason' in place) {
      unresolved.push(say(`: node looks ${spelled} up in NODE_PATH after node_modules, and ${place.reason}`));
      return [];
    }
    const modules = place.directory;
    // CommonJS tries the name as a file (NAME, NAME.js...) before the package directory; an import, the directory alone.
    const at = path.join(modules, wanted.name);
    const candidates = [{ name: at, tree: true }, ...(wanted.subpath === '.' ? EXTENSIONS.map((extension) => ({ name: `${at}${extension}`, tree: false })) : [])];
    const present: string[] = [];
    const absent: string[] = [];
    for (const candidate of candidates) {
      const there = presence(candidate.name);
      if (typeof there === 'string') {
        unresolved.push(say(`: node looks ${spelled} up at ${candidate.name}, which zotbox cannot examine (${there})`));
        return [];
      }
      // Where it would be made, as that resolves (a linked node_modules: its real directory).
      const resolved = resolveCanonicalPath(candidate.name);
      (there ? present : absent).push(there ? candidate.name : resolved.ok ? resolved.path : candidate.name);
    }
    if (present.length === 0) {
      nearer.push(...absent);
      continue;
    }
    let falls = true; // CommonJS goes on up when nothing here loads (a package without "exports" and without its entry file)
    let leadsIn = false;
    let installed: string | undefined;
    for (const entry of present) {
      const resolved = resolveCanonicalPath(entry);
      const hops = linkHops(entry);
      if (!resolved.ok || !resolved.exists || typeof hops === 'string') {
        const why = typeof hops === 'string' ? hops : resolved.ok ? 'it leads to nothing' : resolved.reason;
        unresolved.push(say(`: node loads ${spelled} through ${entry}, and zotbox cannot follow it there (${why})`));
        return [];
      }
      // Installed code: the real entry lies in a node_modules (the package's own, pnpm's .pnpm store, a global prefix).
      if (path.relative(path.dirname(modules), resolved.path).split(path.sep).includes('node_modules')) {
        installed ??= entry;
        falls = false;
        continue;
      }
      leadsIn = true;
      const why = `node loads it for ${spelled} through ${entry}, which leads to ${resolved.path}, the project's own files`;
      names.push(...hops.map((hop) => ({ name: hop, tree: false, link: true as const, why: `a link on the way: ${why}` })));
      const directory = isDirectory(resolved.path);
      const found = directory
        ? packageEntryFiles(resolved.path, wanted.subpath, (what) => say(`: node loads ${spelled} through ${entry}${what}`), unresolved)
        : { files: [{ name: resolved.path, tree: false }], exported: false };
      if (found === undefined) return [];
      names.push(...found.files.map((file) => ({ ...file, why })));
      const manifest = path.join(resolved.path, 'package.json');
      if (!directory || found.exported || found.files.some((file) => file.name !== manifest && presence(file.name) === true)) falls = false;
    }
    // The file forms CommonJS tries here before the package directory shadow it too, unless its "exports" (resolved
    // before any of them) decides.
    if (!present.some(hasExports)) nearer.push(...absent);
    // A package really installed here ends the lookup.
    if (installed !== undefined && !leadsIn) return withNearer(installed);
    if (!falls) return withNearer(present[0]!);
  }
  return [...names, ...nearer.map((name) => ({ name, tree: true, why: `no node_modules up from the program holds ${spelled} yet, and node loads what is made there` }))];
}

/** Whether the package directory `entry` maps its files by "exports" (node resolves that before any file form of the name). */
function hasExports(entry: string): boolean {
  const json = isDirectory(entry) ? readPackageJson(path.join(entry, 'package.json')) : undefined;
  return typeof json === 'object' && json.exports !== undefined && json.exports !== null;
}
