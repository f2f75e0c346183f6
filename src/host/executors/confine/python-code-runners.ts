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
 * unittest's loaders, logging.config (it imports the classes its config names), tkinter (Tcl's evalfile), six
 * (`exec_`), distutils' and setuptools' `run_setup`, multiprocessing's ForkingPickler, pytest (`pytest.main`
 * imports the test files it is given).
 */
const CODE_RUNNING = new Set([
  'code',
  'codeop',
  'timeit',
  'cProfile',
  'profile',
  'trace',
  'bdb',
  'pdb',
  'doctest',
  'pydoc',
  'ctypes',
  'cffi',
  'unittest',
  'logging.config',
  'tkinter',
  'six',
  'distutils.core',
  'setuptools.sandbox',
  'multiprocessing.reduction',
  'pytest',
]);

/** Names of the import system's hooks and the runners reached without an import of their module. */
const HOOK_NAMES = [
  'entry_points',
  'PYTHONBREAKPOINT',
  'breakpoint',
  'breakpointhook',
  'SOURCE_SUFFIXES',
  'BYTECODE_SUFFIXES',
  'EXTENSION_SUFFIXES',
  'all_suffixes',
  'FileFinder',
  'path_hook',
  'path_hooks',
  'meta_path',
  'path_importer_cache',
  'fileConfig',
  'dictConfig',
  'find_spec',
  'find_module',
  'find_loader',
  'get_loader',
  'get_importer',
  'iter_importers',
  'importfile',
  'exec_module',
  '__loader__',
  '__spec__',
  'EntryPoint',
  'run_setup',
  'exec_',
  'ForkingPickler',
  'Unpickler',
  'read_pickle',
  'allow_pickle',
  'UnsafeLoader',
  'FullLoader',
  'full_load',
  'full_load_all',
];
const HOOK_TOKENS = new RegExp(String.raw`\b(?:${HOOK_NAMES.join('|')})\b`, 'gu');

/** The modules that hold loaders (importlib but its metadata and resources, which load nothing). */
export const LOADER_MODULE = /\b(?:runpy|imp|zipimport|builtins|__builtins__|pkgutil)\b|\bimportlib\b(?!\s*\.\s*(?:metadata|resources)\b|\s+import\s+(?:metadata|resources)\s*$)/mu;

/** Whether a module name (dotted) is one of CODE_RUNNING, or inside one. */
function codeRunning(module: string): boolean {
  // A module's C twin (`_ctypes`, `_tkinter`) runs as the module does (review s19k row 3).
  const parts = module.replace(/^_+/u, '').split('.');
  return parts.some((_, index) => CODE_RUNNING.has(parts.slice(0, index + 1).join('.')));
}

/** A string that is a hook's name whole: the hook taken by reflection (`getattr(sys, "meta_path")`). */
export function hookNameStrings(code: string): Found[] {
  return [...code.matchAll(new RegExp(String.raw`(["'])(?:${HOOK_NAMES.join('|')})\1`, 'gu'))].map((match) => ({ at: match.index, call: match[0] }));
}

/** An interpreter given no program, or `-`: it runs its standard input. */
const INTERPRETER = String.raw`(?:sys\s*\.\s*executable|[rRuU]?["'](?:(?:/[\w./-]*/)?(?:python[\d.]*|node|sh|bash|zsh|dash|ksh|perl|ruby|php|lua))(?:\s+-)?["'])`;
const INTERPRETER_ON_STDIN = new RegExp(String.raw`(?:\[\s*${INTERPRETER}\s*(?:,\s*[rRuU]?["']-["']\s*)?,?\s*\]|\(\s*${INTERPRETER}\s*[,)])`, 'gu');

/**
 * A process call that starts an interpreter with no program or `-` (`subprocess.run([sys.executable],
 * stdin=open(p))`, `["python3", "-"], input=text`): it runs whatever text it is given, which zotbox cannot spell out
 * (review s19k row 6).
 */
export function interpretersOnStdin(code: string): Found[] {
  return [...code.matchAll(INTERPRETER_ON_STDIN)].map((match) => ({ at: match.index, call: match[0].replace(/\s+/gu, ' ') }));
}

/** Each import statement of a module that runs code (`import timeit`, `from logging import config`, `from pydoc import locate`). */
export function codeRunningImports(code: string): Found[] {
  const found: Found[] = [];
  // A statement starts a logical line, or follows a compound statement's `:` (`try: import pdb`, `if x: import timeit`).
  for (const match of code.matchAll(/(?:^|(?<=:))[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+([^\n]+)|import[ \t]+([^\n]+))/gmu)) {
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
  return [...code.matchAll(HOOK_TOKENS), ...code.matchAll(UNSAFE_YAML)].map((match) => ({ at: match.index, call: match[0] }));
}

/** PyYAML's loaders that build any Python object (its plain, full and unsafe ones), named or given as `Loader=`. */
const UNSAFE_YAML = /\byaml\s*\.\s*C?(?:Unsafe|Full)?Loader\b|\bLoader\s*=\s*(?!(?:yaml\s*\.\s*)?C?(?:Safe|Base)Loader\b)/gu;

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

/** A literal argument: a string without an f prefix, no escape or brace in it. */
const LITERAL = String.raw`[rRuU]?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*')`;

/** A file named by literals: `open("x", "rb")`, `Path("x")`, `pathlib.Path("x")`. */
const LITERAL_FILE = String.raw`(?:\bopen|(?<![\w])(?:pathlib\s*\.\s*)?Path)\s*\(\s*${LITERAL}(?:\s*,\s*${LITERAL})*\s*\)`;

/** How a name bound to a literal file may be used and stay that file: read whole, tested, closed, or handed to a load. */
const FILE_USE = (name: string) => String.raw`(?<![\w.])${name}\s*\.\s*(?:read|read_bytes|read_text|exists|is_file|close)\s*\(\s*\)|(?<=\b(?:load|loads)\s*\(\s*)${name}(?=\s*\))`;

/**
 * Names bound only to files named by literals (`with open("cache.pkl", "rb") as cache:`, `cache =
 * Path("cache.pkl")`) and used only as FILE_USE allows: handed to a loader they are one of those files, each protected
 * as the program's words. Closed (review s19k row 5): any other mention of the name (another binding in any form, a
 * string naming it, a use as a value) makes it no such name.
 */
export function openedLiterals(code: string): Set<string> {
  const bound = new RegExp(String.raw`${LITERAL_FILE}\s*as\s+([A-Za-z_]\w*)\s*:|^[ \t]*([A-Za-z_]\w*)\s*=\s*${LITERAL_FILE}[ \t]*$`, 'gmu');
  const names = new Set<string>();
  const bindings = new Map<string, { start: number; end: number }[]>();
  for (const match of code.matchAll(bound)) {
    const name = match[1] ?? match[2]!;
    bindings.set(name, [...(bindings.get(name) ?? []), { start: match.index, end: match.index + match[0].length }]);
  }
  for (const [name, spans] of bindings) {
    const uses = [...code.matchAll(new RegExp(FILE_USE(name), 'gu'))].map((match) => ({ start: match.index, end: match.index + match[0].length }));
    const allowed = [...spans, ...uses];
    const mentions = [...code.matchAll(new RegExp(String.raw`(?<![\w.])${name}(?!\w)`, 'gu'))];
    if (mentions.every((mention) => allowed.some((span) => mention.index >= span.start && mention.index < span.end))) names.add(name);
  }
  return names;
}

/** A name's mentions as code (an f-string's prefix `f"` is none). */
const mentionsOf = (name: string) => new RegExp(String.raw`(?<![\w.])${name}(?![\w"'])`, 'gu');

/**
 * The bodies of `with open("x", "rb") as NAME:` blocks in which NAME is that file however the rest of the file
 * binds it (review s19k over-denial 5: `for f in staged:` elsewhere): every mention of NAME in the body is a FILE_USE,
 * the body defers nothing (no def, lambda, class, loop or generator that reads NAME later), and nothing elsewhere can
 * bind it meanwhile (no `global`/`nonlocal` of it, no `__main__`, no exec, eval or compile, no string that is the
 * name, as `globals()["f"]` or `setattr(m, "f", …)` need). `text` is the code with strings and comments blanked.
 */
export function openedWithBodies(code: string, text: string): { readonly name: string; readonly start: number; readonly end: number }[] {
  const bodies: { name: string; start: number; end: number }[] = [];
  const rebinding = /\b(?:__main__|exec|eval|compile)\b/u.test(text);
  for (const match of code.matchAll(new RegExp(String.raw`^([ \t]*)with[ \t]+${LITERAL_FILE}\s*as\s+([A-Za-z_]\w*)\s*:`, 'gmu'))) {
    const name = match[2]!;
    if (rebinding || new RegExp(String.raw`\b(?:global|nonlocal)\b[^\n]*(?<![\w.])${name}\b`, 'u').test(text) || new RegExp(String.raw`(["'])${name}\1`, 'u').test(code)) continue;
    const start = match.index + match[0].length;
    const end = blockEnd(text, start, match[1]!.length);
    const body = text.slice(start, end);
    if (/\b(?:def|lambda|class|for|while|yield|await|async)\b/u.test(body)) continue;
    const uses = [...code.slice(start, end).matchAll(new RegExp(FILE_USE(name), 'gu'))].map((use) => ({ start: use.index, end: use.index + use[0].length }));
    const mentions = [...code.slice(start, end).matchAll(mentionsOf(name))];
    if (mentions.every((mention) => uses.some((use) => mention.index >= use.start && mention.index < use.end))) bodies.push({ name, start, end });
  }
  return bodies;
}

/** Where the block whose header ends at `from` ends: the rest of its line, then each line indented deeper than `indent` (blank ones too). */
function blockEnd(text: string, from: number, indent: number): number {
  let end = text.indexOf('\n', from) === -1 ? text.length : text.indexOf('\n', from);
  while (end < text.length) {
    const next = text.indexOf('\n', end + 1) === -1 ? text.length : text.indexOf('\n', end + 1);
    const line = text.slice(end + 1, next);
    if (line.trim() !== '' && /^[ \t]*/u.exec(line)![0].length <= indent) break;
    end = next;
  }
  return end;
}

/** `args` with each opened-literal name and each literal file read (`open("x").read()`, `Path("x").read_bytes()`) as a literal. */
export function literalFilesWritten(args: string, opened: ReadonlySet<string>): string {
  let text = args.replace(new RegExp(String.raw`${LITERAL_FILE}(?:\s*\.\s*(?:read|read_bytes|read_text)\s*\(\s*\))?`, 'gu'), '""');
  for (const name of opened) text = text.replace(new RegExp(String.raw`(?<![\w.])${name}(?:\s*\.\s*(?:read|read_bytes|read_text)\s*\(\s*\))?(?!\w)`, 'gu'), '""');
  return text;
}

/** The builtins `exec`, `eval` and `compile` a file shadows at its top level: imported from a module (`from re import compile`), defined or assigned. */
export function shadowedBuiltins(code: string): Set<string> {
  const shadowed = new Set<string>();
  for (const name of ['exec', 'eval', 'compile']) {
    // At the top level only: a method named `exec` or a function's own import shadows nothing outside it.
    const imported = new RegExp(String.raw`^from[ \t]+(?!builtins\b)[\w.]+[ \t]+import[ \t]+[^\n]*(?<![\w.])${name}\b(?![ \t]+as\b)`, 'mu');
    const defined = new RegExp(String.raw`^(?:def[ \t]+${name}\b|${name}[ \t]*=(?!=))`, 'mu');
    // Undone anywhere (`del compile`, `from builtins import compile`), or the builtins module named at all: the builtin.
    const undone = new RegExp(String.raw`\bdel\b[^\n]*(?<![\w.])${name}\b|\b(?:builtins|__builtins__)\b`, 'u');
    if ((imported.test(code) || defined.test(code)) && !undone.test(code)) shadowed.add(name);
  }
  return shadowed;
}
