// A computed key in an object literal or a destructuring pattern (`{ [k]: F }`), wherever it stands: nested in an
// array pattern (`const [{ [k]: F }] = [run]`), in an outer pattern (`{ a: { [k]: F } } = …`), in an assignment's
// (`[{ [k]: F }] = [run]`). In a pattern the key READS the member (`constructor`: any function's Function); in an
// object literal it only writes one. Closed world (review s08e row 1): the key refuses unless it is no computed text
// or its object is surely an expression (and the program names no environment). Read on blanked code (javascript-tokens.ts). Pure.

/** The index of the `]` closing the `[` at `open` (nested), or -1. */
function closeOf(code: string, open: number, opener: string, closer: string): number {
  let depth = 0;
  for (let index = open; index < code.length; index++) {
    if (code[index] === opener) depth++;
    else if (code[index] === closer && --depth === 0) return index;
  }
  return -1;
}

/** The index of the innermost bracket (`(`, `[`, `{`) left open before `at`, or -1. */
function enclosingBracket(code: string, at: number): number {
  let depth = 0;
  for (let index = at - 1; index >= 0; index--) {
    const c = code[index]!;
    if (c === ')' || c === ']' || c === '}') depth++;
    else if ((c === '(' || c === '[' || c === '{') && depth-- === 0) return index;
  }
  return -1;
}

const CLOSER: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/** Whether the `(` at `open` groups an expression or opens a call's arguments: no statement's head, no parameter list. */
function parenthesizedExpression(code: string, open: number): boolean {
  if (/\b(?:for|catch|function\s*\*?\s*[\w$]*|if|while|switch|with)\s*$/u.test(code.slice(Math.max(0, open - 80), open))) return false;
  const close = closeOf(code, open, '(', ')');
  return close !== -1 && !/^\s*(?:=>|\{|:)/u.test(code.slice(close + 1, close + 200));
}

/**
 * Whether the object literal whose `{` is at `brace` is surely an expression: the outermost object or array literal
 * it is nested in (through `,`, `:`, `?`, `[`, `{`, `...`) follows a single `=`, `return` or a call's or a group's
 * `(`, and no `=`, `of` or `in` follows it (then it is a pattern: `({ [k]: F } = run)`, `x = [{ [k]: F }] = [run]`).
 */
function surelyExpression(code: string, brace: number): boolean {
  let container = brace;
  for (let step = 0; step < 64 && /(?:[,[{:?]|\.\.\.)\s*$/u.test(code.slice(Math.max(0, container - 200), container)); step++) {
    const outer = enclosingBracket(code, container);
    if (outer === -1 || code[outer] === '(')
      return outer !== -1 && parenthesizedExpression(code, outer) && !/^\s*=(?![=>])/u.test(code.slice(closeOf(code, container, code[container]!, CLOSER[code[container]!]!) + 1));
    container = outer;
  }
  const close = closeOf(code, container, code[container]!, CLOSER[code[container]!]!);
  if (close === -1 || /^\s*(?:=(?![=>])|(?:of|in)(?![\w$]))/u.test(code.slice(close + 1, close + 200))) return false;
  const before = code.slice(Math.max(0, container - 200), container);
  if (/(?:(?<![=!<>])=|(?<![\w$.#])return)\s*$/u.test(before)) return true;
  return /\(\s*$/u.test(before) && parenthesizedExpression(code, before.trimEnd().length - 1 + Math.max(0, container - 200));
}

/**
 * Whether a TypeScript key is a mapped type's (`[K in keyof T]`, `[K in "a" | "b"]`, `[P in keyof T as X]`): `NAME in`
 * a type with no operator of an expression (`&&`, `||`, `??`, a call, `?` before an `as`). In JavaScript `[k in o &&
 * k]:` is a computed key, `in` binding tighter than `&&` (review s15i row 3), so there no key is skipped.
 */
function mappedTypeKey(key: string): boolean {
  const mapped = /^\s*[A-Za-z_$][\w$]*\s+in\s+([\s\S]*)$/u.exec(key);
  if (mapped === null) return false;
  const [type = '', as] = mapped[1]!.split(/\sas\s/u);
  return !/&&|\|\||\?\?|\(|\?/u.test(type) && (as === undefined || !/&&|\|\||\?\?/u.test(as));
}

/** The environment named: `process.env`, an `env` option or binding, or the process object indexed by a computed key. */
const ENVIRONMENT = /(?<![\w$])env(?![\w$])|\bprocess\s*\[/u;

/**
 * Where a computed key (`[…]:` after `{` or `,` in braces) refuses: its key not `safe` (a literal naming no runner, a
 * number, a name bound once to such literals) and its object not surely an expression. TypeScript's index signatures
 * (`[key: string]:`) and, in a TypeScript program, mapped types (`[K in keyof T]:`) are no keys.
 */
export function computedObjectKeys(blanked: string, safe: (open: number, close: number) => boolean, typescript = false): number[] {
  const found: number[] = [];
  // Where the program reaches the environment, an object literal may become one (`Object.assign(process.env, {…})`,
  // a child's `env: {…}`), and a computed key there may write NODE_OPTIONS: even its writes refuse.
  const writesMayRun = ENVIRONMENT.test(blanked);
  for (const match of blanked.matchAll(/[{,]\s*\[/gu)) {
    const open = match.index + match[0].length - 1;
    const close = closeOf(blanked, open, '[', ']');
    if (close === -1 || !/^\s*:(?!:)/u.test(blanked.slice(close + 1, close + 200))) continue;
    const key = blanked.slice(open + 1, close);
    if (/^\s*[A-Za-z_$][\w$]*\s*\??:/u.test(key) || (typescript && mappedTypeKey(key))) continue;
    const brace = enclosingBracket(blanked, open);
    if (brace === -1 || blanked[brace] !== '{' || safe(open, close) || (!writesMayRun && surelyExpression(blanked, brace))) continue;
    found.push(open);
  }
  return found;
}
