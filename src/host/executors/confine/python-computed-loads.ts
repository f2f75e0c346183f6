// Python code that loads code from a path or module name it computes: runpy, importlib and its loaders, imp,
// zipimport, `__import__`, and the builtins that run text (`exec`, `eval`, `compile`). node's reader refuses a computed
// require or import; this is the same closed world for Python: a plugin folder walked with os.listdir and loaded by
// `runpy.run_path(os.path.join(d, f))` may load any file, the agent's too. A loader taken as a value (an alias, a
// name handed on, `getattr(runpy, "run_path")`) is computed as well, since zotbox no longer sees its calls. Pure.
import { pythonLogicalLines, stringEnd } from './python-logical-lines.js';

/** Calls that load or run code by the path, module name or text they are given, under whatever qualifier. */
const LOADERS = new Set([
  'run_path',
  'run_module',
  'import_module',
  '__import__',
  'spec_from_file_location',
  'spec_from_loader',
  'SourceFileLoader',
  'SourcelessFileLoader',
  'ExtensionFileLoader',
  'load_source',
  'load_compiled',
  'load_dynamic',
  'load_package',
  'load_module',
  'zipimporter',
  'execfile',
  'resolve_name',
  'unsafe_load',
  'unsafe_load_all',
]);

/** Modules whose loads run code in the data they read (pickle's reduce, marshal's code objects fed to exec). */
const DESERIALIZERS = new Set(['pickle', 'cPickle', '_pickle', 'marshal', 'shelve', 'dill', 'cloudpickle', 'jsonpickle']);
const DESERIALIZER_CALLS = /^\s*\.\s*(?:load|loads|Unpickler|open|decode)\b/u;

/** The modules that hold loaders: one of them in a file makes an attribute it looks up by a computed name a load. */
const LOADER_MODULES = /\b(?:runpy|importlib|imp|zipimport|builtins|pkgutil)\b/u;

/** An attribute looked up by name: getattr's or `__getattribute__`'s second argument, a `vars(…)` or `__dict__` key. */
const LOOKUP = /\b(?:getattr|__getattribute__)\s*\(|\b(?:vars\s*\([^()]*\)|__dict__)\s*\[/gu;

/** The builtins that run text: counted bare or off `builtins`, never as another object's method (`re.compile`). */
const RUNS_TEXT = new Set(['exec', 'eval', 'compile']);

/** A file opened by a literal name (and literal mode), read or not. */
const OPEN_LITERAL = /\bopen\s*\(\s*[rRuU]?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*')(?:\s*,\s*[rRuU]?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*'))*\s*\)(?:\s*\.\s*read\s*\(\s*\))?/gu;

/** Arguments that are literals only: strings without an f prefix, numbers, None, True, False, keyword or not. */
const LITERAL_ARGUMENTS = /^\s*(?:(?:[A-Za-z_]\w*\s*=\s*)?(?:(?:[rRuU]|[rR][bB]|[bB][rR]|[bB])?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*')|\d+|None|True|False)\s*(?:,\s*|$))*$/u;

export interface PythonComputedLoad {
  /** The 0-based line of the source it is on. */
  readonly line: number;
  /** The loader as written. */
  readonly call: string;
}

/** The offset of the `)` that closes the `(` at `open`, strings skipped; undefined where none does. */
function closingParen(code: string, open: number): number | undefined {
  let depth = 0;
  for (let at = open; at < code.length; ) {
    const char = code[at]!;
    if (char === '"' || char === "'") {
      at = stringEnd(code, at);
      continue;
    }
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char) && --depth === 0) return at;
    at++;
  }
  return undefined;
}

/** Whether the loader named at `at..end` is used as zotbox can read it: a call of literals, or a plain import of it. */
function readable(code: string, at: number, end: number, name: string): boolean {
  const lineStart = code.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = code.indexOf('\n', end) === -1 ? code.length : code.indexOf('\n', end);
  const before = code.slice(lineStart, at);
  const after = code.slice(end);
  // `def load_module(self, name):` defines a loader of the program's own; its calls are read where they are.
  if (/\bdef\s+$/u.test(before)) return true;
  const open = /^\s*\(/u.exec(after);
  if (open === null) return /^\s*(?:from\s+[\w.]+\s+)?import\b/u.test(before) && !/^\s+as\b/u.test(code.slice(end, lineEnd));
  const close = closingParen(code, end + open[0].length - 1);
  if (close === undefined) return false;
  const args = code.slice(end + open[0].length, close);
  // A relative import_module(".x", PACKAGE) is read with its package (python-imports.ts).
  if (name === 'import_module' && /^\s*[rRuU]?["']\./u.test(args)) return true;
  // `exec(open("tools/x.py").read())`, `pickle.load(open("cache.pkl", "rb"))`: the file is named, and protected as the program's words.
  return LITERAL_ARGUMENTS.test(args.replace(OPEN_LITERAL, '""'));
}

/**
 * Whether a deserializer module named at `at..end` loads only what the program names: a plain `import pickle`, or
 * its load call on literals (`pickle.load(open("cache.pkl", "rb"))`); taken as a value or imported from, it is not.
 */
function deserializerReadable(code: string, at: number, end: number): boolean {
  const before = code.slice(code.lastIndexOf('\n', at - 1) + 1, at);
  const after = code.slice(end);
  if (/^\s*import\b/u.test(before) && !/^\s+as\b/u.test(after)) return true;
  if (/^\s*import\s+[\w.]+\s+as\s+$/u.test(before)) return true;
  const call = DESERIALIZER_CALLS.exec(after);
  if (call === null) return false;
  const callEnd = end + call[0].length;
  return readable(code, callEnd - call[0].trim().replace(/^\.\s*/u, '').length, callEnd, 'load');
}

/** Whether the builtin at `at` is one (bare, or off `builtins`/`__builtins__`), not another object's method. */
function isBuiltin(code: string, at: number): boolean {
  const before = code.slice(Math.max(0, at - 40), at);
  return !/\.\s*$/u.test(before) || /\b(?:__builtins__|builtins)\s*\.\s*$/u.test(before);
}

/** Each load in `source` (a Python program's text) whose path, module name or text zotbox cannot spell out. */
export function pythonComputedLoads(source: string): PythonComputedLoad[] {
  const code = pythonLogicalLines(source);
  const loads: PythonComputedLoad[] = [];
  const lineOf = (at: number) => source.slice(0, at).split('\n').length - 1;
  for (let at = 0; at < code.length; ) {
    const char = code[at]!;
    if (char === '"' || char === "'") {
      const end = stringEnd(code, at);
      // A loader's name as a string (`getattr(runpy, "run_path")`) is the loader taken by reflection.
      const inner = /^(?:"""|'''|"|')([\s\S]*?)(?:"""|'''|"|')?$/u.exec(code.slice(at, end))?.[1];
      // compile's mode "exec" or "eval" is no builtin taken: those count only where a lookup by name takes them.
      const lookedUp = /\b(?:getattr|__getattribute__|__dict__|vars|globals|locals)\b[^\n]*$|\[\s*$/u.test(code.slice(code.lastIndexOf('\n', at - 1) + 1, at));
      if (inner !== undefined && (LOADERS.has(inner) || (RUNS_TEXT.has(inner) && lookedUp))) loads.push({ line: lineOf(at), call: code.slice(at, end) });
      at = end;
      continue;
    }
    const word = /^[A-Za-z_]\w*/u.exec(code.slice(at, at + 64));
    if (word === null || (at > 0 && /\w/u.test(code[at - 1]!))) {
      at++;
      continue;
    }
    const name = word[0];
    const end = at + name.length;
    const counted = LOADERS.has(name) || (RUNS_TEXT.has(name) && isBuiltin(code, at));
    if (counted && !readable(code, at, end, name)) loads.push({ line: lineOf(at), call: name });
    if (DESERIALIZERS.has(name) && !deserializerReadable(code, at, end)) loads.push({ line: lineOf(at), call: name });
    at = end;
  }
  // Where a loader module is in the file, a lookup by a computed name may take a loader (`getattr(runpy, name)`), and
  // `__builtins__` is every builtin, exec and eval too.
  if (LOADER_MODULES.test(code))
    for (const match of code.matchAll(LOOKUP))
      if (!lookupWrittenOut(code, match.index + match[0].length, match[0].endsWith('('))) loads.push({ line: lineOf(match.index), call: match[0].replace(/\s+/gu, '') });
  for (const match of code.matchAll(/\b__builtins__\b/gu)) loads.push({ line: lineOf(match.index), call: '__builtins__' });
  return loads;
}

/** Whether the name a lookup at `from` takes is a literal: getattr's second argument, or the key in `[…]`. */
function lookupWrittenOut(code: string, from: number, call: boolean): boolean {
  const close = closingParen(code, from - 1);
  if (close === undefined) return false;
  const inside = code.slice(from, close);
  const name = call ? inside.slice(splitAt(inside) + 1) : inside;
  return /^\s*[rRuU]?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*')\s*(?:,[^,]*)?$/u.test(name);
}

/** The offset of the first top-level comma in a call's arguments (strings and brackets skipped); -1 where none is. */
function splitAt(args: string): number {
  let depth = 0;
  for (let at = 0; at < args.length; ) {
    const char = args[at]!;
    if (char === '"' || char === "'") {
      at = stringEnd(args, at);
      continue;
    }
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth--;
    else if (char === ',' && depth === 0) return at;
    at++;
  }
  return -1;
}
