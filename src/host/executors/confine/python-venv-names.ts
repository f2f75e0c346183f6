// The top-level names a virtual environment's interpreter finds on its path, read without running it (s43r review:
// pre-commit installed in the project's venv runs `<ws>/.venv/bin/python3 -mpre_commit` from the workspace top, and an
// interpreter in the write scopes is never run). The standard library's: the base interpreter pyvenv.cfg's `home` names,
// outside the write scopes, run as python-installed-names.ts runs any; the venv's own: its path entries
// (python-venv-entries.ts) listed from their files. Any link that cannot be read is unreadable (closed world).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { scriptPathOf } from './python-script-path.js';
import { venvEntries, venvOf } from './python-venv-entries.js';

/** What python-installed-names.ts lists for one interpreter (restated here: that file calls this one). */
export type ListedNames =
  | { readonly names: ReadonlySet<string>; readonly namespaces: ReadonlySet<string>; readonly entries: readonly string[]; readonly finders: readonly string[] }
  | { readonly unreadable: string };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/u;
const MODULE_SUFFIX = /^(py|pyc|pyd|so|.*\.(so|pyd))$/u;
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error';

/**
 * The names a directory on the path holds, as the listing python-installed-names.ts runs takes them: X.py, X.pyc,
 * X.*.so, the package directory X/ (a namespace package without __init__), what a distribution's top_level.txt names.
 * A directory that is not there holds none (site.py skips it); one that cannot be listed, or a top_level.txt that
 * cannot be read but is there, is unreadable.
 */
export function entryNames(entry: string): { readonly names: string[]; readonly namespaces: string[] } | { readonly unreadable: string } {
  let items: string[];
  try {
    items = readdirSync(entry);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return { names: [], namespaces: [] }; // not on the path now
    return { unreadable: `${entry} cannot be listed (${errorCode(error)})` };
  }
  const names: string[] = [];
  const namespaces: string[] = [];
  for (const item of items) {
    const full = path.join(entry, item);
    const dot = item.indexOf('.');
    const [stem, suffix] = dot === -1 ? [item, ''] : [item.slice(0, dot), item.slice(dot + 1)];
    if (item.endsWith('.dist-info') || item.endsWith('.egg-info')) {
      let text: string;
      try {
        text = readFileSync(path.join(full, 'top_level.txt'), 'utf8');
      } catch (error) {
        if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') continue; // most wheels have none: their modules are listed themselves
        return { unreadable: `${path.join(full, 'top_level.txt')} cannot be read (${errorCode(error)})` };
      }
      names.push(
        ...text
          .split('\n')
          .map((line) => line.trim().split('/')[0]!)
          .filter((name) => IDENTIFIER.test(name)),
      );
    } else if (IDENTIFIER.test(stem) && suffix === '' && isDirectory(full)) {
      names.push(item);
      let inside: string[];
      try {
        inside = readdirSync(full);
      } catch (error) {
        return { unreadable: `${full} cannot be listed (${errorCode(error)})` };
      }
      if (!inside.some((name) => name.startsWith('__init__.'))) namespaces.push(item);
    } else if (IDENTIFIER.test(stem) && MODULE_SUFFIX.test(suffix)) names.push(stem);
  }
  return { names, namespaces };
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory(); // a link followed, as os.path.isdir follows it
  } catch {
    return false; // a link to nothing or to a file: no package
  }
}

/**
 * The base interpreter a venv's pyvenv.cfg names: `executable` (Python 3.11+ writes it) where it lies in `home`, else
 * `home`'s pythonX.Y (from `version`), else its python3. `home` must be absolute and outside the write scopes, as written and
 * where it resolves: an interpreter there is one the agent may have written.
 */
export function baseInterpreter(venv: string, writeRoots: readonly string[]): { readonly file: string } | { readonly unreadable: string } {
  let config: string;
  try {
    config = readFileSync(path.join(venv, 'pyvenv.cfg'), 'utf8');
  } catch (error) {
    return { unreadable: `${venv}/pyvenv.cfg cannot be read (${errorCode(error)})` };
  }
  const key = (name: string) => new RegExp(`^[ \\t]*${name}[ \\t]*=[ \\t]*(.*?)[ \\t]*\\r?$`, 'mu').exec(config)?.[1];
  const home = key('home');
  if (home === undefined || !path.isAbsolute(home)) return { unreadable: `${venv}/pyvenv.cfg names no absolute home (the base interpreter's directory)` };
  const real = resolveCanonicalPath(home);
  if ([home, ...(real.ok ? [real.path] : [])].some((p) => writeRoots.some((root) => isInsideRoot(p, root))))
    return { unreadable: `${venv}/pyvenv.cfg's home ${home} is in the write scopes, and zotbox does not run the agent's files` };
  const executable = key('executable');
  // CPython finds the venv's standard library from `home`: `executable` counts only where it lies there.
  if (executable !== undefined && path.dirname(executable) === path.normalize(home).replace(/(?<=.)\/$/u, '')) return { file: executable };
  const version = /^(\d+)\.(\d+)/u.exec(key('version') ?? key('version_info') ?? '');
  return { file: path.join(home, version === null ? 'python3' : `python${version[1]!}.${version[2]!}`) };
}

/**
 * Why the file a venv's interpreter path runs is not one zotbox may take as the venv's (undefined when it is): the venv's
 * own copy in bin/ (protected whole as the venv's), or where its links lead outside the write scopes (the base's file).
 * One that leads elsewhere in the write scopes, or nowhere, is a program zotbox does not read as an interpreter.
 */
function venvInterpreterFile(file: string, venv: string, writeRoots: readonly string[]): string | undefined {
  const real = resolveCanonicalPath(file);
  if (!real.ok || !real.exists) return `${file} leads to nothing zotbox can follow (${real.ok ? 'nothing there' : real.reason})`;
  const bin = resolveCanonicalPath(path.join(venv, 'bin'));
  if (bin.ok && path.dirname(real.path) === bin.path) return undefined;
  if (writeRoots.some((root) => isInsideRoot(real.path, root))) return `${file} leads to ${real.path}, in the write scopes outside the venv's bin/`;
  return undefined;
}

/**
 * The names the interpreter `word` (absolute, or relative to `directory` where -m or -c runs) finds on its path when it
 * is a venv's: the base interpreter's listing (`list`, never run in the write scopes) with the venv's own entries'
 * names; its path entries and editable finders are the venv's. Unreadable for any other word, and where any link fails.
 */
export function venvInstalledNames(word: string, directory: string, script: boolean, list: (base: string) => ListedNames, writeRoots: readonly string[]): ListedNames {
  // A bare name (on the user's PATH or one a script set) and a script's relative word are not read here.
  if (scriptPathOf(word) !== undefined || !word.includes('/') || (script && !path.isAbsolute(word)))
    return { unreadable: `${word} is not read as a virtual environment's interpreter (only one named by its path)` };
  const file = path.resolve(directory, word);
  const venv = venvOf(file);
  if (venv === undefined) return { unreadable: `${file} is no virtual environment's interpreter (pyvenv.cfg beside bin/)` };
  const runs = venvInterpreterFile(file, venv, writeRoots);
  if (runs !== undefined) return { unreadable: runs };
  const base = baseInterpreter(venv, writeRoots);
  if ('unreadable' in base) return base;
  const listed = list(base.file);
  if ('unreadable' in listed) return { unreadable: `the base interpreter of ${venv}: ${listed.unreadable}` };
  const read = venvEntries(venv);
  if ('unreadable' in read) return read;
  const names = new Set(listed.names);
  const namespaces = new Set(listed.namespaces);
  for (const entry of read.entries) {
    const found = entryNames(entry);
    if ('unreadable' in found) return found;
    for (const name of found.names) names.add(name.toLowerCase());
    for (const name of found.namespaces) namespaces.add(name.toLowerCase());
  }
  return { names, namespaces, entries: read.entries, finders: read.finders };
}
