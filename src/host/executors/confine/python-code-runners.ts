// What else in Python code may run code zotbox cannot see, read by python-computed-loads.ts (review s17j): modules
// whose purpose is to run text or load by a name they are given (an import of one refuses), loader modules used as
// values (reflection), and the import system's own hooks. Also what makes a name harmless there: a file opened by a
// literal name, and the builtins a file shadows with its own. Pure; `code` is pythonLogicalLines' view.

/** A line and what was found on it. */
export interface Found {
  readonly at: number;
  readonly call: string;
}

/**
 * Modules that run text or load by a name they are given: code's and codeop's interpreters, timeit, the profilers,
 * trace, bdb, pdb, doctest, pydoc (importfile, locate), ctypes and cffi (a shared library's constructor runs),
 * unittest's loaders, logging.config (it imports the classes its config names).
 */
const CODE_RUNNING = new Set(['code', 'codeop', 'timeit', 'cProfile', 'profile', 'trace', 'bdb', 'pdb', 'doctest', 'pydoc', 'ctypes', 'cffi', 'unittest', 'logging.config']);

/** Names of the import system's hooks and the runners reached without an import of their module. */
const HOOK_TOKENS =
  /\b(?:entry_points|PYTHONBREAKPOINT|breakpoint|breakpointhook|SOURCE_SUFFIXES|BYTECODE_SUFFIXES|EXTENSION_SUFFIXES|all_suffixes|FileFinder|path_hook|path_hooks|meta_path|path_importer_cache|fileConfig|dictConfig|find_spec|find_module|find_loader|get_loader|get_importer|iter_importers|importfile|exec_module)\b/gu;

/** The modules that hold loaders (importlib but its metadata and resources, which load nothing). */
export const LOADER_MODULE = /\b(?:runpy|imp|zipimport|builtins|__builtins__|pkgutil)\b|\bimportlib\b(?!\s*\.\s*(?:metadata|resources)\b)/u;

/** Whether a module name (dotted) is one of CODE_RUNNING, or inside one. */
function codeRunning(module: string): boolean {
  const parts = module.split('.');
  return parts.some((_, index) => CODE_RUNNING.has(parts.slice(0, index + 1).join('.')));
}

/** Each import statement of a module that runs code (`import timeit`, `from logging import config`, `from pydoc import locate`). */
export function codeRunningImports(code: string): Found[] {
  const found: Found[] = [];
  for (const match of code.matchAll(/^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+([^\n]+)|import[ \t]+([^\n]+))/gmu)) {
    const modules =
      match[3] === undefined
        ? [
            match[1]!,
            ...match[2]!
              .replace(/[()]/gu, '')
              .split(',')
              .map((name) => `${match[1]!}.${name.trim().split(/\s+/u)[0]!}`),
          ]
        : match[3].split(',').map((each) => each.trim().split(/\s+/u)[0]!);
    const named = modules.find(codeRunning);
    if (named !== undefined) found.push({ at: match.index, call: `import ${named}` });
  }
  return found;
}

/** The import system's hooks and runners named anywhere (`entry_points()`, `sys.meta_path`, `find_spec`, `breakpoint()`). */
export function importHooks(code: string): Found[] {
  return [...code.matchAll(HOOK_TOKENS)].map((match) => ({ at: match.index, call: match[0] }));
}

/**
 * A loader module used as a value: anything but `MODULE.attribute` or an import of it (`B = builtins`,
 * `vars(runpy)`, `attrgetter("exec")(builtins)`), and its `__dict__`: any loader may then be taken by a name.
 */
export function loaderModuleValues(code: string): Found[] {
  const found: Found[] = [];
  for (const match of code.matchAll(/\b(?:runpy|imp|zipimport|builtins|__builtins__|pkgutil|importlib)\b/gu)) {
    if (match.index > 0 && /[\w.]/u.test(code[match.index - 1]!)) continue;
    const after = code.slice(match.index + match[0].length);
    const line = code.slice(code.lastIndexOf('\n', match.index - 1) + 1, match.index);
    const imported = /^\s*(?:import|from)\b/u.test(line) && !/^\s+as\b/u.test(after);
    const attribute = /^\s*\.\s*(?!__dict__\b)[A-Za-z_]/u.test(after);
    if (!imported && !attribute) found.push({ at: match.index, call: match[0] });
  }
  return found;
}

/**
 * Names bound once, and only, to a file opened by a literal name (`with open("cache.pkl", "rb") as cache:`, `f =
 * open("x.py")`): handed to a loader they are that literal file, protected as the program's words.
 */
export function openedLiterals(code: string): Set<string> {
  const literal = String.raw`[rRuU]?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*')`;
  const opened = new RegExp(String.raw`\bopen\s*\(\s*${literal}(?:\s*,\s*${literal})*\s*\)\s*as\s+([A-Za-z_]\w*)|\b([A-Za-z_]\w*)\s*=\s*open\s*\(\s*${literal}(?:\s*,\s*${literal})*\s*\)`, 'gu');
  const names = new Set<string>();
  for (const match of code.matchAll(opened)) {
    const name = match[1] ?? match[2]!;
    const bindings = [...code.matchAll(new RegExp(String.raw`(?<![\w.])${name}\s*(?:[-+*/%&|^@]|<<|>>|\*\*|//)?=(?!=)|\bas\s+${name}\b|\bfor\s+${name}\b|\bdef\s+\w+\s*\([^)]*\b${name}\b`, 'gu'))]
      .length;
    if (bindings === 1) names.add(name);
  }
  return names;
}

/** The builtins `exec`, `eval` and `compile` a file shadows at its top level: imported from a module (`from re import compile`), defined or assigned. */
export function shadowedBuiltins(code: string): Set<string> {
  const shadowed = new Set<string>();
  for (const name of ['exec', 'eval', 'compile']) {
    // At the top level only: a method named `exec` or a function's own import shadows nothing outside it.
    const imported = new RegExp(String.raw`^from[ \t]+(?!builtins\b)[\w.]+[ \t]+import[ \t]+[^\n]*(?<![\w.])${name}\b(?![ \t]+as\b)`, 'mu');
    const defined = new RegExp(String.raw`^(?:def[ \t]+${name}\b|${name}[ \t]*=(?!=))`, 'mu');
    if (imported.test(code) || defined.test(code)) shadowed.add(name);
  }
  return shadowed;
}
