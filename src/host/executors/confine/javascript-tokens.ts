// JavaScript read as its tokenizer reads it, as far as the readers of program code need: where comments, string
// literals, template literals (and the code in their `${…}`) and regular expression literals begin and end. A regex
// with a quote (`/'/`) or `/*` in it, a `require` inside a template's `${…}`, a comment between a name and its `(`:
// each is what node sees. Pure, no I/O.
//
// Whether a `/` divides or starts a regular expression is decided by the token before it, the way the language's
// grammar decides it. Where the text alone cannot tell (a `/` after `}`, which ends a block or an object; after
// `yield`, `await` or `of`, keywords or names; after a `>` that may close TypeScript's type arguments) and where node's
// reading depends on how the file is loaded (`<!--` and a line's leading `-->` are comments in a CommonJS file only),
// the place is reported as ambiguous: a misread `/` would hide the code after it (review s96s).
import type { Literal } from './inline-program-runs.js';

/** The code with every comment, string, regex and template text blanked (same length, lines kept), and the literals. */
export interface JavaScriptTokens {
  readonly blanked: string;
  readonly literals: readonly Literal[];
  /** Where node's reading cannot be told from the text (see the head of this file), with why. */
  readonly ambiguous: readonly { readonly at: number; readonly why: string }[];
}

/** A significant token, as far as the reading of a following `/` needs it. */
interface Token {
  /** 'other': a character no rule here knows (a stray one, one node reads otherwise). */
  readonly kind: 'word' | 'value' | 'punct' | 'other';
  readonly text: string;
  /** A line break stands between it and the token before it. */
  readonly lineBefore: boolean;
  /** For `)`: it closes an `if`, `while`, `for` or `with` head, after which a statement (a regex) starts. */
  readonly closesHead?: boolean;
  /**
   * For `++`, `--` and `!`: whether it is postfix on an operand (on its line), so it ends one too (`x!!`, `a++`), as
   * endsOperand answers (a reason where the text cannot tell).
   */
  readonly postfix?: boolean | string;
}

/** Words after which a `/` starts a regular expression: they take an expression after them and are no value. */
const BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'extends',
  'default',
  'break',
  'continue',
  'debugger',
  'export',
  'import',
]);
/** Words that are a keyword taking an expression in one reading and a name (or TypeScript's `void` type) in another. */
const KEYWORD_OR_NAME = new Set(['yield', 'await', 'of', 'void']);
/** The operators that are postfix after an operand on their line (`!` is TypeScript's non-null assertion). */
const POSTFIX = new Set(['++', '--', '!']);
/** Words whose `(…)` is a statement's head. */
const HEAD_WORDS = new Set(['if', 'while', 'for', 'with']);
const LINE_BREAK = /[\n\r\u2028\u2029]/u;
const PUNCTUATOR = /\.\.\.|>>>=|===|!==|\*\*=|<<=|>>=|>>>|&&=|\|\|=|\?\?=|=>|==|!=|<=|>=|&&|\|\||\?\?|\?\.(?!\d)|\+\+|--|\+=|-=|\*=|%=|&=|\|=|\^=|\*\*|<<|>>|[{}()[\];,<>+\-*%&|^!~?:=.@]/uy;
const NUMBER = /(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?[\d_]+)?)n?/uy;
const NAME_START = /[\p{ID_Start}$_\\#]/uy;
const NAME_PART = /(?:[\p{ID_Continue}$\\]|\u200c|\u200d)*/uy;
const SPACE = /\s+/uy;
/** How deep templates may nest in each other's `${…}` before the reading stops (each level is a call). */
const MAX_NESTING = 256;

/**
 * How the program is read: `typescript`, by a TypeScript runner (its types may end where JavaScript's operators do);
 * `jsx`, by a runner that reads it as JSX (bun reads a `.js` file so), whose text is not JavaScript's.
 */
export interface TokenOptions {
  readonly typescript?: boolean;
  readonly jsx?: boolean;
}

/** The tokens of `code` (see the head of this file). */
export function javascriptTokens(code: string, options: TokenOptions = {}): JavaScriptTokens {
  // UTF-16 units, as the indices below count them.
  const out = Array.from({ length: code.length }, (_, index) => code.charAt(index));
  const literals: Literal[] = [];
  const ambiguous: { at: number; why: string }[] = [];
  const blank = (from: number, to: number) => {
    for (let index = from; index < to; index++) if (!LINE_BREAK.test(out[index]!)) out[index] = ' ';
  };
  const reader: Reader = { code, blank, literals, ambiguous, template: (start) => readTemplate(reader, start), nesting: 0, typescript: options.typescript === true, jsx: options.jsx === true };
  // A #! line is a comment where it opens the file.
  const start = code.startsWith('#!') ? lineEnd(code, 0) : 0;
  blank(0, start);
  readCode(reader, start, undefined);
  return { blanked: out.join(''), literals: literals.sort((a, b) => a.start - b.start), ambiguous };
}

interface Reader {
  readonly code: string;
  readonly blank: (from: number, to: number) => void;
  readonly literals: Literal[];
  readonly ambiguous: { at: number; why: string }[];
  readonly template: (start: number) => number;
  /** How many templates' `${…}` the reading is in. */
  nesting: number;
  readonly typescript: boolean;
  readonly jsx: boolean;
}

/** Reads code from `from` to its end, or to the `}` that closes a template's `${` (its index returned). */
function readCode(reader: Reader, from: number, until: '}' | undefined): number {
  const { code, blank } = reader;
  const state: ReadState = { tokens: [], heads: [], lineBreak: false, depth: 0, typeFrom: undefined, typeNest: 0 };
  let index = from;
  while (index < code.length) {
    const c = code[index]!;
    if (until === '}' && c === '}' && state.depth === 0) return index;
    if (/\s/u.test(c)) {
      SPACE.lastIndex = index;
      const space = SPACE.exec(code)![0];
      if (LINE_BREAK.test(space)) state.lineBreak = true;
      index += space.length;
    } else if (code.startsWith('//', index)) {
      const end = lineEnd(code, index);
      blank(index, end);
      index = end;
    } else if (code.startsWith('/*', index)) {
      const close = code.indexOf('*/', index + 2);
      const end = close === -1 ? code.length : close + 2;
      if (LINE_BREAK.test(code.slice(index, end))) state.lineBreak = true;
      blank(index, end);
      index = end;
    } else index = readToken(reader, state, index);
  }
  return index;
}

interface ReadState {
  /** The last three significant tokens, the latest last. */
  tokens: Token[];
  /** For each open `(`: whether it opens a statement's head. */
  heads: boolean[];
  lineBreak: boolean;
  depth: number;
  /**
   * Whether an `as` or `satisfies` opened a TypeScript type that may still go on: a type takes any word as a name and
   * may end in `?` or `*`, so a `/` after one may divide. `typeNest`: the brackets (`(`, `[`, `{`, `<`) open in it. It
   * ends at a bracket that closes past it, or at `;`, `,`, `=` or a line break outside its brackets (a line that starts
   * with `|`, `&`, `?`, `:`, `=>` or `.` goes on with it).
   */
  typeFrom: number | undefined;
  typeNest: number;
}

/** Reads the token at `index` (no space, no comment) and returns the index after it. */
function readToken(reader: Reader, state: ReadState, index: number): number {
  const { code } = reader;
  const c = code[index]!;
  const push = (kind: Token['kind'], text: string, closesHead?: boolean) => pushToken(state, kind, text, closesHead);
  if (code.startsWith('<!--', index) || (code.startsWith('-->', index) && (state.lineBreak || state.tokens.length === 0)))
    reader.ambiguous.push({ at: index, why: 'an HTML-like comment, which node reads as a comment in a CommonJS file and as operators in an ES module' });
  if (c === '"' || c === "'") {
    const end = stringEnd(code, index, c);
    reader.literals.push({ start: index, end, text: code.slice(index + 1, end - 1), expands: false });
    reader.blank(index + 1, end - 1);
    push('value', c);
    return end;
  }
  if (c === '`') {
    const end = reader.template(index);
    push('value', '`');
    return end;
  }
  if (c === '/') return readSlash(reader, state, index, push);
  NUMBER.lastIndex = index;
  const number = /\d/u.test(c) || (c === '.' && /\d/u.test(code[index + 1] ?? '')) ? NUMBER.exec(code) : null;
  if (number !== null) {
    push('value', number[0]);
    return index + number[0].length;
  }
  // By code point: a name may start with a character outside the BMP (`𝑥`, two UTF-16 units).
  NAME_START.lastIndex = index;
  const start = NAME_START.exec(code)?.[0];
  if (start !== undefined) {
    NAME_PART.lastIndex = index + start.length;
    const end = index + start.length + NAME_PART.exec(code)![0].length;
    push(c === '#' ? 'value' : 'word', code.slice(index, end));
    return end;
  }
  PUNCTUATOR.lastIndex = index;
  const punctuator = PUNCTUATOR.exec(code)?.[0];
  if (punctuator === undefined) {
    const other = String.fromCodePoint(code.codePointAt(index)!);
    push('other', other);
    return index + other.length;
  }
  if (punctuator === '{') state.depth++;
  else if (punctuator === '}') state.depth--;
  if (punctuator === '(') state.heads.push(opensHead(state.tokens));
  // Where JSX is read, a `<` where an operand starts opens an element, whose text follows other rules (review s02y).
  if (reader.jsx && (punctuator === '<' || punctuator === '<<' || punctuator === '<=') && (state.tokens.length === 0 || endsOperand(state.tokens.at(-1)!, state.tokens.at(-2)) !== true))
    reader.ambiguous.push({ at: index, why: 'a "<" where an operand starts: JSX, whose text zotbox does not tell from code' });
  push('punct', punctuator, punctuator === ')' ? (state.heads.pop() ?? false) : undefined);
  return index + punctuator.length;
}

/** Keeps a token as the latest of the last three. */
function pushToken(state: ReadState, kind: Token['kind'], text: string, closesHead?: boolean): void {
  trackType(state, kind, text);
  const [before, last] = [state.tokens.at(-2), state.tokens.at(-1)];
  // Postfix where it follows an operand on its line; a run of them (`x!!`) carries the first one's answer.
  const postfix = kind === 'punct' && POSTFIX.has(text) ? !state.lineBreak && last !== undefined && endsOperand(last, before) : undefined;
  const token = { kind, text, lineBefore: state.lineBreak, ...(closesHead === undefined ? {} : { closesHead }) };
  state.tokens.push(postfix === undefined ? token : { ...token, postfix });
  if (state.tokens.length > 3) state.tokens.shift();
  state.lineBreak = false;
}

/** Whether a `(` after these tokens opens a statement's head (`if (`, `for await (`), not a call of a member so named. */
function opensHead(tokens: readonly Token[]): boolean {
  const [before, last] = [tokens.at(-2), tokens.at(-1)];
  if (last?.kind !== 'word' || before?.text === '.' || before?.text === '?.') return false;
  return HEAD_WORDS.has(last.text) || (last.text === 'await' && before?.text === 'for');
}

/** Reads a `/` (a regex, a division, or an ambiguous place read as a division) and returns the index after it. */
function readSlash(reader: Reader, state: ReadState, index: number, push: (kind: Token['kind'], text: string) => void): number {
  const reading = slashReading(state.tokens, state.lineBreak, reader.typescript && state.typeFrom !== undefined);
  if (reading === 'regex') {
    const { close, end } = regexEnd(reader.code, index);
    reader.blank(index + 1, close);
    push('value', '/');
    return end;
  }
  if (reading !== 'division') reader.ambiguous.push({ at: index, why: reading.ambiguous });
  const operator = reader.code[index + 1] === '=' ? '/=' : '/';
  push('punct', operator);
  return index + operator.length;
}

/** How a `/` after these tokens (`lineBreak`: a line break before it) is read: 'regex', 'division', or why the text cannot tell. */
function slashReading(tokens: readonly Token[], lineBreak: boolean, inType: boolean): 'regex' | 'division' | { readonly ambiguous: string } {
  const [before, last] = [tokens.at(-2), tokens.at(-1)];
  if (last === undefined) return 'regex';
  const typeEnd = typeEnding(last, before, inType);
  if (typeEnd !== undefined) return { ambiguous: typeEnd };
  // After an operand on the same line, `++`, `--` and TypeScript's non-null `!` are postfix: a division follows.
  const postfix = last.postfix !== undefined;
  const operand = endsOperand(last, before);
  // A line that starts with `/` after an operand: where the statement may end there (a declaration with no initializer,
  // a label, an import's module name, a TypeScript type), the language inserts a `;` and a regex follows (review s98u).
  // Only `++` and `--` go on past a line's end; a `!` may end TypeScript's `let y!` (review s02y).
  if (operand === true && lineBreak && !(postfix && last.text !== '!'))
    return { ambiguous: 'a "/" that starts a line after an operand, where a statement may end (a regular expression follows) or the division go on' };
  if (operand === true) return 'division';
  if (operand === false) return 'regex';
  return { ambiguous: `a "/" after "${postfix ? (before?.text ?? '') + last.text : last.text}", ${operand}` };
}

/**
 * Why a `/` after these tokens cannot be told where a TypeScript type may end there and a division follow: any keyword
 * is a type's name after `as` or `satisfies` (`x as return / 2`), and, in a TypeScript type `as` or `satisfies` opened
 * (`inType`), after any word of it (`x as A | delete / 2`) and after `?` or `*` (JSDoc's `number?`, `*`), where
 * JavaScript reads a keyword, a conditional or a product (reviews s02y, s04a).
 */
function typeEnding(last: Token, before: Token | undefined, inType: boolean): string | undefined {
  if (last.kind === 'word' && BEFORE_REGEX.has(last.text) && ((before?.kind === 'word' && (before.text === 'as' || before.text === 'satisfies')) || inType))
    return `a "/" after "${last.text}" in a type \`as\` or \`satisfies\` opened, which may be a TypeScript type (a division follows) or a keyword (a regular expression follows)`;
  if (last.kind === 'punct' && (last.text === '*' || (inType && last.text === '?')))
    return `a "/" after "${last.text}", which may end a TypeScript type (a division follows) or be an operator (a regular expression follows)`;
  return undefined;
}

/** Keeps whether an `as` or `satisfies` type is open (ReadState.typeFrom) as a token is pushed. */
function trackType(state: ReadState, kind: Token['kind'], text: string): void {
  const before = state.tokens.at(-1);
  if (state.typeFrom !== undefined && kind === 'punct') {
    if (['(', '[', '{', '<'].includes(text)) state.typeNest++;
    else if ([')', ']', '}', '>', '>>', '>>>'].includes(text)) state.typeNest -= text.length > 1 && text.startsWith('>') ? text.length : 1;
  }
  const outside = state.typeNest <= 0;
  const continues = kind === 'punct' && ['|', '&', '?', ':', '=>', '.'].includes(text);
  if (state.typeNest < 0 || (outside && ((kind === 'punct' && [';', ',', '='].includes(text)) || (state.lineBreak && !continues)))) state.typeFrom = undefined;
  // `as`, `satisfies` after an operand (not `import { a as b }`'s, which ends at `}` anyway).
  if (kind === 'word' && (text === 'as' || text === 'satisfies') && before !== undefined && endsOperand(before, state.tokens.at(-2)) === true) {
    state.typeFrom = state.heads.length;
    state.typeNest = 0;
  }
}

/** Whether a token ends an operand (after it a `/` divides), does not (a regex follows), or why the text cannot tell. */
function endsOperand(token: Token, before: Token | undefined): boolean | string {
  if (token.kind === 'value') return true;
  // A postfix `++`, `--` or `!` ends the operand it follows; a prefix one starts an expression.
  if (token.postfix !== undefined) return token.postfix;
  if (token.kind === 'other') return 'a character zotbox does not read as JavaScript there';
  if (token.kind === 'word') {
    // A member's name is a name whatever its spelling (`x.return / 2`).
    if (before?.text === '.' || before?.text === '?.') return true;
    if (KEYWORD_OR_NAME.has(token.text)) return 'which is a keyword before a regular expression or a name before a division';
    return !BEFORE_REGEX.has(token.text);
  }
  switch (token.text) {
    case ')':
      return token.closesHead !== true;
    case ']':
      return true;
    case '}':
      return 'which divides after an object or a function expression and starts a regular expression after a block';
    case '>':
    case '>>':
    case '>>>':
      return "which may close TypeScript's type arguments (a division follows) or compare (a regular expression follows)";
    default:
      return false;
  }
}

/** Reads a template: its text blanked, each `${…}` read as code (to its closing brace); returns the index after it. */
function readTemplate(reader: Reader, start: number): number {
  const { code, blank } = reader;
  let index = start + 1;
  let expands = false;
  while (index < code.length && code[index] !== '`') {
    if (code[index] === '\\') {
      blank(index, index + 2);
      index += 2;
      continue;
    }
    if (code[index] === '$' && code[index + 1] === '{') {
      expands = true;
      if (reader.nesting >= MAX_NESTING) {
        reader.ambiguous.push({ at: index, why: `templates nested more than ${MAX_NESTING} deep, past which zotbox does not read` });
        return code.length;
      }
      reader.nesting++;
      index = readCode(reader, index + 2, '}') + 1;
      reader.nesting--;
      continue;
    }
    blank(index, index + 1);
    index++;
  }
  const end = Math.min(index + 1, code.length);
  reader.literals.push({ start, end, text: code.slice(start + 1, end - 1), expands });
  return end;
}

/** The index of the line break that ends the line `from` is on (or the code's end). */
function lineEnd(code: string, from: number): number {
  const next = /[\n\r\u2028\u2029]/gu;
  next.lastIndex = from;
  return next.exec(code)?.index ?? code.length;
}

/** The index after a string literal's closing quote (a line break ends an unclosed one; `\` before one continues it). */
function stringEnd(code: string, start: number, quote: string): number {
  for (let index = start + 1; index < code.length; index++) {
    if (code[index] === '\\') index += code.startsWith('\r\n', index + 1) ? 2 : 1;
    else if (code[index] === quote || code[index] === '\n' || code[index] === '\r') return index + 1;
  }
  return code.length;
}

/** Where a regular expression literal's closing `/` stands and the index after its flags (a class `[…]` may hold `/`). */
function regexEnd(code: string, start: number): { readonly close: number; readonly end: number } {
  let inClass = false;
  for (let index = start + 1; index < code.length; index++) {
    const c = code[index]!;
    if (c === '\\') index++;
    else if (LINE_BREAK.test(c)) return { close: index, end: index };
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      NAME_PART.lastIndex = index + 1;
      return { close: index, end: index + 1 + NAME_PART.exec(code)![0].length };
    }
  }
  return { close: code.length, end: code.length };
}

/** Escapes a string literal's value spells otherwise (`\n`); the rest stand for themselves (`\q` is `q`). */
const ESCAPED: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v' };

/**
 * A string literal's (or a template's) value, its text's escapes spelled out as node reads them: `\xHH`, `\uHHHH`,
 * `\u{H…}`, sloppy mode's octal (`\143`), a line continuation, and an escaped plain character (`"constru\x63tor"` is
 * `constructor`: review s08e).
 */
export function stringValue(text: string): string {
  return text.replace(
    /\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]+)\}|([0-3][0-7]{0,2}|[4-7][0-7]?)|(\r\n|[\n\r\u2028\u2029])|([\s\S]))/gu,
    (written, hex?: string, unit?: string, point?: string, octal?: string, continuation?: string, plain?: string) => {
      if (hex !== undefined || unit !== undefined) return String.fromCharCode(Number.parseInt(hex ?? unit!, 16));
      if (point !== undefined) return Number.parseInt(point, 16) <= 0x10ffff ? String.fromCodePoint(Number.parseInt(point, 16)) : written;
      if (octal !== undefined) return String.fromCharCode(Number.parseInt(octal, 8));
      if (continuation !== undefined) return '';
      return ESCAPED[plain!] ?? plain!;
    },
  );
}
