// What a JavaScript program keeps of a loader, a runner or a reflection as a VALUE, where zotbox no longer follows it:
// createRequire's require, fork and Worker, child_process's runners, Reflect's members, the process object and its main Module. Each is read
// by where it stands (a call, `new NAME(`, a shorthand in a pattern): any other use refuses (closed world, review
// s08e rows 3-5 and 8). Read on blanked code (javascript-tokens.ts) with optional chaining spelled plain. Pure.
import type { Literal } from './inline-program-runs.js';

/** `const|let|var NAME = [recv.]createRequire(…)` ending its statement: the one binding of its require zotbox follows. */
export const REQUIRE_ALIAS = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:require|(?:(?:[\w$.]+|require\s*\([^()]*\))\s*\.\s*)?createRequire\s*\([^()]*(?:\([^()]*\)[^()]*)*\))\s*(?:;|$)/gmu;

/** The process object's members a destructuring or an import may take (none reaches a loader or the main Module). */
const PROCESS_MEMBERS = new Set([
  'env',
  'argv',
  'argv0',
  'cwd',
  'exit',
  'exitCode',
  'platform',
  'arch',
  'pid',
  'ppid',
  'stdout',
  'stderr',
  'stdin',
  'execPath',
  'version',
  'versions',
  'hrtime',
  'nextTick',
  'on',
  'once',
  'emitWarning',
  'uptime',
  'memoryUsage',
  'chdir',
  'kill',
  'title',
]);

/** child_process's and execa's runners by name (program-process-calls.ts reads their calls, not their values). */
const PROCESS_RUNNERS = /(?<![\w$#])(?:exec|execSync|execFile|execFileSync|spawn|spawnSync|execa|execaSync|execaCommand|execaCommandSync|execaNode)(?![\w$])/gu;
/** What callAliases reads before a runner bound to a name: `x = `, `const x = recv.`, `x = util.promisify(`. */
const ALIAS_HEAD = /(?:^|[\s;])(?:(?:const|let|var)\s+)?[A-Za-z_$][\w$]*\s*=\s*(?:(?:util\s*\.\s*)?promisify\s*\(\s*)?(?:[\w$]+(?:\s*\(\s*["'][^"']*["']\s*\))?\s*\.\s*)?$/u;

/** Whether the list holding the name at `at` is taken from child_process, execa or zx (`} = require("…")`, `} from "…"`). */
function fromProcessModule(blanked: string, literals: readonly Literal[], at: number): boolean {
  const tail = /^[^{}]*\}\s*(?:=\s*(?:await\s+)?(?:require|import)\s*\(\s*|from\s*)(?=["'])/u.exec(blanked.slice(at, at + 400));
  if (tail === null) return false;
  const quote = at + tail[0].length;
  const literal = literals.find((each) => each.start === quote);
  return literal !== undefined && !literal.expands && /^(?:node:)?(?:child_process|execa|zx)$/u.test(literal.text);
}

/** Reflect's members that read no member's value and write none (`Reflect.has`, `Reflect.ownKeys`). */
const REFLECT_HARMLESS = /^\s*\.\s*(?:has|ownKeys|getPrototypeOf|isExtensible)\s*\(/u;

/** The index of the `)` closing the `(` at `open`, or -1. */
function closeOf(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && --depth === 0) return index;
  }
  return -1;
}

/** Whether the word at `at` (`length` long) is a shorthand name in a pattern or an import list (`{ a, NAME }`). */
function shorthand(blanked: string, at: number, length: number): boolean {
  return /[{,]\s*$/u.test(blanked.slice(Math.max(0, at - 200), at)) && /^\s*[,}]/u.test(blanked.slice(at + length, at + length + 200));
}

/** Names a destructuring list takes (`{ a, b: c }`: a and b, the keys), or undefined where one is no plain name. */
function listKeys(list: string): string[] | undefined {
  const keys = list
    .split(',')
    .map((part) => part.split(/:|\bas\b/u)[0]!.trim())
    .filter((key) => key !== '');
  return keys.every((key) => /^[A-Za-z_$][\w$]*$/u.test(key)) ? keys : undefined;
}

/** The indices of the uses that refuse (see the head of this file). */
export function runnerValueUses(blanked: string, literals: readonly Literal[]): number[] {
  const found: number[] = [];
  const before = (at: number) => blanked.slice(Math.max(0, at - 200), at);
  const after = (at: number) => blanked.slice(at, at + 200);
  // createRequire's require: called at once (`createRequire(x)(y)`, `.resolve(`), or bound by exactly REQUIRE_ALIAS.
  const aliased = new Set([...blanked.matchAll(REQUIRE_ALIAS)].map((match) => match.index + match[0].search(/(?<![\w$])createRequire(?![\w$])/u)));
  for (const match of blanked.matchAll(/(?<![\w$#])createRequire(?![\w$])/gu)) {
    if (shorthand(blanked, match.index, match[0].length)) continue;
    const open = match.index + match[0].length + (/^\s*/u.exec(after(match.index + match[0].length))?.[0].length ?? 0);
    const close = blanked[open] === '(' ? closeOf(blanked, open) : -1;
    if (close === -1) {
      found.push(match.index);
      continue;
    }
    if (/^\s*(?:\(|\.\s*resolve(?![\w$]))/u.test(after(close + 1)) || aliased.has(match.index)) continue;
    found.push(match.index);
  }
  // A name bound to that require: each use is a call or `.resolve` (`q = r`, `{ r }`, `f(r)` hand it on).
  for (const match of blanked.matchAll(REQUIRE_ALIAS)) {
    const name = match[1]!.replace(/\$/gu, '\\$');
    const binding = match.index + match[0].indexOf(match[1]!, match[0].search(/\s/u));
    for (const use of blanked.matchAll(new RegExp(String.raw`(?<![\w$.#])${name}(?![\w$])`, 'gu')))
      if (use.index !== binding && !/^\s*(?:\(|\.\s*resolve(?![\w$]))/u.test(after(use.index + use[0].length))) found.push(use.index);
  }
  // fork and Worker: called, `new (…Worker)(` (loadCalls reads both), or a shorthand in a pattern or an import list.
  for (const match of blanked.matchAll(/(?<![\w$#])(?:fork|Worker)(?![\w$])/gu))
    if (!shorthand(blanked, match.index, match[0].length) && !(match[0] === 'Worker' ? /^\s*\)?\s*\(/u : /^\s*\(/u).test(after(match.index + match[0].length))) found.push(match.index);
  // child_process's and execa's runners: called (`NAME(`, `recv.NAME(`), a declaration's own name, a shorthand in a
  // pattern or an import list, or bound as program-process-calls.ts' callAliases reads it (`{ NAME: x } =
  // require("node:child_process")`, `import { NAME as x } from …`, `const x = cp.NAME;`, `const x = promisify(NAME);`).
  // Any other use hands the runner on where no command is read (`{ node: cp.execFileSync }`, `.call(`, `[cp.spawn]`,
  // `promisify(cp.execFile)(…)`: review s15i).
  for (const match of blanked.matchAll(PROCESS_RUNNERS)) {
    const at = match.index;
    const rest = after(at + match[0].length);
    if (/^\s*\(/u.test(rest) || shorthand(blanked, at, match[0].length) || /\b(?:const|let|var)\s+$/u.test(before(at))) continue;
    if (/^\s*(?::|\bas\b)\s*[A-Za-z_$][\w$]*\s*[,}]/u.test(rest) && /[{,]\s*$/u.test(before(at)) && fromProcessModule(blanked, literals, at)) continue;
    if (ALIAS_HEAD.test(before(at)) && /^\s*\)?\s*(?:\.\s*bind\s*\([^()]*\))?[ \t]*(?:;|\n|$)/u.test(rest)) continue;
    found.push(at);
  }
  // Reflect: only its members that read and write no member's value, called.
  for (const match of blanked.matchAll(/(?<![\w$#])Reflect(?![\w$])/gu)) if (!REFLECT_HARMLESS.test(after(match.index + match[0].length))) found.push(match.index);
  // The main Module: `mainModule` as any word (a member, a key, a destructured name), `require.main` but compared to
  // `module` (its `.load(file)` runs a file: the main Module is not yet loaded).
  for (const match of blanked.matchAll(/(?<![\w$])mainModule(?![\w$])/gu)) found.push(match.index);
  for (const match of blanked.matchAll(/(?<![\w$#])require\s*\.\s*main(?![\w$])/gu))
    if (!/^\s*[!=]==?\s*module(?![\w$.])/u.test(after(match.index + match[0].length)) && !/(?<![\w$.])module\s*[!=]==?\s*$/u.test(before(match.index))) found.push(match.index);
  // The process object kept as a value (`const p = process`, `f(process)`, `{ mainModule } = process`): but its
  // members, a key, its own declaration or import, and a destructuring of PROCESS_MEMBERS.
  for (const match of blanked.matchAll(/(?<![\w$#.])(?:(?:globalThis|global)\s*\.\s*)?process(?![\w$])/gu)) {
    const rest = after(match.index + match[0].length);
    const head = before(match.index);
    if (/^\s*(?:\.\s*[A-Za-z_$]|:(?!:))/u.test(rest) || /(?:\b(?:const|let|var|import)\s+|\btypeof\s+)$/u.test(head)) continue;
    const destructured = /\b(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*$/u.exec(head);
    const keys = destructured === null ? undefined : listKeys(destructured[1]!);
    if (keys?.every((key) => PROCESS_MEMBERS.has(key)) === true && /^\s*(?:;|\n|$)/u.test(rest)) continue;
    found.push(match.index);
  }
  // node:process taken as a module: bound to the name process (read above), or destructured into PROCESS_MEMBERS.
  for (const literal of literals) {
    if (!/^(?:node:)?process$/u.test(literal.text) || !/(?:\brequire|\bimport|\bfrom)\s*\(?\s*$/u.test(before(literal.start))) continue;
    const head = before(literal.start);
    if (/(?:\bimport\s+process\s+from|\b(?:const|let|var)\s+process\s*=\s*require\s*\()\s*$/u.test(head)) continue;
    const list = /(?:\bimport\s*\{([^{}]*)\}\s*from|\b(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*require\s*\()\s*$/u.exec(head);
    const keys = list === null ? undefined : listKeys(list[1] ?? list[2]!);
    if (keys?.every((key) => PROCESS_MEMBERS.has(key)) !== true) found.push(literal.start);
  }
  return found;
}
