// The string literals of a file of program code, and its skeleton: the code with comments and literal texts blanked
// (same length, same lines), so a call is matched only where it is code, never inside a string or a comment. Read by
// pattern, not by each language's grammar: a comment is only taken where the language surely has one. Pure.
import type { ProgramLanguage } from './inline-program-runs.js';

/** One piece of a literal: text as written (escapes spelled out), or a value spliced in (`${x}`, f"{x}", Perl's "$x"). */
export type LiteralPart = { readonly text: string } | { readonly expression: string; readonly start: number };

export interface Literal {
  readonly end: number;
  readonly parts: readonly LiteralPart[];
  /** Its quote: `'`, `"` or a backquote. */
  readonly quote: string;
}

/** The end of a `${…}`/`{…}`/`#{…}` splice whose "{" is at `at`: the index of its closing brace. */
function braceEnd(code: string, at: number): number {
  let depth = 0;
  for (let index = at; index < code.length; index++) {
    if (code[index] === '{') depth++;
    else if (code[index] === '}' && --depth === 0) return index;
  }
  return code.length;
}

/** A quoted literal at `at` ("…", '…', `…`, with a Python prefix before it): its end and its parts. */
export function literalAt(code: string, at: number, language?: ProgramLanguage): Literal | undefined {
  const prefix = language === 'perl' || language === 'ruby' ? '' : (/^[rRbBuUfF]{1,2}(?=["'])/u.exec(code.slice(at))?.[0] ?? '');
  if (prefix !== '' && /[\w$]/u.test(code[at - 1] ?? '')) return undefined;
  const quote = code[at + prefix.length];
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  const raw = /[rR]/u.test(prefix);
  const formatted = /[fF]/u.test(prefix);
  // Perl and Ruby splice values into "…" and `…` ($x, @x, ${…}; #{…}); JavaScript into `…` (${…}); Python f"…" ({…}).
  const perlish = quote !== "'" && (language === 'perl' || language === 'ruby' || language === undefined) && quote !== '`';
  const perlBackquote = quote === '`' && (language === 'perl' || language === 'ruby');
  const parts: LiteralPart[] = [];
  let text = '';
  const splice = (expression: string, start: number) => {
    if (text !== '') parts.push({ text });
    text = '';
    parts.push({ expression, start });
  };
  for (let index = at + prefix.length + 1; index < code.length; index++) {
    const c = code[index]!;
    if (c === quote) {
      if (text !== '') parts.push({ text });
      return { end: index + 1, parts, quote };
    }
    if (c === '\n' && quote !== '`' && language !== 'perl' && language !== 'ruby') return undefined;
    if (c === '\\' && !raw) {
      const next = code[++index] ?? '';
      if (quote === "'" && (language === 'perl' || language === 'ruby') && next !== "'" && next !== '\\') text += '\\';
      text += quote === "'" && (language === 'perl' || language === 'ruby') ? next : ({ n: '\n', t: '\t', r: '\r', '0': '\0' }[next] ?? next);
    } else if (quote === '`' && c === '$' && code[index + 1] === '{' && !perlBackquote) {
      const end = braceEnd(code, index + 1);
      splice(code.slice(index + 2, end), index + 2);
      index = end;
    } else if (formatted && c === '{' && code[index + 1] !== '{') {
      const end = braceEnd(code, index);
      splice(code.slice(index + 1, end).replace(/![rsa]$|:[^}]*$/u, ''), index + 1);
      index = end;
    } else if (formatted && (c === '{' || c === '}') && code[index + 1] === c) {
      text += c;
      index++;
    } else if ((perlish || perlBackquote) && language !== 'ruby' && language !== undefined && /[$@]/u.test(c) && /[\w{]/u.test(code[index + 1] ?? '')) {
      // Perl's "$cmd", "${cmd}", "@args": the variable's value.
      const name = /^[$@](?:\{\s*(\w+)\s*\}|(\w+))/u.exec(code.slice(index));
      if (name === null) text += c;
      else {
        splice(c + (name[1] ?? name[2] ?? ''), index);
        index += name[0].length - 1;
      }
    } else if ((perlish || perlBackquote) && language !== 'perl' && c === '#' && code[index + 1] === '{') {
      const end = braceEnd(code, index + 1);
      splice(code.slice(index + 2, end), index + 2);
      index = end;
    } else text += c;
  }
  return undefined;
}

/** A literal's text with each spliced value as `stand` (the shell reading's "$(computed)"). */
export const literalText = (literal: Literal, stand: string) => literal.parts.map((part) => ('text' in part ? part.text : stand)).join('');

/** Whether a comment starts at `index`: `//` and `/* … *\/` in JavaScript, `#` in Python, Perl and Ruby (after a space). */
function commentAt(code: string, index: number, language: ProgramLanguage | undefined): number | undefined {
  const c = code[index];
  if (language === 'node' && c === '/' && code[index + 1] === '/') return code.indexOf('\n', index) === -1 ? code.length : code.indexOf('\n', index);
  if (language === 'node' && c === '/' && code[index + 1] === '*') return code.indexOf('*/', index + 2) === -1 ? code.length : code.indexOf('*/', index + 2) + 2;
  // Perl's POD (`=head1` … `=cut`) and Ruby's `=begin` … `=end` are documentation; `__END__` ends the code of either.
  const lineStart = index === 0 || code[index - 1] === '\n';
  if (lineStart && (language === 'perl' || language === 'ruby') && /^__(?:END|DATA)__\b/u.test(code.slice(index, index + 8))) return code.length;
  if (lineStart && (language === 'perl' || language === 'ruby') && c === '=' && /[A-Za-z]/u.test(code[index + 1] ?? '')) {
    const end = new RegExp(language === 'perl' ? String.raw`\n=cut\b[^\n]*` : String.raw`\n=end\b[^\n]*`, 'u').exec(code.slice(index));
    return end === null ? code.length : index + end.index + end[0].length;
  }
  // Perl's `$#array` and a `#` inside a word are no comment; Python's `#` always is.
  const perlish = (language === 'perl' || language === 'ruby') && /(?:^|[\s;(){}])$/u.test(code.slice(Math.max(0, index - 1), index));
  if (c === '#' && (language === 'python' || perlish)) return code.indexOf('\n', index) === -1 ? code.length : code.indexOf('\n', index);
  return undefined;
}

/** Spaces for each UTF-16 unit but line ends (offsets stay those of the code). */
const blank = (text: string) =>
  text
    .split('\n')
    .map((line) => ' '.repeat(line.length))
    .join('\n');

/**
 * `code` with its comments blanked (`clean`), and with its literals' texts blanked too (`skeleton`: the quotes and
 * spliced expressions stay), both the length of `code`. Where the language is unknown no comment is taken: more is read.
 */
export function codeSkeleton(code: string, language: ProgramLanguage | undefined): { clean: string; skeleton: string } {
  let clean = '';
  let skeleton = '';
  for (let index = 0; index < code.length; index++) {
    const comment = commentAt(code, index, language);
    if (comment !== undefined) {
      clean += blank(code.slice(index, comment));
      skeleton += blank(code.slice(index, comment));
      index = comment - 1;
      continue;
    }
    const literal = literalAt(code, index, language);
    if (literal === undefined) {
      clean += code[index]!;
      skeleton += code[index]!;
      continue;
    }
    const written = code.slice(index, literal.end);
    clean += written;
    // The quotes stay, the text between them is blanked, a spliced expression stays (a call inside `${…}` is code).
    let shape = written.slice(0, 1) + blank(written.slice(1, -1)) + written.slice(-1);
    for (const part of literal.parts)
      if ('expression' in part && code.startsWith(part.expression, part.start)) {
        const offset = part.start - index;
        shape = shape.slice(0, offset) + part.expression + shape.slice(offset + part.expression.length);
      }
    skeleton += shape;
    index = literal.end - 1;
  }
  return { clean, skeleton };
}
