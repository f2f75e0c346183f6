// JSON with comments, as tsconfig.json and deno.jsonc are written: `//` and `/* */` comments and a trailing comma
// before `}` or `]` are dropped (outside strings), then the text is JSON. Pure, no I/O. A text it cannot read is
// reported as such (the caller refuses), never read as half an object.

/** The end (exclusive) of the string that opens at `at`: escapes skipped; an unclosed one ends at its line. */
function stringEnd(text: string, at: number): number {
  let end = at + 1;
  while (end < text.length && text[end] !== '"' && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
  return Math.min(end + 1, text.length);
}

/** `text` with its comments blanked out (strings kept as written). */
function withoutComments(text: string): string | undefined {
  let out = '';
  for (let at = 0; at < text.length; ) {
    if (text[at] === '"') {
      const end = stringEnd(text, at);
      out += text.slice(at, end);
      at = end;
    } else if (text.startsWith('//', at)) {
      const end = text.indexOf('\n', at);
      at = end === -1 ? text.length : end;
    } else if (text.startsWith('/*', at)) {
      const end = text.indexOf('*/', at + 2);
      if (end === -1) return undefined;
      out += ' ';
      at = end + 2;
    } else out += text[at++]!;
  }
  return out;
}

/** The index of the first character at or after `at` that is no blank. */
function nextToken(text: string, at: number): number {
  let next = at;
  while (next < text.length && /\s/u.test(text[next]!)) next++;
  return next;
}

/** `text` (no comments) without the commas that only blanks separate from a closing `}` or `]`. */
function withoutTrailingCommas(text: string): string {
  let out = '';
  for (let at = 0; at < text.length; ) {
    if (text[at] === '"') {
      const end = stringEnd(text, at);
      out += text.slice(at, end);
      at = end;
    } else if (text[at] === ',' && '}]'.includes(text[nextToken(text, at + 1)] ?? 'end')) at++;
    else out += text[at++]!;
  }
  return out;
}

/** `text` parsed as JSONC, or why it cannot be. */
export function parseJsonc(text: string): { readonly value: unknown } | { readonly error: string } {
  const stripped = withoutComments(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (stripped === undefined) return { error: 'a /* comment is not closed' };
  try {
    return { value: JSON.parse(withoutTrailingCommas(stripped)) as unknown };
  } catch (error) {
    return { error: `it is no valid JSON with comments (${(error as Error).message})` };
  }
}
