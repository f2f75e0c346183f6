// The top-level module names an interpreter finds on its own path (s37k review: what an installed package imports,
// requests -> urllib3, is looked up in sys.path[0] first, so a file of that name there runs in its place). Read once
// per interpreter per process by running it unconfined from "/" in isolated mode (-I: no working directory on its
// path, no PYTHON* variables), so nothing of the workspace is imported; an interpreter in the write scopes is never run.
// Then the location a sys.path[0] stands for: the module entries of every name that interpreter may import there.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { type ControlLocation, moduleEntryName } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { searchDirectoryLocation } from './module-search-directories.js';
import { unitedNames } from './python-entry-names.js';
import { moduleEntriesOf } from './python-module-entries.js';
import { scriptPathOf, UNKNOWN_ENTRY, USER_PATH } from './python-script-path.js';
import { PYTHON_STDLIB_NAMES } from './python-stdlib-names.js';
import { venvInstalledNames } from './python-venv-names.js';

/**
 * The names on an interpreter's path (lower case), those installed as namespace packages among them, the path's
 * entries in order (canonical; the user site and the directories its .pth files name last, as -I leaves them out), and
 * setuptools' editable finders found in them; or why not known.
 */
export type InstalledNames =
  | { readonly names: ReadonlySet<string>; readonly namespaces: ReadonlySet<string>; readonly entries: readonly string[]; readonly finders: readonly string[] }
  | { readonly unreadable: string };

/**
 * Lists each entry of sys.path and the user site: X.py, X.pyc, X.*.so, X.pyd, the package directory X/ (a namespace
 * package when it has no __init__), and what a distribution's top_level.txt names. Python 3 with -I only. The user
 * site's .pth files are read, never run (an `import` line is code): their directories are entries too.
 */
const LISTING = String.raw`
import json, os, re, site, sys
ident = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
names, namespaces, finders = set(), set(), []
entries = [p for p in sys.path if p]
try:
    user = site.getusersitepackages()
    entries.append(user)
    for pth in sorted(os.listdir(user)):
        if pth.endswith('.pth'):
            with open(os.path.join(user, pth)) as f:
                for line in f:
                    line = line.rstrip()
                    if line and not line.startswith(('#', 'import ', 'import	')) and os.path.exists(os.path.join(user, line)):
                        entries.append(os.path.join(user, line))
except Exception:
    pass
for d in entries:
    try:
        listing = os.listdir(d)
    except OSError:
        continue
    for e in listing:
        full = os.path.join(d, e)
        stem, _, ext = e.partition('.')
        if e.endswith(('.dist-info', '.egg-info')):
            try:
                with open(os.path.join(full, 'top_level.txt')) as f:
                    names.update(n for n in (line.strip().split('/')[0] for line in f) if ident.match(n))
            except OSError:
                pass
        elif ident.match(stem) and os.path.isdir(full) and ext == '':
            names.add(e)
            if not any(n.startswith('__init__.') for n in os.listdir(full)):
                namespaces.add(e)
        elif ident.match(stem) and re.match(r'^(py|pyc|pyd|so|.*\.(so|pyd))$', ext):
            names.add(stem)
        if e.startswith('__editable__') and e.endswith('_finder.py'):
            finders.append(os.path.realpath(full))
path = []
for d in entries:
    if os.path.realpath(d) not in path:
        path.append(os.path.realpath(d))
print(json.dumps({'names': sorted(names), 'namespaces': sorted(namespaces), 'entries': path, 'finders': finders}))
`;

const TIMEOUT_MS = 5000;

/** Per interpreter file (canonical), for the life of the process: what is installed changes rarely, and reading it costs a start. */
const cache = new Map<string, InstalledNames>();

export interface InterpreterLookup {
  /** The user's PATH, where a bare interpreter name is looked up. */
  readonly searchPath: string | undefined;
  /** An interpreter found in them is never run (the agent may have written it). */
  readonly writeRoots: readonly string[];
  /** The user's environment, for the interpreter (pyenv's shims read it). */
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
}

/** The interpreter file a word names: a path as written (absolute only), a bare name on PATH; or why none can be run. */
function interpreterFile(word: string, lookup: InterpreterLookup): { readonly file: string } | { readonly unreadable: string } {
  const executable = (candidate: string) => {
    try {
      accessSync(candidate, constants.X_OK);
      return statSync(candidate).isFile();
    } catch {
      return false; // not there, or not executable: the next PATH entry
    }
  };
  const onUserPath = (name: string) =>
    (lookup.searchPath ?? '')
      .split(':')
      .filter((entry) => path.isAbsolute(entry))
      .map((entry) => path.join(entry, name))
      .find(executable);
  let found: string | undefined;
  const onPath = scriptPathOf(word);
  if (onPath !== undefined) {
    // A bare name on the PATH a script set (python-script-path.ts): its entries in order, the user's where it says $PATH.
    for (const entry of onPath.entries) {
      if (entry === UNKNOWN_ENTRY) return { unreadable: `the script looks ${onPath.name} up on a PATH entry zotbox cannot spell out` };
      if (entry !== USER_PATH && !path.isAbsolute(entry))
        return { unreadable: `the script looks ${onPath.name} up in ${entry}, relative to where it runs, and zotbox does not run the project's files` };
      found = entry === USER_PATH ? onUserPath(onPath.name) : executable(path.join(entry, onPath.name)) ? path.join(entry, onPath.name) : undefined;
      if (found !== undefined) break;
    }
  } else if (word.includes('/')) {
    if (!path.isAbsolute(word)) return { unreadable: `the interpreter ${word} is named relative to where it runs, and zotbox does not run the project's files` };
    found = executable(word) ? word : undefined;
  } else found = onUserPath(word);
  if (found === undefined) return { unreadable: `the interpreter ${word} is not found${onPath !== undefined ? ' on the PATH the script sets' : word.includes('/') ? '' : " on the user's PATH"}` };
  const real = resolveCanonicalPath(found);
  if (!real.ok) return { unreadable: `the interpreter ${found} cannot be resolved (${real.reason})` };
  if ([found, real.path].some((p) => lookup.writeRoots.some((root) => isInsideRoot(p, root))))
    return { unreadable: `the interpreter ${found} is in the write scopes, and zotbox does not run the agent's files` };
  return { file: found };
}

/** The top-level names the interpreter `word` finds on its own path (read once per interpreter file per process). */
export function installedNames(word: string, lookup: InterpreterLookup): InstalledNames {
  const found = interpreterFile(word, lookup);
  if ('unreadable' in found) return found;
  const known = cache.get(found.file);
  if (known !== undefined) return known;
  const environment = Object.fromEntries(Object.entries(lookup.environment).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const run = spawnSync(found.file, ['-I', '-c', LISTING], {
    cwd: '/',
    env: environment,
    encoding: 'utf8',
    timeout: lookup.timeoutMs ?? TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 16 * 1024 * 1024,
  });
  let result: InstalledNames;
  if (run.error !== undefined || run.status !== 0) {
    const why = run.error !== undefined ? ((run.error as NodeJS.ErrnoException).code ?? run.error.message) : run.signal !== null ? `killed by ${run.signal}` : `exit status ${String(run.status)}`;
    result = { unreadable: `the interpreter ${found.file} could not list what it imports (${why})` };
  } else {
    try {
      const listed = JSON.parse(run.stdout) as { names?: unknown; namespaces?: unknown; entries?: unknown; finders?: unknown };
      if (![listed.names, listed.namespaces, listed.entries, listed.finders].every(Array.isArray)) throw new Error('not a listing');
      const strings = (list: unknown) => (list as unknown[]).map(String);
      result = {
        names: new Set(strings(listed.names).map((name) => name.toLowerCase())),
        namespaces: new Set(strings(listed.namespaces).map((name) => name.toLowerCase())),
        entries: strings(listed.entries).filter((entry) => path.isAbsolute(entry)),
        finders: strings(listed.finders).filter((finder) => path.isAbsolute(finder)),
      };
    } catch {
      result = { unreadable: `the interpreter ${found.file} printed no listing zotbox can read` }; // closed world: never "nothing installed"
    }
  }
  // A timeout is not kept: the next call tries again.
  if (!('unreadable' in result) || run.signal === null) cache.set(found.file, result);
  return result;
}

/**
 * The location a path built by moduleEntriesName stands for: in its directory, the module entries of each
 * standard-library name and each name the interpreter's path holds (a regular package there now, and a name installed
 * as a namespace package, whole). Where the interpreter cannot be read, the directory whole, with why (closed world);
 * `unresolved` when that directory holds a write scope (protecting it whole would refuse nothing). Undefined for any other path.
 */
export function moduleEntriesLocation(written: string, reason: string, lookup: InterpreterLookup): { readonly location: ControlLocation } | { readonly unresolved: string } | undefined {
  const named = moduleEntriesOf(written);
  // A Perl or Ruby search directory, passed along the same way (module-search-directories.ts).
  if (named === undefined) return searchDirectoryLocation(written, reason, lookup.writeRoots);
  const at = named.script === undefined ? named : scriptDirectory(named.script, named.interpreter, reason);
  if ('unresolved' in at) return at;
  const installed = workspaceInterpreterNames(at, named.script !== undefined, lookup);
  if ('unreadable' in installed) {
    const why = `${reason}; Python imports any module in it ahead of the installed ones, and zotbox cannot tell which names it imports: ${installed.unreadable}`;
    if (lookup.writeRoots.some((root) => isInsideRoot(root, at.directory))) return { unresolved: `${at.directory}: ${why}` };
    return { location: { path: at.directory, tree: true, reason: why } };
  }
  const names = new Set([...PYTHON_STDLIB_NAMES.map((name) => name.toLowerCase()), ...installed.names]);
  const packages = new Set(installed.namespaces);
  for (const entry of listDirectory(at.directory)) {
    const name = moduleEntryName(entry);
    if (names.has(name) && entry.toLowerCase() === name && isRegularPackage(path.join(at.directory, entry))) packages.add(name);
  }
  return {
    location: {
      path: at.directory,
      tree: false,
      modules: { names, packages },
      reason: `${reason}; a module there named as one the standard library or an installed package imports (${at.interpreter}'s path) runs in its place`,
    },
  };
}

/**
 * The names an interpreter finds on its path: run it where it may be run; one it may not (in the write scopes) read
 * from its virtual environment's files where that is one (python-venv-names.ts: `.venv/bin/python3 -mpre_commit`).
 */
function workspaceInterpreterNames(at: { readonly directory: string; readonly interpreter: string }, script: boolean, lookup: InterpreterLookup): InstalledNames {
  const run = installedNames(at.interpreter, lookup);
  if (!('unreadable' in run)) return run;
  const read = venvInstalledNames(at.interpreter, at.directory, script, (base) => installedNames(base, lookup), lookup.writeRoots);
  return 'unreadable' in read ? { unreadable: `${run.unreadable}; ${read.unreadable}` } : read;
}

/**
 * The sys.path[0] CPython takes for a script: the directory of the file it resolves to, when it is a link (checked with
 * python3: `tools/check.py -> ../scripts/check.py` imports from scripts/); where it is written otherwise (the caller adds
 * where that directory resolves). A link zotbox cannot follow is unresolved: the directory Python imports from is not known.
 */
function scriptDirectory(script: string, interpreter: string, reason: string): { readonly directory: string; readonly interpreter: string } | { readonly unresolved: string } {
  let linked: boolean;
  try {
    linked = lstatSync(script, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return { directory: path.dirname(script), interpreter }; // nothing there
    return { unresolved: `${script} cannot be examined (${(error as NodeJS.ErrnoException).code ?? 'error'}); ${reason}, and Python imports from the directory it resolves to` };
  }
  if (!linked) return { directory: path.dirname(script), interpreter };
  const resolved = resolveCanonicalPath(script);
  if (!resolved.ok || !resolved.exists)
    return { unresolved: `${script} is a link zotbox cannot follow (${resolved.ok ? 'it leads to nothing' : resolved.reason}); ${reason}, and Python imports from the directory it leads to` };
  return { directory: path.dirname(resolved.path), interpreter };
}

/** A directory's entries; none when it is not there (yet). */
function listDirectory(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return []; // nothing there: every name is protected as a name alone
    throw error;
  }
}

/** A directory with an __init__.py: a regular package, whose submodules Python imports from it. */
function isRegularPackage(directory: string): boolean {
  try {
    return lstatSync(path.join(directory, '__init__.py'), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // a file of that name (ENOTDIR): no package; it is protected as the name's entry itself
  }
}

/** Two locations of one directory's module entries as one: every name either protects. A directory protected whole wins. */
export function withModuleEntries(known: ControlLocation, added: ControlLocation): ControlLocation {
  if (known.modules === undefined || added.modules === undefined) return known.tree ? known : added;
  return {
    ...known,
    modules: { names: unitedNames(known.modules.names, added.modules.names), packages: unitedNames(known.modules.packages, added.modules.packages) },
  };
}
