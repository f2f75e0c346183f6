// Python read by logical lines (the language reference's "Line structure"), the one view every Python reader takes:
// a backslash continuation and a newline inside brackets are joined into their statement, a `;` outside strings and
// brackets ends one (it becomes a newline), and comments are blanked. Length-preserving, so an offset into the view is
// one into the source; strings of every prefix (triple-quoted too) are kept as written. Pure.

/** The offset just past the string literal whose opening quote is at `at` (an unclosed one-line string ends at its line). */
export function stringEnd(code: string, at: number): number {
  const quote = code.startsWith(code[at]!.repeat(3), at) ? code[at]!.repeat(3) : code[at]!;
  let end = at + quote.length;
  for (; end < code.length && !code.startsWith(quote, end); end++) {
    if (code[end] === '\\') end++;
    else if (code[end] === '\n' && quote.length === 1) return end;
  }
  return Math.min(code.length, end + quote.length);
}

/** The offset of the `)` that closes the `(` at `open`, strings skipped; undefined where none does. */
export function closingParen(code: string, open: number): number | undefined {
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

/** One pass; `brackets` false reads every `;` as a statement's end (for text whose brackets do not balance). */
function logicalView(code: string, brackets: boolean): { text: string; balanced: boolean } {
  // UTF-16 units, as the offsets are.
  const out = code.split('');
  let depth = 0;
  let balanced = true;
  let joined: number[] = [];
  for (let at = 0; at < code.length; ) {
    const char = code[at]!;
    if (char === '#') {
      for (; at < code.length && code[at] !== '\n' && code[at] !== '\r'; at++) out[at] = ' ';
      continue;
    }
    const continuation = /^\\\r?\n/u.exec(code.slice(at, at + 3));
    if (continuation !== null) {
      for (let inner = at; inner < at + continuation[0].length; inner++) out[inner] = ' ';
      at += continuation[0].length;
      continue;
    }
    if (char === '"' || char === "'") {
      at = stringEnd(code, at);
      continue;
    }
    if (brackets && '([{'.includes(char)) depth++;
    else if (brackets && ')]}'.includes(char)) {
      if (depth === 0) balanced = false;
      else if (--depth === 0) {
        for (const newline of joined) out[newline] = ' ';
        joined = [];
      }
    } else if ((char === '\n' || char === '\r') && depth > 0) joined.push(at);
    else if (char === ';' && depth === 0) out[at] = '\n';
    at++;
  }
  return { text: out.join(''), balanced: balanced && depth === 0 };
}

/**
 * `code` as logical lines, offsets kept: continuations joined, `;` a line break, comments blanked. Where the brackets
 * do not balance (not Python that compiles, or a fragment), no bracket joins lines and every `;` outside strings
 * breaks one: no statement is hidden inside another.
 */
export function pythonLogicalLines(code: string): string {
  const view = logicalView(code, true);
  return view.balanced ? view.text : logicalView(code, false).text;
}
