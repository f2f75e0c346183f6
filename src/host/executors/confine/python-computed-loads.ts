// Python code that loads code from a path or module name it computes: runpy, importlib and its loaders, imp,
// zipimport, `__import__`, and the builtins that run text (`exec`, `eval`, `compile`). node's reader refuses a computed
// require or import; this is the same closed world for Python: a plugin folder walked with os.listdir and loaded by
// `runpy.run_path(os.path.join(d, f))` may load any file, the agent's too. A loader taken as a value (an alias, a
// name handed on, `getattr(runpy, "run_path")`) is computed as well, since zotbox no longer sees its calls. Pure.
import {
  codeRunningImports,
  codeRunningMentions,
  constantsWritten,
  hookNameStrings,
  type Found,
  importHooks,
  interpretersOnStdin,
  LOADER_MODULE,
  literalFilesWritten,
  loaderModuleValues,
  openedLiterals,
  openedWithBodies,
  shadowedBuiltins,
} from './python-code-runners.js';
import { closingParen, pythonLogicalLines, stringEnd } from './python-logical-lines.js';
import { computedLookups } from './python-lookups.js';
import { loopNamesWritten, textOnlyLoops } from './python-loop-names.js';
import { reflectedModules } from './python-reflection.js';
import { maskedPython } from './python-search-path-uses.js';

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
  'find_spec',
  'zipimporter',
  'execfile',
  'resolve_name',
  'unsafe_load',
  'unsafe_load_all',
]);

/** Modules whose loads run code in the data they read (pickle's reduce, marshal's code objects fed to exec). */
const DESERIALIZERS = new Set(['pickle', 'cPickle', '_pickle', 'marshal', 'shelve', 'dill', 'cloudpickle', 'jsonpickle']);
const DESERIALIZER_CALLS = /^\s*\.\s*(?:load|loads|Unpickler|open|decode)\b/u;

/** The builtins that run text: counted bare or off `builtins`, never as another object's method (`re.compile`). */
const RUNS_TEXT = new Set(['exec', 'eval', 'compile']);

/** Arguments that are literals only: strings without an f prefix, numbers, None, True, False, keyword or not. */
const LITERAL_ARGUMENTS = /^\s*(?:(?:[A-Za-z_]\w*\s*=\s*)?(?:(?:[rRuU]|[rR][bB]|[bB][rR]|[bB])?(?:"[^"\\\n{}]*"|'[^'\\\n{}]*')|\d+|None|True|False)\s*(?:,\s*|$))*$/u;

export interface PythonComputedLoad {
  /** The 0-based line of the source it is on. */
  readonly line: number;
  /** The loader as written. */
  readonly call: string;
}

/** Whether the loader named at `at..end` is used as zotbox can read it: a call of literals, or a plain import of it. */
function readable(code: string, at: number, end: number, name: string, opened: ReadonlySet<string> = new Set()): boolean {
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
  const written = literalFilesWritten(args, opened);
  // A literal import of a module that runs code, or of a deserializer, is the same as importing it (`__import__("timeit")`,
  // `import_module("pickle")`: review s21l row 3); sys so is its module table under a name zotbox does not follow.
  const imported = /^\s*[rRuU]?["']([\w.]+)["']/u.exec(args)?.[1] ?? '';
  if ((name === 'import_module' || name === '__import__') && (codeRunningImports(`import ${imported}`).length > 0 || DESERIALIZERS.has(imported.split('.')[0]!) || imported === 'sys')) return false;
  // find_spec imports the parent package of a dotted name, and with a path finds a file zotbox does not see: one
  // top-level name alone is a question (`find_spec("black")`, review s21l over-denial 1); `def find_spec` is read above.
  if (name === 'find_spec') return /^\s*[rRuU]?(?:"\w+"|'\w+')\s*$/u.test(args);
  // compile's result dropped (a syntax check, `compile(src, f, "exec")` as a statement) runs nothing (over-denial 2).
  if (name === 'compile' && /^\s*$/u.test(before) && /^\s*(?:#.*)?$/u.test(code.slice(close + 1, code.indexOf('\n', close) === -1 ? code.length : code.indexOf('\n', close)))) return true;
  return LITERAL_ARGUMENTS.test(written);
}

/**
 * Whether a deserializer module named at `at..end` loads only what the program names: a plain `import pickle`, or
 * its load call on literals (`pickle.load(open("cache.pkl", "rb"))`); taken as a value or imported from, it is not.
 */
function deserializerReadable(code: string, at: number, end: number, opened: ReadonlySet<string>): boolean {
  const before = code.slice(code.lastIndexOf('\n', at - 1) + 1, at);
  const after = code.slice(end);
  if (/^\s*import\b/u.test(before) && !/^\s+as\b/u.test(after)) return true;
  if (/^\s*import\s+[\w.]+\s+as\s+$/u.test(before)) return true;
  // Its other members (`pickle.dump`, `pickle.HIGHEST_PROTOCOL`) load nothing.
  if (/^\s*\.\s*[A-Za-z_]\w*/u.test(after) && DESERIALIZER_CALLS.exec(after) === null) return true;
  const call = DESERIALIZER_CALLS.exec(after);
  if (call === null) return false;
  const callEnd = end + call[0].length;
  return readable(code, callEnd - call[0].trim().replace(/^\.\s*/u, '').length, callEnd, 'load', opened);
}

/** Whether the builtin at `at` is one (bare and not shadowed by the file, or off `builtins`/`__builtins__`), not another object's method. */
function isBuiltin(code: string, at: number, name: string, shadowed: ReadonlySet<string>): boolean {
  const before = code.slice(Math.max(0, at - 40), at);
  if (/\b(?:__builtins__|builtins)\s*\.\s*$/u.test(before)) return true;
  return !/\.\s*$/u.test(before) && !shadowed.has(name);
}

/**
 * Each load in `source` (a Python program's text) whose path, module name or text zotbox cannot spell out. Python
 * reads identifiers NFKC-normalized (`ｅｘｅｃ` is exec), so its identifiers are read so too.
 */
export function pythonComputedLoads(source: string): PythonComputedLoad[] {
  // Identifiers only: a fullwidth quote in a string is no quote to Python (review s19k row 4).
  const { code, sourceAt } = identifiersNormalized(pythonLogicalLines(source));
  const lineOf = (at: number) => source.slice(0, sourceAt(at)).split('\n').length - 1;
  // The loads are read with each constant file name as the literal it is (`open(CACHE, "rb")`, over-denial 4).
  // So is a loop's name over literal words as find_spec's or getattr's argument (s25n over-denial 5, s29p over-denial 1).
  const literal = loopNamesWritten(constantsWritten(code, maskedPython(code)), maskedPython(code));
  const fileWide = openedLiterals(literal);
  const bodies = openedWithBodies(literal, maskedPython(literal));
  const opened = (at: number) => new Set([...fileWide, ...bodies.filter((body) => at >= body.start && at < body.end).map((body) => body.name)]);
  const found: Found[] = [...scan(literal, 0, literal.length, { opened, shadowed: shadowedBuiltins(code) })];
  // A lookup by a computed name may take a loader (`getattr(runpy, name)`), and through any module the builtins or sys
  // (`getattr(os, "__built" "ins__")`); where a loader module is in the file it refuses however it is used, elsewhere
  // unless its result goes nowhere that runs it. `__builtins__` is every builtin, exec and eval too; a loader module
  // used as a value hands its loaders on.
  // Strings are text to the import and hook checks (a docstring's `import pdb`, a test for "breakpoint()").
  const text = maskedPython(code);
  // A hook's name among a loop's words the program only reads as text (`for word in ("breakpoint", …)`, s29p over-denial 3).
  const wordLoops = textOnlyLoops(code, text);
  found.push(...computedLookups(literal, maskedPython(literal), LOADER_MODULE.test(code)));
  for (const match of code.matchAll(/\b__builtins__\b/gu)) found.push({ at: match.index, call: '__builtins__' });
  found.push(
    ...loaderModuleValues(code),
    ...codeRunningImports(text),
    ...importHooks(text),
    ...hookNameStrings(code).filter(({ at }) => !wordLoops.some((loop) => at >= loop.start && at < loop.end)),
    ...interpretersOnStdin(code),
    ...reflectedModules(code, text),
    ...codeRunningMentions(text),
  );
  return found.map(({ at, call }) => ({ line: lineOf(at), call }));
}

/**
 * `view` with each identifier NFKC-normalized, and where an offset into the result lies in `view` (a normalized
 * identifier may be longer or shorter than as written; `view` keeps the source's offsets).
 */
function identifiersNormalized(view: string): { code: string; sourceAt: (at: number) => number } {
  let code = '';
  let last = 0;
  const shifts: { from: number; delta: number }[] = [];
  for (const match of view.matchAll(/[\p{ID_Start}_][\p{ID_Continue}]*/gu)) {
    const normalized = match[0].normalize('NFKC');
    if (normalized === match[0]) continue;
    code += view.slice(last, match.index) + normalized;
    last = match.index + match[0].length;
    shifts.push({ from: code.length, delta: last - code.length });
  }
  code += view.slice(last);
  const sourceAt = (at: number) => at + ([...shifts].reverse().find((shift) => shift.from <= at)?.delta ?? 0);
  return { code, sourceAt };
}

/** What the scan needs of the whole file: the names bound to literally opened files at an offset, the builtins the file shadows. */
interface FileFacts {
  readonly opened: (at: number) => ReadonlySet<string>;
  readonly shadowed: ReadonlySet<string>;
}

/** The loads between `from` and `to` of `code`, an f-string's replacement fields read as the code they are. */
function scan(code: string, from: number, to: number, facts: FileFacts): Found[] {
  const found: Found[] = [];
  for (let at = from; at < to; ) {
    const char = code[at]!;
    if (char === '"' || char === "'") {
      const end = Math.min(to, stringEnd(code, at));
      found.push(...stringLoads(code, at, end, facts));
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
    const counted = LOADERS.has(name) || (RUNS_TEXT.has(name) && isBuiltin(code, at, name, facts.shadowed));
    if (counted && !readable(code, at, end, name, facts.opened(at))) found.push({ at, call: name });
    if (DESERIALIZERS.has(name) && !deserializerReadable(code, at, end, facts.opened(at))) found.push({ at, call: name });
    at = end;
  }
  return found;
}

/** What a string literal at `at..end` loads: a loader's name taken by reflection, and an f-string's fields, read as code. */
function stringLoads(code: string, at: number, end: number, facts: FileFacts): Found[] {
  const found: Found[] = [];
  const inner = /^(?:"""|'''|"|')([\s\S]*?)(?:"""|'''|"|')?$/u.exec(code.slice(at, end))?.[1];
  // compile's mode "exec" or "eval" is no builtin taken: those count only where a lookup by name takes them.
  const lookedUp = /\b(?:getattr|__getattribute__|__dict__|vars|globals|locals|builtins|__builtins__)\b[^\n]*$/u.test(code.slice(code.lastIndexOf('\n', at - 1) + 1, at));
  if (inner !== undefined && (LOADERS.has(inner) || (RUNS_TEXT.has(inner) && lookedUp))) found.push({ at, call: code.slice(at, end) });
  // An f-string (`f"…"`, `rf"…"`, `Fr"…"`): each `{…}` field but `{{` is an expression Python runs.
  if (/(?<![\w])[rRbB]?[fF][rRbB]?$/u.test(code.slice(Math.max(0, at - 3), at)))
    for (let index = at + 1; index < end - 1; index++) {
      if (code[index] === '{' && code[index + 1] === '{') {
        index++;
        continue;
      }
      if (code[index] !== '{') continue;
      const close = closingParen(code, index);
      if (close === undefined || close >= end) break;
      found.push(...scan(code, index + 1, close, facts));
      index = close;
    }
  return found;
}
