// The module entries of each agent-writable directory on an interpreter's path (an editable install's src/ its .pth
// names, an absolute PYTHONPATH entry in the project), as sys.path[0] has them: installed code is not read
// (python-installed-files.ts) and may `try: import X` for any X, so NAME.py and NAME/__init__.py of every importable name
// are protected there; and the directory NAME/ whole wherever Python would import NAME's submodules from it for a name
// the project does not own there: a namespace portion (a directory without __init__.py, new or not) of a name no entry
// holds as a regular module, and a regular package that shadows a name another entry holds. A regular package only this
// directory holds (the project's own src/mypkg/) keeps its other modules writable. Each entry is listed afresh per call
// where it lies in the write scopes (the agent changes it); elsewhere once per process.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { ImportableNamesExcept } from './python-entry-names.js';
import { installedPythonSite } from './python-installed-files.js';
import { PYTHON_STDLIB_NAMES } from './python-stdlib-names.js';

/** The names a path entry holds (lower case): as a regular module or package, and at all (a namespace portion too). */
interface EntryNames {
  readonly regular: ReadonlySet<string>;
  readonly held: ReadonlySet<string>;
}

const MODULE_SUFFIX = /^(py|pyc|pyd|so|.*\.(so|pyd))$/u;

/** Lists `entry` as Python's path finder sees it: X.py/.pyc/.so files and X/ directories (regular with an __init__). */
function entryNames(entry: string): EntryNames {
  const regular = new Set<string>();
  const held = new Set<string>();
  const list = (directory: string): string[] => {
    try {
      return readdirSync(directory);
    } catch {
      return []; // not a directory (a zip, nothing there): it holds nothing the finder lists, so fewer names are excluded
    }
  };
  for (const item of list(entry)) {
    const dot = item.indexOf('.');
    const stem = (dot === -1 ? item : item.slice(0, dot)).toLowerCase();
    if (dot !== -1 && !MODULE_SUFFIX.test(item.slice(dot + 1))) continue;
    if (dot === -1 && !isDirectory(path.join(entry, item))) continue; // a file without a suffix: the finder imports none
    held.add(stem);
    if (dot !== -1 || list(path.join(entry, item)).some((name) => name.startsWith('__init__.'))) regular.add(stem);
  }
  return { regular, held };
}

/** A directory (a link followed, as the finder follows it). */
function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // a dangling link, nothing there: no package the finder finds
  }
}

/** Per entry outside the write scopes, for the life of the process (installed code changes rarely; the agent cannot change it). */
const cache = new Map<string, EntryNames>();

/**
 * The module-entry locations of the entries (in path order, canonical) that lie in the write scopes, other than a
 * site-packages directory (protected whole already). `before`: the entries searched ahead of the interpreter's own
 * (the user's PYTHONPATH); the standard library comes between them and the interpreter's own entries.
 */
export function pathEntryModuleLocations(before: readonly string[], entries: readonly string[], writeRoots: readonly string[], reason: string): ControlLocation[] {
  const inScopes = (p: string) => writeRoots.some((root) => isInsideRoot(p, root));
  const STDLIB = '\u0000stdlib';
  const order = [...before, STDLIB, ...entries];
  const named = (entry: string): EntryNames => {
    if (entry === STDLIB) {
      const names = new Set(PYTHON_STDLIB_NAMES.map((name) => name.toLowerCase()));
      return { regular: names, held: names };
    }
    if (inScopes(entry)) return entryNames(entry);
    let found = cache.get(entry);
    if (found === undefined) cache.set(entry, (found = entryNames(entry)));
    return found;
  };
  const listed = order.map(named);
  const locations: ControlLocation[] = [];
  order.forEach((entry, at) => {
    if (entry === STDLIB || !inScopes(entry) || installedPythonSite(path.join(entry, 'x')) !== undefined || order.indexOf(entry) !== at) return;
    const own = listed[at]!;
    const earlier = new Set(listed.slice(0, at).flatMap((names) => [...names.regular]));
    const later = new Set(listed.slice(at + 1).flatMap((names) => [...names.regular]));
    const elsewhere = new Set(listed.flatMap((names, index) => (index === at ? [] : [...names.held])));
    // Never imported from here: a name an earlier entry holds as a regular module; a portion here of a name a later
    // entry holds as one (the regular module wins); and the project's own regular package, which no other entry holds.
    const excluded = [...earlier, ...[...later].filter((name) => !own.regular.has(name)), ...[...own.regular].filter((name) => !elsewhere.has(name))];
    const names = new ImportableNamesExcept(excluded);
    locations.push({
      path: entry,
      tree: false,
      modules: { names, packages: names },
      reason: `${reason}; a directory on that interpreter's path the agent can write, where installed code imports any module it tries (an optional import) that no entry ahead of it holds`,
    });
  });
  return locations;
}
