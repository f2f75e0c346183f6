// JavaScript read as its tokenizer reads it, as far as the readers of program code need: where comments, string
// literals, template literals (and the code in their `${…}`) and regular expression literals begin and end. A regex
// with a quote (`/'/`) or `/*` in it, a `require` inside a template's `${…}`, a comment between a name and its `(`:
// each is what node sees. Pure, no I/O.
import type { Literal } from './inline-program-runs.js';

/** The code with every comment, string, regex and template text blanked (same length, lines kept), and the literals. */
export interface JavaScriptTokens {
  readonly blanked: string;
  readonly literals: readonly Literal[];
}

/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = /(?:^|[^\w$])(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/u;

/** The tokens of `code` (see the head of this file). */
export function javascriptTokens(code: string): JavaScriptTokens {
  // UTF-16 units, as the indices below count them.
  const out = Array.from({ length: code.length }, (_, index) => code.charAt(index));
  const literals: Literal[] = [];
  const blank = (from: number, to: number) => {
    for (let index = from; index < to; index++) if (out[index] !== '\n') out[index] = ' ';
  };
  const scan = (from: number, until: '}' | undefined): number => {
    let depth = 0;
    let index = from;
    while (index < code.length) {
      const c = code[index]!;
      if (until === '}' && c === '}' && depth === 0) return index;
      if (c === '{') depth++;
      else if (c === '}') depth--;
      if (c === '/' && code[index + 1] === '/') {
        const end = code.indexOf('\n', index);
        blank(index, end === -1 ? code.length : end);
        index = end === -1 ? code.length : end;
        continue;
      }
      if (c === '/' && code[index + 1] === '*') {
        const end = code.indexOf('*/', index + 2);
        blank(index, end === -1 ? code.length : end + 2);
        index = end === -1 ? code.length : end + 2;
        continue;
      }
      if (c === '"' || c === "'") {
        const end = stringEnd(code, index, c);
        literals.push({ start: index, end, text: code.slice(index + 1, end - 1), expands: false });
        blank(index + 1, end - 1);
        index = end;
        continue;
      }
      if (c === '`') {
        index = template(index);
        continue;
      }
      if (c === '/' && regexAllowed(code, index)) {
        const end = regexEnd(code, index);
        blank(index + 1, end - 1);
        index = end;
        continue;
      }
      index++;
    }
    return index;
  };
  // A template: its text blanked, each `${…}` read as code (to its closing brace).
  const template = (start: number): number => {
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
        index = scan(index + 2, '}') + 1;
        continue;
      }
      blank(index, index + 1);
      index++;
    }
    const end = Math.min(index + 1, code.length);
    literals.push({ start, end, text: code.slice(start + 1, end - 1), expands });
    return end;
  };
  scan(0, undefined);
  return { blanked: out.join(''), literals: literals.sort((a, b) => a.start - b.start) };
}

/** The index after a string literal's closing quote (a line break ends an unclosed one). */
function stringEnd(code: string, start: number, quote: string): number {
  for (let index = start + 1; index < code.length; index++) {
    if (code[index] === '\\') index++;
    else if (code[index] === quote || code[index] === '\n') return index + 1;
  }
  return code.length;
}

/** Whether a `/` at `index` starts a regular expression: after an operator, an opening bracket, `}` or a keyword. */
function regexAllowed(code: string, index: number): boolean {
  const before = code.slice(Math.max(0, index - 20), index).trimEnd();
  if (before === '') return true;
  // After a value (a name, a number, `)` or `]`) it divides; after `}` (a block's end) and anything else it starts a regex.
  return !/[\w$)\]]/u.test(before[before.length - 1]!) || BEFORE_REGEX.test(before);
}

/** The index after a regular expression literal's closing `/` and flags (a class `[…]` may hold `/`). */
function regexEnd(code: string, start: number): number {
  let inClass = false;
  for (let index = start + 1; index < code.length; index++) {
    const c = code[index];
    if (c === '\\') index++;
    else if (c === '\n') return index;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      let end = index + 1;
      while (end < code.length && /[a-z]/u.test(code[end]!)) end++;
      return end;
    }
  }
  return code.length;
}
