// Loops over literal strings, whose name is one of the literals wherever nothing else can bind it. Three readers use
// them:
// - find_spec (review s25n over-denial 5: `for mod in ("black", "isort"): find_spec(mod)`);
// - getattr's name (review s29p over-denial 1: `{name: getattr(args, name) for name in ("fix", "strict")}`);
// - a hook's name used only as text (review s29p over-denial 3: `for word in ("breakpoint", "set_trace"): if word + "("
//   in text`).
// Only those arguments are rewritten as literals (as constantsWritten in python-code-runners.ts does), so every
// other loader given the name still refuses it. Pure.
import { handedOnName } from './python-lookups.js';

/** String literals of plain words (no dunder, no concatenation), in a tuple, a list or bare. */
const LITERALS = String.raw`[([]?(?:[ \t]*[rRuU]?(?:"[A-Za-z]\w*"|'[A-Za-z]\w*')[ \t]*,)*[ \t]*[rRuU]?(?:"[A-Za-z]\w*"|'[A-Za-z]\w*')[ \t]*,?[ \t]*[)\]]?`;
/** `for NAME in ("a", "b"):` on a line of its own. */
const LOOP_HEADER = new RegExp(String.raw`^[ \t]*for[ \t]+([A-Za-z_]\w{2,})[ \t]+in[ \t]+${LITERALS}[ \t]*:`, 'gmu');
/** `NAME = ("a", "b")` at the top level, and `for WORD in NAME:` (review s31q over-denial 4: `DEBUG_CALLS`). */
const CONSTANT = new RegExp(String.raw`^([A-Za-z_]\w*)[ \t]*=[ \t]*${LITERALS}[ \t]*$`, 'gmu');
const CONSTANT_LOOP = /^[ \t]*for[ \t]+([A-Za-z_]\w{2,})[ \t]+in[ \t]+([A-Za-z_]\w*)[ \t]*:/gmu;
/** `for NAME in ("a", "b")` inside a comprehension's brackets. */
const COMPREHENSION_FOR = new RegExp(String.raw`\bfor[ \t]+([A-Za-z_]\w{2,})[ \t]+in[ \t]+${LITERALS}(?=[ \t]*(?:[)\]}]|\bif\b))`, 'gu');

/** A loop's name and its mentions outside its header. */
interface LiteralLoop {
  readonly name: string;
  /** Where its header lies (the literals are inside). */
  readonly start: number;
  readonly end: number;
  readonly mentions: readonly number[];
  /** Whether a word is one a literal getattr may not take unseen (`("system",)`: python-lookups.ts). */
  readonly handsOn: boolean;
}

/** Whether any word among a loop's literals is one HANDED_ON. */
const handsOn = (header: string) => [...header.matchAll(/["']([A-Za-z]\w*)["']/gu)].some((word) => handedOnName(word[1]!));

/**
 * The statement loops over literal plain words whose name nothing can bind by text: no `__main__`, exec, eval or
 * compile in the file, and no string that is the name (`setattr(module, "mod", …)`). Every other binding (an
 * assignment, a walrus, a parameter, a second loop, a global) is a mention, which each reader below refuses. `text` is
 * the code with strings and comments blanked (f-string fields kept).
 */
function literalLoops(code: string, text: string): LiteralLoop[] {
  if (/\b(?:__main__|exec|eval|compile)\b/u.test(text)) return [];
  const loops = [...code.matchAll(LOOP_HEADER)]
    .filter((header) => !namedByString(code, header[1]!))
    .map((header) => ({ ...loopOf(text, header), start: header.index, end: header.index + header[0].length, handsOn: handsOn(header[0]) }));
  return [...loops, ...constantLoops(code, text)];
}

/**
 * Loops over a top-level constant of literal plain words whose one other mention is that loop's iterable: nothing
 * rebinds, extends or hands on the constant (a second binding, a `global`, a string that is its name is a mention).
 * Their words lie on the constant's line.
 */
function constantLoops(code: string, text: string): LiteralLoop[] {
  const loops: LiteralLoop[] = [];
  for (const constant of code.matchAll(CONSTANT)) {
    const name = constant[1]!;
    if (!text.startsWith(name, constant.index) || namedByString(code, name)) continue;
    const others = mentionsOf(text, name).filter((at) => at !== constant.index);
    const header = [...code.matchAll(CONSTANT_LOOP)].find((loop) => loop[2] === name && loop.index + loop[0].lastIndexOf(name) === others[0]);
    if (others.length !== 1 || header === undefined || namedByString(code, header[1]!)) continue;
    loops.push({ ...loopOf(text, header), start: constant.index, end: constant.index + constant[0].length, handsOn: handsOn(constant[0]) });
  }
  return loops;
}

/** A `for` header's name and its mentions besides the header's. */
function loopOf(text: string, header: RegExpMatchArray & { index: number }): { name: string; mentions: number[] } {
  const name = header[1]!;
  const nameAt = header.index + header[0].indexOf(name, header[0].indexOf('for') + 3);
  return { name, mentions: mentionsOf(text, name).filter((at) => at !== nameAt) };
}

/** Where `name` is mentioned as code in `text` (an f-string's prefix `f"` is none). */
const mentionsOf = (text: string, name: string) => [...text.matchAll(new RegExp(String.raw`(?<![\w.])${name}(?![\w"'])`, 'gu'))].map((mention) => mention.index);

/** Whether a string in `code` is `name` (`setattr(module, "mod", …)` binds it unseen). */
const namedByString = (code: string, name: string) => new RegExp(String.raw`(["'])${name}\1`, 'u').test(code);

/**
 * `code` with a literal of its length for each find_spec or getattr argument that is a loop's name over literal plain
 * words: in a statement loop where every other mention is read as text (textUse), and anywhere in a comprehension
 * with one `for` and no lambda (its name is bound there alone: a walrus cannot rebind it). Names under three
 * characters stay names.
 */
export function loopNamesWritten(code: string, text: string): string {
  let written = code;
  const write = (at: number, name: string) => {
    written = `${written.slice(0, at)}"${'x'.repeat(name.length - 2)}"${written.slice(at + name.length)}`;
  };
  for (const loop of literalLoops(code, text)) {
    const asked = loop.mentions.filter((at) => loaderArgument(text, at, loop.name, loop.handsOn));
    if (asked.length > 0 && loop.mentions.every((at) => asked.includes(at) || textUse(text, at, loop.name))) for (const at of asked) write(at, loop.name);
  }
  // Read in `code` (its literals are blanked in `text`), where `text` shows it is code, not a string's words.
  for (const clause of code.matchAll(COMPREHENSION_FOR)) {
    const name = clause[1]!;
    const open = text.startsWith('for', clause.index) ? openingBracket(text, clause.index) : undefined;
    const close = open === undefined ? undefined : closingBracket(text, open);
    if (open === undefined || close === undefined) continue;
    const body = text.slice(open, close);
    if ((body.match(/\bfor\b/gu) ?? []).length !== 1 || /\blambda\b/u.test(body) || new RegExp(String.raw`(["'])${name}\1`, 'u').test(code.slice(open, close))) continue;
    for (const mention of body.matchAll(new RegExp(String.raw`(?<![\w.])${name}(?![\w"'])`, 'gu')))
      if (loaderArgument(text, open + mention.index, name, handsOn(clause[0]))) write(open + mention.index, name);
  }
  return written;
}

/**
 * The header ranges of statement loops over literal plain words whose name is only read as text (textUse): a hook's
 * name among them (`"breakpoint"`) is a word the program looks for, not the hook taken by reflection.
 */
export function textOnlyLoops(code: string, text: string): { readonly start: number; readonly end: number }[] {
  return literalLoops(code, text).filter((loop) => loop.mentions.length > 0 && loop.mentions.every((at) => textUse(text, at, loop.name)));
}

/**
 * Whether the name at `at` is find_spec's sole argument or getattr's second (not a `def find_spec(name)` parameter;
 * getattr's only where no word of the loop is one a literal lookup may not take: `handsOn`).
 */
function loaderArgument(text: string, at: number, name: string, handsOn: boolean): boolean {
  const before = text.slice(Math.max(0, at - 80), at);
  const after = text.slice(at + name.length);
  if (/\bfind_spec\s*\(\s*$/u.test(before) && !/\bdef\s+find_spec\s*\(\s*$/u.test(before)) return /^\s*\)/u.test(after);
  return !handsOn && /(?<![\w.])getattr\s*\(\s*[A-Za-z_][\w.]*\s*,\s*$/u.test(before) && /^\s*[,)]/u.test(after);
}

/**
 * Whether the name at `at` is read as text and bound by nothing: an f-string field of its own (`{word}`), or compared,
 * alone or joined to a literal that is not empty (`word == x`, `word + "(" in text`, `x in word`).
 */
function textUse(text: string, at: number, name: string): boolean {
  const before = text.slice(Math.max(0, at - 10), at);
  const after = text.slice(at + name.length);
  if (/\{\s*$/u.test(before)) return /^\s*(?:![rsa])?\s*\}/u.test(after);
  // Joined to a literal only to be compared: the joined name (`word + "hook"`) may be another hook's.
  if (/^\s*\+\s*[rRuU]?(?:"[^"\n]+"|'[^'\n]+')\s*(?:==|!=|in\b|not\s+in\b)/u.test(after)) return true;
  // `for word in …` binds it: a loop's target is no comparison.
  if (/\bfor\b[^\n:]*$/u.test(text.slice(text.lastIndexOf('\n', at - 1) + 1, at))) return false;
  return /^\s*(?:==|!=|in\b|not\s+in\b)/u.test(after) || /(?:==|!=|\bin|\bnot\s+in)\s*$/u.test(before);
}

/** The offset of the bracket that opens the innermost group holding `at`; undefined at the top level. */
function openingBracket(text: string, at: number): number | undefined {
  let depth = 0;
  for (let index = at - 1; index >= 0; index--) {
    const char = text[index]!;
    if (')]}'.includes(char)) depth++;
    else if ('([{'.includes(char) && depth-- === 0) return index;
  }
  return undefined;
}

/** The offset of the bracket that closes the one at `open` (strings blanked in `text`). */
function closingBracket(text: string, open: number): number | undefined {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index]!;
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char) && --depth === 0) return index;
  }
  return undefined;
}
