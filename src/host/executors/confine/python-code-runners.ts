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
  // Review s21l: importlib.resources imports the package it is named; turtle hands on tkinter (turtle.TK); numpy's
  // ctypes loader; template engines whose templates run Python (jinja2 but its sandbox, mako, tornado's, Django's).
  'importlib.resources',
  'turtle',
  'numpy.ctypeslib',
  'jinja2',
  'mako',
  'tornado.template',
  'django.template',
  'chameleon',
  'genshi',
  'Cheetah',
  // Review s29p row 3: sympy evaluates every string it is handed as Python (sympify, parse_expr, and each function
  // that sympifies its arguments: `simplify("…")`); numexpr evaluates the expressions it is given.
  'sympy',
  'numexpr',
]);

/** Modules inside a CODE_RUNNING one that run nothing they are given: jinja2's sandbox refuses Python in its templates. */
const CODE_RUNNING_EXCEPT = /^jinja2\.sandbox(?:\.(?:Immutable)?SandboxedEnvironment)?$/u;

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
  'walk_packages',
  'allow_pickle',
  'UnsafeLoader',
  'FullLoader',
  'full_load',
  'full_load_all',
  // Review s29p row 3: what evaluates a string annotation or type as Python (typing's and inspect's annotations,
  // ForwardRef, attrs' resolve_types, pydantic's models built or rebuilt from names), and sympy's evaluators.
  'get_type_hints',
  'get_annotations',
  'ForwardRef',
  'eval_type',
  'evaluate_forward_ref',
  'resolve_types',
  'create_model',
  'TypeAdapter',
  'parse_obj_as',
  'model_rebuild',
  'update_forward_refs',
  'sympify',
  'parse_expr',
  'lambdify',
  // Review s31q row 4: inspect's `eval_str=True` (signature, get_annotations), singledispatch's register (it reads
  // the handler's annotations), annotations set from data (`type("S", (BaseModel,), {"__annotations__": fields})`),
  // and the entry-point loaders of pkg_resources and pluggy.
  'eval_str',
  'singledispatch',
  'singledispatchmethod',
  '__annotations__',
  'iter_entry_points',
  'load_setuptools_entrypoints',
];
// Under a private name too (`multiprocessing.connection._ForkingPickler`, review s21l row 2).
const HOOK_TOKENS = new RegExp(String.raw`(?<![\w])_*(?:${HOOK_NAMES.join('|')})\b`, 'gu');

/** The modules that hold loaders (importlib but its metadata, which loads nothing; its resources import, review s21l). */
export const LOADER_MODULE = /\b(?:runpy|imp|zipimport|builtins|__builtins__|pkgutil)\b|\bimportlib\b(?!\s*\.\s*metadata\b|\s+import\s+metadata\s*$)/mu;

/** Whether a module name (dotted) is one of CODE_RUNNING, or inside one. */
function codeRunning(module: string): boolean {
  // A module's C twin (`_ctypes`, `_tkinter`) runs as the module does (review s19k row 3).
  const parts = module.replace(/^_+/u, '').split('.');
  if (CODE_RUNNING_EXCEPT.test(module)) return false;
  return parts.some((_, index) => CODE_RUNNING.has(parts.slice(0, index + 1).join('.')));
}

/** A string that is a hook's name whole: the hook taken by reflection (`getattr(sys, "meta_path")`). */
export function hookNameStrings(code: string): Found[] {
  return [...code.matchAll(new RegExp(String.raw`(["'])(?:${HOOK_NAMES.join('|')})\1`, 'gu'))].map((match) => ({ at: match.index, call: match[0] }));
}

/** An interpreter given no program, or `-`: it runs its standard input. */
const INTERPRETER = String.raw`(?:sys\s*\.\s*executable|[rRuU]?["'](?:(?:/[\w./-]*/)?(?:python[\d.]*|node|sh|bash|zsh|dash|ksh|perl|ruby|php|lua))(?:\s+-)?["'])`;
// The bracket-less form only as a call's arguments (`os.execv(sys.executable, …)`, `Popen("python3")`), not a tuple of
// tool names (`for tool in ("node", "npm"):`, review s25n over-denials 1-2); a list holding the interpreter alone anywhere.
const INTERPRETER_ON_STDIN = new RegExp(
  String.raw`(?:\[\s*${INTERPRETER}\s*(?:,\s*[rRuU]?["']-["']\s*)?,?\s*\]|(?<=\b(?:run|call|check_call|check_output|Popen|spawn\w*|exec\w*|posix_spawnp?|create_subprocess_exec|system|popen|getoutput|getstatusoutput|startfile)\s*)\(\s*${INTERPRETER}\s*[,)])`,
  'gu',
);

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

/** The import system's hooks and runners named anywhere (`entry_points()`, `sys.meta_path`, `breakpoint()`), and unsafe YAML loaders. */
export function importHooks(code: string): Found[] {
  const hooks = [...code.matchAll(HOOK_TOKENS)].filter((match) => !ownSpecRead(code, match.index, match[0]));
  return [...hooks, ...unsafeYaml(code)].map((match) => ({ at: match.index, call: match[0] }));
}

/** `__spec__` printed or compared with None: a program reading its own spec loads nothing (review s21l over-denial 5). */
function ownSpecRead(code: string, at: number, token: string): boolean {
  if (token !== '__spec__') return false;
  const after = code.slice(at + token.length);
  return (/\b(?:print|repr|str)\s*\(\s*$/u.test(code.slice(Math.max(0, at - 24), at)) && /^\s*\)/u.test(after)) || /^\s+is\s+(?:not\s+)?None\b/u.test(after);
}

/** PyYAML's loaders that build any Python object (its plain, full and unsafe ones), named. */
const UNSAFE_YAML_NAMED = /\byaml(?:\s*\.\s*(?:loader|cyaml))?\s*\.\s*C?(?:Unsafe|Full)?Loader\b/gu;
/** PyYAML's loaders that build plain data only. */
const SAFE_YAML = /^C?(?:Safe|Base)Loader$/u;

/** Each unsafe YAML loader: named, or given as `Loader=` anything but a safe loader or a name only ever one of them. */
function unsafeYaml(code: string): RegExpExecArray[] {
  const safe = safeLoaderAliases(code);
  const found: RegExpExecArray[] = [...code.matchAll(UNSAFE_YAML_NAMED)];
  const isSafe = (value: string | undefined) => value !== undefined && (SAFE_YAML.test(value) || safe.has(value));
  for (const match of code.matchAll(/\bLoader\s*=(?!=)/gu)) {
    const value = /^\s*(?:yaml\s*\.\s*)?([A-Za-z_]\w*)\s*(?=[,)\n]|$)/u.exec(code.slice(match.index + match[0].length))?.[1];
    if (!isSafe(value)) found.push(match);
  }
  if (!/\byaml\b/u.test(code)) return found;
  // The loader handed on by position (`yaml.load(f, Loader)`, review s25n row 2), an unsafe loader or every name
  // imported from yaml (`from yaml import CLoader as Loader`, `from yaml.loader import *`).
  for (const match of code.matchAll(/\b(?:load|load_all)\s*\(\s*(?:[^,()\n]|\([^()]*\))*,\s*((?:[^,()=\n]|\([^()]*\))+?)\s*(?=[,)])/gu))
    if (!isSafe(/^(?:yaml\s*\.\s*)?([A-Za-z_]\w*)$/u.exec(match[1]!.trim())?.[1])) found.push(match);
  for (const match of code.matchAll(/^[ \t]*from[ \t]+yaml(?:\.\w+)*[ \t]+import[ \t]+([^\n]+)/gmu)) {
    const names = match[1]!
      .replace(/[()]/gu, '')
      .split(',')
      .map((each) => each.trim().split(/\s+/u)[0]!);
    if (names.some((name) => name === '*' || /^C?(?:Unsafe|Full)?Loader$/u.test(name))) found.push(match);
  }
  return found;
}

/**
 * Names bound only by imports of a safe loader (`from yaml import CSafeLoader as Loader`, else `SafeLoader as
 * Loader`, review s21l over-denial 3): closed, no other binding of the name in any form (an assignment, a walrus, a
 * tuple target, for, with, except, def, class, global, del, another import), no string that is the name, no exec,
 * eval, compile or `__main__` in the file.
 */
function safeLoaderAliases(code: string): Set<string> {
  const text = code.replace(/(["'])(?:(?!\1)[^\\\n]|\\.)*\1/gu, '""');
  const names = new Set<string>();
  // A star import may bind any name (`from yaml.loader import *` rebinds Loader, review s25n row 2).
  if (/\b(?:__main__|exec|eval|compile)\b|\bimport\s+\*/u.test(text)) return names;
  for (const match of text.matchAll(/\bC?(?:Safe|Base)Loader\s+as\s+([A-Za-z_]\w*)\b/gu)) names.add(match[1]!);
  for (const name of names) {
    const word = String.raw`(?<![\w.])${name}\b`;
    const bindings = [
      String.raw`${word}\s*:=`,
      String.raw`^[ \t]*[\w \t,()[\]*]*${word}[\w \t,()[\]*]*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)`,
      String.raw`\b(?:for|def|class|global|nonlocal|del)\b[^\n:=]*${word}`,
      String.raw`(?<!C?(?:Safe|Base)Loader\s+)\bas\s+${name}\b`,
      String.raw`\bimport\s+${name}\b`,
      String.raw`\bimport\b[^\n]*,\s*${name}\s*(?:,|$)`,
    ];
    if (bindings.some((binding) => new RegExp(binding, 'mu').test(text)) || new RegExp(String.raw`(["'])${name}\1`, 'u').test(code)) names.delete(name);
  }
  return names;
}

/** jinja2's sandbox imported alone: its templates run no Python. */
const SANDBOX_IMPORT = /^\s*from\s+jinja2\.sandbox\s+import\s+\(?\s*(?:Immutable)?SandboxedEnvironment(?:\s*,\s*(?:Immutable)?SandboxedEnvironment)*\s*\)?\s*$/u;

/**
 * A code-running module named anywhere but an import the import check refuses (review s21l row 2): reached as another module's attribute
 * (`multiprocessing.sharedctypes.ctypes`, `turtle.TK`'s tkinter, `numpy.ctypeslib`), or under a private name; the
 * builtin `help` given anything (pydoc imports the module it is named); `importlib.resources` (it imports the package).
 * `text` has strings and comments blanked.
 */
export function codeRunningMentions(text: string): Found[] {
  const found: Found[] = [];
  const mention =
    /(?<![\w])_*(?:codeop|timeit|cProfile|bdb|pdb|doctest|pydoc|ctypes\w*|cffi|unittest|tkinter|Tkinter|turtle|pytest|jinja2|mako|Cheetah|chameleon|genshi)\b|\bimportlib\s*\.\s*resources\b|(?<![\w.])help\s*\(\s*(?!\))/gu;
  for (const match of text.matchAll(mention)) {
    const start = text.lastIndexOf('\n', match.index - 1) + 1;
    const line = text.slice(start, text.indexOf('\n', match.index) === -1 ? text.length : text.indexOf('\n', match.index));
    // An import line the import check refuses already, or jinja2's sandbox alone; a re-export imported under its
    // own name (`from multiprocessing.sharedctypes import ctypes as c`) is a mention.
    if (codeRunningImports(line).length > 0 || SANDBOX_IMPORT.test(line) || /\bdef\s+$/u.test(text.slice(start, match.index))) continue;
    found.push({ at: match.index, call: match[0].replace(/\s+/gu, '').replace(/\($/u, '') });
  }
  return found;
}

/**
 * A loader module used as a value: anything but `MODULE.attribute` or an import of it (`B = builtins`,
 * `vars(runpy)`, `attrgetter("exec")(builtins)`), and its `__dict__`: any loader may then be taken by a name.
 */
export function loaderModuleValues(code: string): Found[] {
  const found: Found[] = [];
  for (const match of code.matchAll(/\b(?:runpy|imp|zipimport|builtins|__builtins__|pkgutil|importlib)\b/gu)) {
    if (match.index > 0 && /\w/u.test(code[match.index - 1]!)) continue;
    const after = code.slice(match.index + match[0].length);
    const line = code.slice(code.lastIndexOf('\n', match.index - 1) + 1, match.index);
    // Another module's attribute that is one of them (`inspect.builtins`, review s31q row 2) is the module as a value.
    if (/\.\s*$/u.test(line) && !/^\s*(?:import|from)\b/u.test(line)) {
      found.push({ at: match.index, call: match[0] });
      continue;
    }
    const imported = /^\s*(?:import|from)\b/u.test(line) && !/^\s+as\b/u.test(after);
    const attribute = /^\s*\.\s*(?!__dict__\b)[A-Za-z_]/u.test(after);
    if (!imported && !attribute) found.push({ at: match.index, call: match[0] });
  }
  return found;
}

/** A literal argument: a string without an f prefix, no escape or brace in it. */
const LITERAL = String.raw`[rRuU]?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*')`;

/** A file named by literals: `open("x", "rb")`, `Path("x")`, `pathlib.Path("x")`. */
// The builtin open and pathlib's Path only: a method's `.open("rb")` (pathlib, zipfile) names no file (review s21l row 4).
const LITERAL_FILE = String.raw`(?<![\w.])(?:open|(?:pathlib\s*\.\s*)?Path)\s*\(\s*${LITERAL}(?:\s*,\s*${LITERAL})*\s*\)`;

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

/**
 * `code` with each constant file name written as a literal of its length (`CACHE = ".git/c.pkl"` then `open(CACHE,
 * "rb")`, review s21l over-denial 4), so the loads read it as the literal it is; offsets are kept. A constant is a
 * name bound once, at the top level, to a literal string, whose every other mention is the first argument of a call
 * (`open(CACHE, "rb")`, `os.path.exists(CACHE)`), and that nothing can bind again (as openedWithBodies: no
 * `global`/`nonlocal` of it, no `__main__`, exec, eval or compile, no string that is the name). Names under three
 * characters have no literal of their length and stay names. `text` is the code with strings and comments blanked.
 */
export function constantsWritten(code: string, text: string): string {
  if (/\b(?:__main__|exec|eval|compile)\b/u.test(text)) return code;
  let written = code;
  for (const match of code.matchAll(new RegExp(String.raw`^([A-Za-z_]\w{2,})[ \t]*=[ \t]*${LITERAL}[ \t]*$`, 'gmu'))) {
    const name = match[1]!;
    if (new RegExp(String.raw`\b(?:global|nonlocal)\b[^\n]*(?<![\w.])${name}\b`, 'u').test(text) || new RegExp(String.raw`(["'])${name}\1`, 'u').test(code)) continue;
    const mentions = [...code.matchAll(mentionsOf(name))].filter((mention) => mention.index !== match.index);
    const argument = (at: number) => /[\w)]\s*\(\s*$/u.test(code.slice(Math.max(0, at - 40), at)) && /^\s*[,)]/u.test(code.slice(at + name.length)) && !binds(code, at);
    if (mentions.length === 0 || !mentions.every((mention) => argument(mention.index))) continue;
    for (const mention of mentions) written = `${written.slice(0, mention.index)}"${'x'.repeat(name.length - 2)}"${written.slice(mention.index + name.length)}`;
  }
  return written;
}

/** Whether the `(` before `at` opens a def's parameters, a class pattern of `case`, or a lambda's line: a binding there (review s25n row 1). */
function binds(code: string, at: number): boolean {
  const paren = code.lastIndexOf('(', at);
  const line = code.slice(code.lastIndexOf('\n', paren - 1) + 1, paren);
  return /^\s*(?:async\s+)?def\b|^\s*case\b|\blambda\b/u.test(line);
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
