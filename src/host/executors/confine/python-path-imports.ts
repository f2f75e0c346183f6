// Where a program's absolute imports and `-m` targets lead through the interpreter's own path (s39n review: an
// editable install's .pth names the project's src/, so `from mypkg import lint` runs src/mypkg/lint.py). For each
// Python interpreter the tool files run, its path entries (python-installed-names.ts) and the user's PYTHONPATH before
// them are searched in Python's order up to the first entry holding the name as a regular module or package; then
// setuptools' editable finders. The module's files found in the write scopes are protected (and read on); those missing
// there are protected too (creating one would be imported). Never the directory whole: other modules stay writable.
import { accessSync, constants, lstatSync, readdirSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { type FinderMapping, readFinder } from './python-editable-finders.js';
import { type InterpreterLookup, installedNames } from './python-installed-names.js';
import { moduleEntriesOf, pathImportOf } from './python-module-entries.js';
import { pathEntryModuleLocations } from './python-path-entry-modules.js';
import { scriptPathOf, UNKNOWN_ENTRY, USER_PATH } from './python-script-path.js';
import { PYTHON_STDLIB_NAMES } from './python-stdlib-names.js';
import { type VenvEntries, venvEntries, venvOf } from './python-venv-entries.js';

/** Where an interpreter word is met: the directory of its sys.path[0] mark (the working directory, or a script's). */
interface InterpreterAt {
  readonly word: string;
  readonly directory: string;
  readonly script?: string;
}

const STDLIB = new Set(PYTHON_STDLIB_NAMES);

/** An executable regular file (a link followed). */
function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The path of an interpreter zotbox does not run, read from its virtual environment's files (python-venv-entries.ts):
 * the word as written (absolute), on the user's PATH (a bare name) or the PATH a script set (python-script-path.ts), or
 * relative to where it runs (the working directory
 * a -m or -c mark names; for a script, each directory above it, every venv found there read: more, never less).
 */
function staticEntries(at: InterpreterAt, lookup: InterpreterLookup): VenvEntries {
  let candidates: string[];
  const onPath = scriptPathOf(at.word);
  if (onPath !== undefined) {
    // A bare name on the PATH the script set: the first entry holding it (a relative one, as a relative word is below);
    // the user's PATH where the script says $PATH (an interpreter there is run, if it may be); an unknown entry, unknown.
    const found = pathCandidates(at, onPath, lookup);
    if (!Array.isArray(found)) return found;
    candidates = found;
  } else if (path.isAbsolute(at.word)) candidates = [at.word];
  else if (!at.word.includes('/')) candidates = onUserPath(at.word, lookup);
  else candidates = relativeCandidates(at, at.word);
  candidates = candidates.filter(isExecutableFile);
  if (candidates.length === 0) return { unreadable: `the interpreter ${at.word} is not found where the hook may run it` };
  const entries: string[] = [];
  const finders: string[] = [];
  for (const candidate of candidates) {
    const venv = venvOf(candidate);
    if (venv === undefined) return { unreadable: `${candidate} is no virtual environment's interpreter (pyvenv.cfg beside bin/)` };
    const read = venvEntries(venv);
    if ('unreadable' in read) return read;
    entries.push(...read.entries.filter((entry) => !entries.includes(entry)));
    finders.push(...read.finders.filter((finder) => !finders.includes(finder)));
  }
  return { entries, finders };
}

/** The first file of a bare name on the user's PATH, if any. */
const onUserPath = (name: string, lookup: InterpreterLookup): string[] =>
  (lookup.searchPath ?? '')
    .split(':')
    .filter((entry) => path.isAbsolute(entry))
    .map((entry) => path.join(entry, name))
    .filter(isExecutableFile)
    .slice(0, 1);

/** A relative word where it runs: the working directory a -m or -c mark names; for a script, each directory above it. */
function relativeCandidates(at: InterpreterAt, word: string): string[] {
  if (at.script === undefined) return [path.join(at.directory, word)];
  const candidates: string[] = [];
  for (let directory = at.directory; ; directory = path.dirname(directory)) {
    candidates.push(path.join(directory, word));
    if (path.dirname(directory) === directory) return candidates;
  }
}

/** The interpreter files a bare name on a script's PATH may be (staticEntries); the user's interpreter's own entries where the lookup reaches $PATH; or why unknown. */
function pathCandidates(at: InterpreterAt, onPath: { readonly name: string; readonly entries: readonly string[] }, lookup: InterpreterLookup): string[] | VenvEntries {
  for (const entry of onPath.entries) {
    if (entry === UNKNOWN_ENTRY) return { unreadable: `the script looks ${onPath.name} up on a PATH entry zotbox cannot spell out` };
    if (entry === USER_PATH) {
      const listed = installedNames(onPath.name, lookup);
      return 'unreadable' in listed ? onUserPath(onPath.name, lookup) : listed;
    }
    const found = (path.isAbsolute(entry) ? [path.join(entry, onPath.name)] : relativeCandidates(at, path.join(entry, onPath.name))).filter(isExecutableFile);
    if (found.length > 0) return found;
  }
  return [];
}

/** What a lookup found: locations to protect, existing files to read on (their imports run too), and what it cannot tell. */
export interface PathImportFindings {
  readonly locations: ControlLocation[];
  readonly files: string[];
  readonly unresolved: string[];
}

/**
 * The files Python may load for `module` below a directory it imports the top-level name from: each prefix's
 * `P.py` and `P/__init__.py`, and the module's `__main__.py` (`-m` of a package).
 */
export function moduleCandidates(directory: string, parts: readonly string[]): string[] {
  const files: string[] = [];
  for (let length = 1; length <= parts.length; length++) {
    const prefix = path.join(directory, ...parts.slice(0, length));
    files.push(`${prefix}.py`, path.join(prefix, '__init__.py'));
  }
  if (parts.length > 0) files.push(path.join(directory, ...parts, '__main__.py'));
  return files;
}

/** Whether `entry` holds `name` as Python's path finder takes it there: a module file (X.py, X.pyc, X.*.so) or a package with an __init__. */
export function holdsRegularModule(entry: string, name: string, list: (directory: string) => readonly string[]): boolean {
  for (const item of list(entry)) {
    if (item === name && list(path.join(entry, item)).some((inside) => inside.startsWith('__init__.'))) return true;
    if (item.startsWith(`${name}.`) && /^(py|pyc|pyd|so|.*\.(so|pyd))$/u.test(item.slice(name.length + 1))) return true;
  }
  return false;
}

/**
 * Per tool-file reading: the interpreters met (a sys.path[0] mark names each) and the modules imported (a path-import
 * mark), each pair looked up once, whichever came first. `read` takes a resolved name the readers produced; undefined
 * when it is neither mark. `consumed`: a path-import mark names nothing else.
 */
export function pathImportResolver(lookup: InterpreterLookup): { read(written: string, reason: string): (PathImportFindings & { readonly consumed: boolean }) | undefined } {
  const interpreters = new Map<string, InterpreterAt>();
  const modules = new Map<string, string>();
  const listed = new Map<string, readonly string[]>();
  const list = (directory: string): readonly string[] => {
    let found = listed.get(directory);
    if (found === undefined) {
      try {
        found = readdirSync(directory);
      } catch {
        found = []; // not a directory (a zip, nothing there): it holds no name as a file the finder sees; searching on protects more, never less
      }
      listed.set(directory, found);
    }
    return found;
  };
  const finders = new Map<string, { readonly mapping: FinderMapping } | { readonly unreadable: string }>();
  const finder = (file: string) => {
    let found = finders.get(file);
    if (found === undefined) finders.set(file, (found = readFinder(file)));
    return found;
  };
  const inScopes = (p: string) => lookup.writeRoots.some((root) => isInsideRoot(p, root));
  // The user's PYTHONPATH comes before the interpreter's own entries (after sys.path[0], read elsewhere).
  const pythonPath = (lookup.environment.PYTHONPATH ?? '').split(':').filter((entry) => entry !== '');

  const lookUp = (at: InterpreterAt, module: string, reason: string, into: PathImportFindings) => {
    const interpreter = at.word;
    const parts = module.split('.');
    const why = `${reason}; ${interpreter} imports ${module} from there (a directory on its path)`;
    const listed = installedNames(interpreter, lookup);
    let installed: { readonly entries: readonly string[]; readonly finders: readonly string[] };
    if ('unreadable' in listed) {
      // An interpreter zotbox does not run (its sys.path[0] is protected whole by moduleEntriesLocation's fallback):
      // its venv's files, read; else a name neither the standard library's nor in that sys.path[0] is unresolved
      // (closed world: never taken as installed code).
      const read = staticEntries(at, lookup);
      if ('unreadable' in read) {
        if (!STDLIB.has(parts[0]!) && !inFirstEntry(at, parts[0]!)) into.unresolved.push(`${why}, and zotbox cannot tell which directories that path holds: ${listed.unreadable}; ${read.unreadable}`);
        return;
      }
      installed = read;
    } else installed = listed;
    const consider = (file: string) => {
      if (!inScopes(file)) return;
      into.locations.push({ path: file, tree: false, reason: why });
      let stats: Stats | undefined;
      try {
        stats = lstatSync(file, { throwIfNoEntry: false });
      } catch {
        // ENOTDIR: nothing there, protected as a name
      }
      // A file is read on (a link where it leads, as the readers read links).
      if (stats?.isFile() === true || stats?.isSymbolicLink() === true) into.files.push(file);
    };
    const entries: string[] = [];
    for (const entry of pythonPath) {
      if (!path.isAbsolute(entry)) {
        into.unresolved.push(`PYTHONPATH entry ${entry} is relative to where the hook runs; ${why}, and zotbox cannot tell which directory that is`);
        continue;
      }
      const real = resolveCanonicalPath(entry);
      entries.push(real.ok ? real.path : entry);
    }
    entries.push(...installed.entries);
    for (const entry of entries) {
      for (const file of moduleCandidates(entry, parts)) consider(file);
      // Python stops at the first entry holding the top-level name as a module or a regular package.
      if (holdsRegularModule(entry, parts[0]!, list)) return;
    }
    // Not found on the path: the editable finders, last on sys.meta_path.
    for (const file of installed.finders) {
      const read = finder(file);
      if ('unreadable' in read) {
        into.unresolved.push(`${read.unreadable}; ${why} through that import hook, and zotbox cannot tell which directory it imports from`);
        continue;
      }
      for (const [name, directories] of read.mapping) {
        const named = name.split('.');
        if (named.some((part, index) => parts[index] !== part)) continue;
        for (const directory of directories) {
          if (!path.isAbsolute(directory)) continue; // relative to the running program: setuptools writes absolute ones
          const rest = parts.slice(named.length);
          // The finder tries DIR/__init__.py, then DIR with a module suffix; then the package's own path.
          consider(path.join(directory, '__init__.py'));
          consider(`${directory}.py`);
          for (const found of moduleCandidates(directory, rest)) consider(found);
        }
      }
    }
  };

  // Each agent-writable entry of the interpreter's path gets sys.path[0]'s any-name rule (python-path-entry-modules.ts):
  // installed code tries names no list holds. An interpreter whose path cannot be read adds none here: its imports
  // are unresolved where they are not placed (lookUp), and installed code is what it runs from its site-packages.
  const entryModules = (at: InterpreterAt, reason: string) => {
    const listed = installedNames(at.word, lookup);
    const installed = 'unreadable' in listed ? staticEntries(at, lookup) : listed;
    if ('unreadable' in installed) return [];
    const before = pythonPath
      .filter((entry) => path.isAbsolute(entry))
      .map((entry) => {
        const real = resolveCanonicalPath(entry);
        return real.ok ? real.path : entry;
      });
    return pathEntryModuleLocations(before, installed.entries, lookup.writeRoots, `${reason}; ${at.word} runs installed code`);
  };

  // Whether the sys.path[0] an interpreter's mark stands for holds `name` (a script's: where the script resolves).
  const inFirstEntry = (at: InterpreterAt, name: string) => {
    const real = at.script === undefined ? undefined : resolveCanonicalPath(at.script);
    const first = real?.ok === true && real.exists ? path.dirname(real.path) : at.directory;
    return holdsRegularModule(first, name, list);
  };

  return {
    read(written, reason) {
      const module = pathImportOf(written);
      const interpreter = module === undefined ? moduleEntriesOf(written)?.interpreter : undefined;
      if (module === undefined && interpreter === undefined) return undefined;
      const findings: PathImportFindings = { locations: [], files: [], unresolved: [] };
      if (module !== undefined && !modules.has(module)) {
        modules.set(module, reason);
        for (const known of interpreters.values()) lookUp(known, module, reason, findings);
      }
      const marked = module === undefined ? moduleEntriesOf(written) : undefined;
      const at: InterpreterAt | undefined =
        marked === undefined || interpreter === undefined || interpreter === ''
          ? undefined
          : { word: interpreter, directory: marked.directory, ...(marked.script === undefined ? {} : { script: marked.script }) };
      // A relative word is a different file in each directory it runs in.
      const key = at === undefined ? '' : path.isAbsolute(at.word) || !at.word.includes('/') ? at.word : `${at.word}\u0000${at.directory}\u0000${at.script ?? ''}`;
      if (at !== undefined && !interpreters.has(key)) {
        interpreters.set(key, at);
        findings.locations.push(...entryModules(at, reason));
        for (const [known, why] of modules) lookUp(at, known, why, findings);
      }
      return { ...findings, consumed: module !== undefined };
    },
  };
}
