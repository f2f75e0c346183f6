// A shell script's text as bash reads its words: comments taken out and line continuations joined, but only where
// bash has them. A `#` starts a comment only at a word's start outside quotes, `$(( ))` and `${ }`; a backslash
// before a line end joins the lines outside single quotes and comments, never inside a comment (`# C:\` ends at its
// line). A here-document's body is kept as written. Regex passes over the raw text got these wrong both ways (a
// comment line ending in `\` swallowing the next line, a `#` line inside a quote taken for a comment), so the
// readers of values read this text, and each of its lines says which line of the file it starts on. Pure, no I/O;
// text it cannot read to its end (an unclosed quote, substitution or here-document) gives undefined.

/** The text read, and for each of its lines the file's line (from 0) it starts on. */
export interface ShellCodeText {
  readonly code: string;
  readonly fileLines: readonly number[];
}

type Context = 'top' | 'double' | 'substitution' | 'backquote' | 'brace' | 'arithmetic';

/** `text` as bash reads its words (see the head of this file), or undefined where it cannot be read to its end. */
export function shellCodeText(text: string): ShellCodeText | undefined {
  let code = '';
  let line = 0;
  const fileLines = [0];
  const stack: { context: Context; depth: number }[] = [{ context: 'top', depth: 0 }];
  const pending: { delimiter: string; tabs: boolean }[] = [];
  const newline = () => {
    code += '\n';
    line++;
    fileLines.push(line);
  };
  let index = 0;
  while (index < text.length) {
    const top = stack.at(-1)!;
    const ch = text[index]!;
    const next = text[index + 1];
    const codeLike = top.context === 'top' || top.context === 'substitution' || top.context === 'backquote';
    if (ch === '\\' && next === '\n') {
      // A continuation: joined (the file's line count moves on, the code's does not).
      index += 2;
      line++;
      continue;
    }
    if (ch === '\\' && next !== undefined) {
      code += ch + next;
      index += 2;
      continue;
    }
    if (ch === '\n') {
      newline();
      index++;
      // Here-documents opened on the line just ended: their bodies, as written, up to each delimiter line.
      for (const document of pending.splice(0)) {
        for (;;) {
          if (index >= text.length) return undefined;
          const end = text.indexOf('\n', index);
          const bodyLine = text.slice(index, end === -1 ? text.length : end);
          index = end === -1 ? text.length : end + 1;
          code += bodyLine;
          newline();
          if ((document.tabs ? bodyLine.replace(/^\t+/u, '') : bodyLine) === document.delimiter) break;
        }
      }
      continue;
    }
    if (codeLike && ch === '#' && (index === 0 || /[\s;&|()<>]/u.test(text[index - 1]!))) {
      // A comment, to its line's end (a backslash there joins nothing).
      const end = text.indexOf('\n', index);
      index = end === -1 ? text.length : end;
      continue;
    }
    if (codeLike && ch === "'") {
      const end = text.indexOf("'", index + 1);
      if (end === -1) return undefined;
      emit(text.slice(index, end + 1));
      index = end + 1;
      continue;
    }
    if (codeLike && ch === '$' && next === "'") {
      const end = /^\$'(?:\\[\s\S]|[^'\\])*'/u.exec(text.slice(index));
      if (end === null) return undefined;
      emit(end[0]);
      index += end[0].length;
      continue;
    }
    if (codeLike && ch === '<' && next === '<' && text[index + 2] !== '<' && text[index - 1] !== '<') {
      const opened = /^<<(-?)\s*(?:'([^'\n]*)'|"([^"\n]*)"|\\?([^\s;&|()<>'"]+))/u.exec(text.slice(index));
      if (opened !== null) {
        pending.push({ delimiter: (opened[2] ?? opened[3] ?? opened[4]!).replace(/\\/gu, ''), tabs: opened[1] === '-' });
        code += opened[0];
        index += opened[0].length;
        continue;
      }
    }
    if (ch === '"' && (codeLike || top.context === 'double')) {
      if (top.context === 'double') stack.pop();
      else stack.push({ context: 'double', depth: 0 });
      code += ch;
      index++;
      continue;
    }
    if (ch === '`' && top.context !== 'arithmetic') {
      if (top.context === 'backquote') stack.pop();
      else stack.push({ context: 'backquote', depth: 0 });
      code += ch;
      index++;
      continue;
    }
    if (ch === '$' && next === '(' && text[index + 2] === '(') {
      stack.push({ context: 'arithmetic', depth: 0 });
      code += '$((';
      index += 3;
      continue;
    }
    // An arithmetic command `(( … ))`: its `<<` is a shift and its `#` a base, not a here-document or a comment.
    if (codeLike && ch === '(' && next === '(') {
      stack.push({ context: 'arithmetic', depth: 0 });
      code += '((';
      index += 2;
      continue;
    }
    if (ch === '$' && next === '(') {
      stack.push({ context: 'substitution', depth: 0 });
      code += '$(';
      index += 2;
      continue;
    }
    if (ch === '$' && next === '{') {
      stack.push({ context: 'brace', depth: 0 });
      code += '${';
      index += 2;
      continue;
    }
    if (top.context === 'brace' && ch === '}') {
      if (top.depth === 0) stack.pop();
      else top.depth--;
    } else if (top.context === 'brace' && ch === '{') top.depth++;
    else if ((top.context === 'substitution' || top.context === 'arithmetic') && ch === '(') top.depth++;
    else if ((top.context === 'substitution' || top.context === 'arithmetic') && ch === ')') {
      if (top.context === 'arithmetic' && top.depth === 0) {
        // `$(( … ))` ends with two.
        if (next !== ')') return undefined;
        stack.pop();
        code += '))';
        index += 2;
        continue;
      }
      if (top.depth === 0) stack.pop();
      else top.depth--;
    }
    code += ch;
    index++;
  }
  if (stack.length !== 1 || pending.length > 0) return undefined;
  return { code, fileLines };

  /** Text copied as it is, its line ends counted. */
  function emit(written: string): void {
    const parts = written.split('\n');
    code += parts[0]!;
    for (const part of parts.slice(1)) {
      newline();
      code += part;
    }
  }
}
