// What Python code imports, by the import system's rules (s36i review): an absolute import from every directory that
// may be sys.path[0] where the program runs, a relative one (`from . import x`, `from ..common import y`) against the
// importing file's own package (sys.path changes: python-search-paths.ts), and what lies in a directory that is sys.path[0]
// (any module there may be imported: the standard library's own imports find it first). Pure, no I/O.

import type { InterpreterName } from './interpreter-operands.js';
import { pythonLogicalLines } from './python-logical-lines.js';
import { moduleEntriesName, pathImportName, scriptEntriesName } from './python-module-entries.js';
import { PYTHON_STDLIB_NAMES } from './python-stdlib-names.js';

/** A dotted module name as `-m` takes it. */
export const MODULE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/u;

const file = (text: string): InterpreterName => ({ text, tree: false });

/**
 * The files Python runs to start module `name` from a directory on its path: every prefix's `P.py` and
 * `P/__init__.py` (a plain module beside a namespace package wins the import, a package's __init__ runs first), the
 * module's own `.py` and its `__main__.py`, and the module's directory whole (a package there wins over the `.py`).
 */
export function moduleFiles(name: string): InterpreterName[] {
  const parts = name.split('.');
  const names: InterpreterName[] = [];
  for (let length = 1; length <= parts.length; length++) {
    const prefix = parts.slice(0, length).join('/');
    names.push(file(`${prefix}.py`), file(`${prefix}/__init__.py`));
  }
  const own = parts.join('/');
  names.push(file(`${own}/__main__.py`), { text: own, tree: true });
  return names;
}

/**
 * What an absolute import of `name` loads from the interpreter's own path (an editable install's src/): the
 * path-import mark of the module (python-path-imports.ts), and of each name imported from it that may be a submodule.
 */
export function pathImportNames(name: string, imported: readonly string[] = []): InterpreterName[] {
  return [name, ...imported.filter((item) => !item.includes('.')).map((item) => `${name}.${item}`)].map((module) => file(pathImportName(module)));
}

/** The names of an import's list: `a, b as c`, `(a,\n b)`. */
const importedList = (list: string) =>
  list
    .replace(/[()\\]/gu, ' ')
    .split(',')
    .map((item) => item.trim().split(/\s+/u)[0] ?? '')
    .filter((item) => MODULE.test(item));

/**
 * The files Python code imports: absolute imports (`import a.b`, `from a.b import c`, import_module("a"), __import__,
 * runpy.run_module) from the directories on its path (no anchor: the caller's every root), and relative ones (`from .
 * import x`, `from .x import y`, `from ..common import z`: one directory up per extra dot) against the file's own
 * directory (anchor `file`); a name imported from a package may be a submodule, and is read as one.
 */
export function pythonImportNames(source: string): InterpreterName[] {
  const code = pythonLogicalLines(source);
  const names: InterpreterName[] = [];
  for (const match of code.matchAll(/(?:^|[;\n:])[ \t]*(?:from[ \t]+(\.*)([A-Za-z_][\w.]*)?[ \t]+import[ \t]+(\([^)]*\)|[^\n;#]*)|import[ \t]+([^\n;#]*))/gu)) {
    const [, dots, from, list, imported] = match;
    if (imported !== undefined) for (const name of importedList(imported)) names.push(...moduleFiles(name), ...pathImportNames(name));
    else if (dots === '' && from !== undefined && MODULE.test(from)) {
      // `from X import a, b`: X's own files and each name as the submodule it may be (X/__init__.py is read on for
      // what it imports), not X whole, which would make a package read-only wherever one of its modules imports it;
      // a star import (no names read) may load any of X's modules: X whole.
      const items = importedList(list ?? '');
      names.push(...(items.length === 0 ? moduleFiles(from) : moduleFiles(from).filter((name) => !name.tree)));
      for (const item of items) names.push(...moduleFiles(`${from}.${item}`));
      names.push(...pathImportNames(from, items));
    } else if (dots !== undefined && dots !== '') {
      const modules = from !== undefined && MODULE.test(from) ? [from] : importedList(list ?? '');
      names.push(...relativeImportNames(dots.length, modules));
      // `from . import *` loads each submodule the package's __all__ names (any of them, as it may change): the package whole, as `from X import *`.
      if (from === undefined && /^\(?\s*\*\s*\)?\s*$/u.test(list ?? '')) names.push({ text: dots.length === 1 ? '.' : '../'.repeat(dots.length - 1).replace(/\/$/u, ''), tree: true, anchor: 'file' });
    }
  }
  for (const match of code.matchAll(/\b(?:import_module|__import__|run_module)\s*\(\s*["']([A-Za-z_][\w.]*)["']/gu)) names.push(...moduleFiles(match[1]!), ...pathImportNames(match[1]!));
  for (const call of relativeModuleCalls(code)) if (call.dots !== undefined && call.dots > 0) names.push(...relativeImportNames(call.dots, call.module === '' ? [] : [call.module]));
  return names;
}

/** A relative import `dots` deep of `modules` (none: the package itself): against the file's own directory, one up per extra dot. */
function relativeImportNames(dots: number, modules: readonly string[]): InterpreterName[] {
  const up = '../'.repeat(dots - 1);
  const relative = (name: InterpreterName): InterpreterName => ({ text: `${up}${name.text}`, tree: name.tree, anchor: 'file' });
  return [relative(file('__init__.py')), ...modules.flatMap((module) => moduleFiles(module).map(relative))];
}

/** The names that stand for the importing file's own package in import_module's `package` argument. */
const OWN_PACKAGE = /^(?:package\s*=\s*)?(?:__package__|__spec__\s*\.\s*parent|__name__)$/u;

/**
 * Each `import_module(".x", PACKAGE)` (a leading-dot literal: relative to PACKAGE): `dots` where PACKAGE is the
 * file's own package (`__package__`, `__spec__.parent`, `__name__`, which in a package's __init__ is the package and
 * elsewhere names a module no submodule is imported from), 0 without one (Python raises), undefined where it is anything else.
 */
function relativeModuleCalls(code: string): { text: string; dots?: number; module: string }[] {
  const calls: { text: string; dots?: number; module: string }[] = [];
  for (const match of code.matchAll(/\bimport_module\s*\(\s*[rRuU]?["'](\.+)([A-Za-z_][\w.]*)?["']\s*(?:,\s*([^)]*?)\s*,?\s*)?\)/gu)) {
    const [text, dots, module, anchor] = match;
    // Without a package Python raises (TypeError) and imports nothing.
    if (anchor === undefined) {
      calls.push({ text, module: '', dots: 0 });
      continue;
    }
    const own = OWN_PACKAGE.test(anchor);
    calls.push({ text, module: module ?? '', ...(own ? { dots: dots!.length } : {}) });
  }
  // A leading-dot literal whose call the pattern above does not close (a nested call in the package argument).
  for (const match of code.matchAll(/\bimport_module\s*\(\s*[rRuU]?["']\./gu)) if (!calls.some((call) => code.startsWith(call.text, match.index))) calls.push({ text: match[0], module: '' });
  return calls;
}

/** What Python code imports that zotbox cannot name: an `import_module(".x", PACKAGE)` whose PACKAGE it cannot read. */
export function unreadPythonImports(source: string): string[] {
  return relativeModuleCalls(pythonLogicalLines(source))
    .filter((call) => call.dots === undefined)
    .map((call) => `${call.text}: a relative import_module against a package zotbox cannot read`);
}

/** A Python script run by its #! line has its own directory as sys.path[0]: what it may import from there. */
export function scriptRootNames(code: string): InterpreterName[] {
  const line = /^#!\s*(\S*python[0-9.]*)(?=\s|$)|^#!\s*\S*\/env\s+(?:-\S+\s+)*(python[0-9.]*)(?=\s|$)/u.exec(code);
  return line === null ? [] : [{ text: moduleEntriesName('.', line[1] ?? line[2]!), tree: false, anchor: 'file' }];
}

/**
 * What Python may import from `directory` when it is sys.path[0] of a program `interpreter` runs (the script's
 * directory; the working directory for -m, -c and stdin): a module there of any name the program, the standard
 * library or an installed package imports runs in place of the one meant (python-installed-names.ts spells them out).
 */
export function pathEntryNames(directory: string, interpreter: string): InterpreterName[] {
  return [{ text: moduleEntriesName(directory.replace(/\/+$/u, ''), interpreter), tree: false }];
}

/** The same for a script's sys.path[0], which CPython takes beside the file the script resolves to (its links followed). */
export function scriptEntryNames(script: string, interpreter: string): InterpreterName[] {
  return [{ text: scriptEntriesName(script, interpreter), tree: false }];
}

/**
 * What Python may import from `directory` when it is sys.path[0] (the script's directory; the working directory for
 * -m, -c and stdin) or put first on it: every module there, as the standard library's own imports and a package's
 * find it before their own: the directory whole. Not "." itself (where the program runs is the workspace, whose every
 * write would be refused): there, a module file or package of each standard-library name (what is left of the closed
 * world where the directory cannot be protected whole).
 */
export function searchRootNames(directory: string, anchor?: 'file'): InterpreterName[] {
  const at = directory.replace(/\/+$/u, '');
  const here = at === '.' || at === '';
  // Elsewhere the directory whole covers them (listing each costs a path resolution per name, per command).
  if (!here) return [{ text: at, tree: true, ...(anchor === undefined ? {} : { anchor }) }];
  const names: InterpreterName[] = [];
  for (const name of PYTHON_STDLIB_NAMES) for (const suffix of ['', '.py']) names.push({ text: `${name}${suffix}`, tree: true });
  return anchor === undefined ? names : names.map((name) => ({ ...name, anchor }));
}
