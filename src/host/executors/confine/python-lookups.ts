// Attributes looked up by a name the program computes. Any module's attributes lead to the builtins and to sys
// (session 28: `d = getattr(os, "__built" "ins__")`, then `d["ex" "ec"](text)`), so a lookup by a computed name
// refuses unless its result goes nowhere that runs it. That covers every spelling of one (review s29p row 2): `getattr(m, k)`,
// `vars(m)[k]`, `m.__dict__[k]`, getattr taken as a value (`functools.reduce(getattr, path, os)`), and a namespace
// used as a mapping (`os.__dict__.get(k)`, `vars(os).items()`); attrgetter and inspect's members are reflection
// (python-reflection.ts). Pure; `code` is pythonLogicalLines' view.
import type { Found } from './python-code-runners.js';
import { closingParen, stringEnd } from './python-logical-lines.js';

/** An attribute looked up by name: getattr's or `__getattribute__`'s second argument, a `vars(…)` or `__dict__` key. */
const LOOKUP = /\b(?:getattr|__getattribute__)\s*\(|\b(?:vars\s*\([^()]*\)|__dict__)\s*\[/gu;

/**
 * Attribute names a lookup by a literal name hands on unseen (review s31q rows 2-3): sys, the builtins and the loader
 * and deserializer modules (`getattr(os, "sys")`), the builtins that run text, and the calls that run a program or
 * load a file (`getattr(os, "system")(text)`, which no command reader sees). Such a lookup is read as a computed one.
 */
const HANDED_ON =
  /^(?:sys|modules|builtins|__builtins__|runpy|importlib|imp|zipimport|pkgutil|pickle|cPickle|_pickle|marshal|shelve|dill|cloudpickle|jsonpickle|yaml|exec\w*|eval|compile|__import__|import_module|run_path|run_module|system|popen\w*|spawn\w*|posix_spawnp?|fork\w*|run|call|check_call|check_output|Popen|getoutput|getstatusoutput|startfile|create_subprocess_\w+|load\w*|loads|unsafe_load\w*)$/u;

/** Whether a literal attribute name is one HANDED_ON. */
export function handedOnName(name: string): boolean {
  return HANDED_ON.test(name);
}

/** The builtins whose result is text, a number or a truth value: a lookup printed or measured hands nothing on. */
const INERT_CALLS = ['print', 'str', 'repr', 'len', 'bool', 'isinstance'] as const;

/**
 * Each lookup by a computed name in `code` that may hand its result to something that runs it. Where a loader module
 * is in the file (`loaderModule`), one refuses however it is used. `text` is `code` with strings and comments blanked.
 */
export function computedLookups(code: string, text: string, loaderModule: boolean): Found[] {
  const found: Found[] = [];
  const inertCalls = builtinsUnbound(code, text);
  const file = { inertCalls, loggingPlain: modulePlain(text, 'logging'), jsonPlain: modulePlain(text, 'json') };
  const inert = (at: number, close: number) => !loaderModule && lookupInert(code, text, at, close, file);
  for (const match of code.matchAll(LOOKUP)) {
    const from = match.index + match[0].length;
    // `def __getattribute__(self, name):` is a class's own, read where it is called.
    if (lookupWrittenOut(code, from, match[0].endsWith('(')) || /\bdef\s+$/u.test(code.slice(Math.max(0, match.index - 10), match.index))) continue;
    const close = closingParen(code, from - 1);
    if (close === undefined || !inert(match.index, close)) found.push({ at: match.index, call: match[0].replace(/\s+/gu, '') });
  }
  // getattr taken as a value looks up whatever name it is later given (`reduce(getattr, "a.b".split("."), os)`).
  for (const match of text.matchAll(/(?<![\w.])getattr\b(?!\s*\()|(?<!\bdef\s+)\b__getattribute__\b(?!\s*\()/gu)) found.push({ at: match.index, call: match[0] });
  // A namespace as a mapping: its `.get(k)`, `.items()`, `.values()` or the whole of it handed on is a lookup of any name.
  for (const match of text.matchAll(/(?<![\w.])vars\s*\([^()]+\)|\b__dict__\b/gu)) {
    const end = match.index + match[0].length;
    const after = code.slice(end);
    // A subscript is LOOKUP's; `.update(…)` and `.keys()` hand no attribute on; nor do keywords spread into a string's format.
    if (/^\s*\[/u.test(after) || /^\s*\.\s*(?:update\s*\(|keys\s*\(\s*\))/u.test(after)) continue;
    if (/\.\s*format\s*\(\s*(?:[^()\n]*,\s*)?\*\*\s*$/u.test(code.slice(Math.max(0, match.index - 80), match.index))) continue;
    if (inert(match.index, end - 1) || (!loaderModule && valuesOnlyRead(text, match.index, end, file))) continue;
    found.push({ at: match.index, call: match[0].replace(/\s+/gu, '') });
  }
  return found;
}

/** What lookupInert needs of the whole file. */
interface FileFacts {
  readonly inertCalls: ReadonlySet<string>;
  readonly loggingPlain: boolean;
  readonly jsonPlain: boolean;
}

/**
 * Whether `module` is that module wherever the file names it: every mention but a plain import line (`import logging,
 * os`) and getattr's own takes an attribute of it, so nothing binds the name.
 */
function modulePlain(text: string, module: string): boolean {
  const imports = new RegExp(String.raw`^[ \t]*import[ \t](?![^\n]*\bas[ \t]+${module}\b)[^\n]*$`, 'gmu');
  const lookups = new RegExp(String.raw`\bgetattr\s*\(\s*${module}\s*,`, 'gu');
  return !new RegExp(String.raw`(?<![\w.])${module}\b(?!\s*\.)`, 'u').test(text.replace(imports, '').replace(lookups, ''));
}

/**
 * Whether a namespace at `at..end` is a loop's mapping whose values are only read (review s31q over-denial 2: `for key,
 * value in vars(args).items(): print(key, value)`): `for K, V in NS.items():` or `for V in NS.values():`, and every
 * other mention of V in the file is inert as a lookup's result would be (printed, compared, tested, stored over).
 */
function valuesOnlyRead(text: string, at: number, end: number, file: FileFacts): boolean {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at).replace(/(?:[A-Za-z_]\w*\s*\.\s*)*$/u, '');
  const targets = /^\s*for\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s+in\s+$/u.exec(line);
  const method = /^\s*\.\s*(items|values)\s*\(\s*\)\s*:/u.exec(text.slice(end))?.[1];
  if (targets === null || method === undefined || (method === 'items') !== (targets[2] !== undefined)) return false;
  const value = targets[2] ?? targets[1]!;
  const header = text.lastIndexOf('\n', at - 1) + 1 + line.lastIndexOf(value);
  const mentions = [...text.matchAll(new RegExp(String.raw`(?<![\w.])${value}(?![\w"'])`, 'gu'))].filter((mention) => mention.index !== header);
  return mentions.every((mention) => lookupInert(text, text, mention.index, mention.index + value.length - 1, file));
}

/**
 * The INERT_CALLS that are the builtins in `code`: nothing in the file binds the name (every mention is a call: no
 * `def print`, `print = …`, import, parameter or loop target) and no string is the name (`setattr(m, "print", …)`).
 */
function builtinsUnbound(code: string, text: string): ReadonlySet<string> {
  return new Set(
    INERT_CALLS.filter((name) => !new RegExp(String.raw`(?<![\w.])${name}\b(?!\s*\()|\b(?:def|class)\s+${name}\b`, 'u').test(text) && !new RegExp(String.raw`(["'])${name}\1`, 'u').test(code)),
  );
}

/**
 * Whether a lookup by a computed name at `at` (its bracket closing at `close`) hands its result to nothing that could
 * run it: stored into (`self.__dict__[k] = v`), compared, printed or measured by a builtin the file leaves unbound
 * (`print(opt, getattr(args, opt))`), a logging level (`logging.basicConfig(level=getattr(logging, name))`, which takes
 * only a number or a name), or the whole condition of an `if`, `elif`, `while` or `assert` (`if getattr(args, opt):`).
 * Anywhere else (called, subscripted, an attribute taken, bound to a name, returned, handed to another call, the
 * value of an `and`/`or` that is not a statement's condition: `B = None or getattr(os, k)`, review s29p row 1) the
 * attribute may be a module's loader, the builtins or sys, which no name in the file shows.
 */
function lookupInert(code: string, text: string, at: number, close: number, file: FileFacts): boolean {
  const after = text.slice(close + 1);
  if (/^\s*(?:=(?!=)|==|!=|\bis\b|\bin\b|\bnot\s+in\b)/u.test(after)) return true;
  // For `self.__dict__[k]` and `vars(x)[k]` the expression starts at its owner; strings blanked (a `"print("` is no call).
  const before = text.slice(text.lastIndexOf('\n', at - 1) + 1, at).replace(/(?:[A-Za-z_]\w*\s*\.\s*)*$/u, '');
  const argument = /^\s*[,)]/u.test(after);
  const call = /(?<![\w.])([A-Za-z_]\w*)\s*\(\s*(?:[^()\n]*,\s*)?$/u.exec(before)?.[1];
  if (argument && call !== undefined && file.inertCalls.has(call)) return true;
  if (argument && file.loggingPlain && /^getattr\s*\(\s*logging\s*,/u.test(code.slice(at)) && loggingLevel(text, before)) return true;
  // json.dumps's first argument, on a line with no `default=` or `cls=` (the program's own code given each value), is text.
  if (argument && file.jsonPlain && /\bjson\s*\.\s*dumps?\s*\(\s*$/u.test(before) && !/\b(?:default|cls)\s*=/u.test(lineAt(text, at))) return true;
  // The condition itself: after the keyword or an `and`/`or`/`not` of it, in no bracket (`if f(x or getattr(…) or y):` hands it to f).
  // Up to the statement's own `:`: a one-line body (`if x: B = None or getattr(os, k)`) is no condition (review s31q row 1).
  const condition = /^\s*(?:if|elif|while|assert)\s+(?:[^\n:]*?\b(?:and|or|not)\s+)?$/u.test(before) && depthZero(before);
  return condition && /^\s*(?::|and\b|or\b|$)/mu.test(after);
}

/** Whether `before` ends where a logging level goes: basicConfig's `level=`, or a logger's setLevel the file does not define. */
function loggingLevel(text: string, before: string): boolean {
  if (/\blogging\s*\.\s*basicConfig\s*\((?:[^()\n]*,\s*)?level\s*=\s*$/u.test(before)) return true;
  return /\.\s*setLevel\s*\(\s*$/u.test(before) && !/\bdef\s+setLevel\b/u.test(text);
}

/** The logical line of `text` that holds `at`. */
function lineAt(text: string, at: number): string {
  const end = text.indexOf('\n', at);
  return text.slice(text.lastIndexOf('\n', at - 1) + 1, end === -1 ? text.length : end);
}

/** Whether `text` (strings blanked) closes every bracket it opens. */
function depthZero(text: string): boolean {
  let depth = 0;
  for (const char of text) depth += '([{'.includes(char) ? 1 : ')]}'.includes(char) ? -1 : 0;
  return depth === 0;
}

/** Whether the name a lookup at `from` takes is a literal: getattr's second argument, or the key in `[…]`. */
function lookupWrittenOut(code: string, from: number, call: boolean): boolean {
  const close = closingParen(code, from - 1);
  if (close === undefined) return false;
  const inside = code.slice(from, close);
  const name = call ? inside.slice(splitAt(inside) + 1) : inside;
  const literal = /^\s*[rRuU]?(?:"([^"\\\n{}]*)"|'([^'\\\n{}]*)')\s*(?:,[^,]*)?$/u.exec(name);
  return literal !== null && !handedOnName(literal[1] ?? literal[2] ?? '');
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
