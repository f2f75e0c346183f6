// The shell's lexer for the readers of hooks, scripts and git config values: words with quotes removed, expansions
// as placeholders, unquoted pattern characters marked; here-documents, here-strings and pipes noted for the reader
// (shell-command-words.ts). Pure, no I/O; what it cannot split (an unclosed quote) is noted, never guessed.
/** Marks for an unquoted pattern character (the shell expands it), and the first code point of expansions. */
export const GLOB_MARKS: Readonly<Record<string, string>> = { '*': '\uF001', '?': '\uF002', '[': '\uF003', '{': '\uF004' };
export const GLOB_CHARACTERS = '*?[{';
/** A pattern mark back to the character written. */
export const unmark = (text: string) => text.replace(/[\uF001-\uF004]/gu, (ch) => GLOB_CHARACTERS[ch.charCodeAt(0) - 0xf001]!);
export const EXPANSION_BASE = 0xe000;

/** How an expansion is spelled out before the words are split: a value, or undefined to leave it for resolvePart. */
export type Substitute = (expansion: string) => string | undefined;

/** What the lexer saw besides words: here-documents (their text and the command that reads them), an unclosed quote. */
export interface LexNotes {
  /** `expanded`: the shell expands the body ($(...) in it runs) — the delimiter was not quoted. */
  readonly hereDocuments: { readonly command: string[]; readonly body: string; readonly expanded: boolean }[];
  /** A command whose standard input is the output of the one before it in a pipeline (`cat <<EOF | sh`): consumer → producer. */
  readonly pipes: Map<string[], string[]>;
  /**
   * Where kept: the text of each process substitution (`<(cat FILE)`, `>(…)`), by index; the word that holds it has
   * PROCESS_SUBSTITUTION_BASE + index in its place (the file name the shell gives it: what its command writes).
   */
  readonly processSubstitutions?: string[];
  unclosed: boolean;
  /** Where kept: the commands the lexer split off after a `<` or `>` (a redirection's file, not a program it runs). */
  readonly redirected?: Set<string[]>;
}

/** The first code point of process substitution marks (one per substitution, by index). */
export const PROCESS_SUBSTITUTION_BASE = 0xf100;
/** The process substitution a word is (its whole text a mark), if it is one. */
export const processSubstitutionOf = (word: string): number | undefined =>
  word.length === 1 && word.charCodeAt(0) >= PROCESS_SUBSTITUTION_BASE && word.charCodeAt(0) < PROCESS_SUBSTITUTION_BASE + 0x100 ? word.charCodeAt(0) - PROCESS_SUBSTITUTION_BASE : undefined;

/** The first word of a case pattern list (`*) ...;;`): its words are matched against the case word, not files run. */
export const CASE_PATTERN = '\uF00F';

/** A here-document opened on the current line: its body is read off at the line's end. */
interface PendingDocument {
  readonly delimiter: string;
  readonly tabs: boolean;
  readonly quoted: boolean;
  readonly command: string[];
}

/**
 * Splits shell text into words (quotes removed, expansions as placeholders, unquoted pattern characters marked). A
 * here-document's body is not words of the script: it is kept in `notes` as the text its command reads.
 */
export function lexShell(text: string, expansions: string[], substitute?: Substitute, notes?: LexNotes): string[][] {
  const commands: string[][] = [[]];
  const pending: PendingDocument[] = [];
  let word = '';
  let started = false;
  // A here-string's command (`bash <<< "text"`): its next word is the text the command reads, not one of its words.
  let hereString: string[] | undefined;
  // Open case statements, and whether the lexer is in a pattern list (after `in`, `;;`, up to `)`).
  let cases = 0;
  let inPattern = false;
  // Inside `[[ … ]]`: `&&`, `||`, `<`, `>`, `(`, `)` and `!` are the test's own operators, no command's end nor a
  // redirection; and whether the word read so far was quoted (a quoted `[[` or `]]` is a word, no keyword).
  // Set by push (a closure): typed wide so the reads below are not narrowed to its first value.
  let conditional = false as boolean;
  let quotedWord = false;
  // A redirection's target being read: its one word is a command of its own (notes.redirected); the words after it go
  // on with the command the redirection stands in (`>/dev/null cd scripts` is `cd scripts`).
  let redirection: { readonly target: string[]; readonly resume: string[] } | undefined;
  // Inside `((…))` (arithmetic, or nested subshells: bash takes either), the parentheses open: a `<` or `>` there is
  // an operator of the arithmetic (`1 << 2`), never a here-document or a redirection that swallows what follows.
  let arithmetic = 0;
  const push = () => {
    const command = commands.at(-1)!;
    if (!quotedWord && !inPattern && unmark(word) === '[[' && command.every((each) => CONDITIONAL_OPENERS.has(unmark(each)))) conditional = true;
    else if (!quotedWord && unmark(word) === ']]' && conditional) conditional = false;
    const quoted = quotedWord;
    quotedWord = false;
    if (hereString !== undefined && (word !== '' || started)) {
      notes?.hereDocuments.push({ command: hereString, body: word, expanded: false });
      hereString = undefined;
    } else if (cases > 0 && word === 'esac' && command.length === 0) {
      cases--;
      inPattern = false;
      command.push(word);
    }
    // A lone "{" or "}" is a reserved word (a body or a group): a command starts after it (`function up { cd x; }`).
    else if (!quoted && (word === '\uF004' || word === '}')) {
      word = '';
      started = false;
      if (command.length > 0) commands.push([]);
      return;
    } else if (word !== '') command.push(word);
    if (command.length === 3 && command[0] === 'case' && command[2] === 'in') {
      cases++;
      inPattern = true;
      commands.push([]);
    }
    word = '';
    started = false;
    if (redirection !== undefined && redirection.target.length > 0) {
      // The target is read: the command goes on after it, last in the list so that later words join it.
      const { resume } = redirection;
      redirection = undefined;
      const at = commands.indexOf(resume);
      if (at >= 0 && at !== commands.length - 1) commands.splice(at, 1);
      if (commands.at(-1) !== resume) commands.push(resume);
    }
  };
  const separate = () => {
    push();
    redirection = undefined;
    if (commands.at(-1)!.length > 0) commands.push([]);
  };
  // A redirection operator at `at` (`>`, `>>`, `>|`, `>&`, `<`, `<&`, `<>`, `&>`, `&>>`; its descriptor, `2` or `{fd}`,
  // written just before it, is no word): its target is the next word; the index of the operator's last character.
  const redirect = (at: number): number => {
    if (!quotedWord && /^(?:\d+|\uF004[A-Za-z_]\w*\})$/u.test(word)) {
      word = '';
      started = false;
    }
    push();
    let end = at;
    if (text[end] === '&') end++;
    if (text[end] === '>' && '>|&'.includes(text[end + 1] ?? ' ')) end++;
    else if (text[end] === '<' && '&>'.includes(text[end + 1] ?? ' ')) end++;
    const resume = commands.at(-1)!;
    const target: string[] = [];
    commands.push(target);
    notes?.redirected?.add(target);
    redirection = { target, resume };
    return end;
  };
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = '';
      else word += c;
      continue;
    }
    if (c === '$' && quote === '' && (text[i + 1] === "'" || text[i + 1] === '"')) {
      quotedWord = true;
      // $'...' (escapes spelled out, as bash reads them) and $"..." (a translated string: its text).
      if (text[i + 1] === '"') continue;
      const quoted = ansiQuoted(text, i + 2);
      word += quoted.value;
      started = true;
      i = quoted.end;
      continue;
    }
    if ((c === '<' || c === '>') && text[i + 1] === '(' && quote === '' && notes?.processSubstitutions !== undefined && notes.processSubstitutions.length < 0x100) {
      // <(…) and >(…): a file name whose content is what the command inside writes (or reads); kept whole.
      const end = expansionEnd(`${text.slice(0, i)}$${text.slice(i + 1)}`, i);
      notes.processSubstitutions.push(text.slice(i + 2, Math.max(i + 2, end - 1)));
      word += String.fromCharCode(PROCESS_SUBSTITUTION_BASE + notes.processSubstitutions.length - 1);
      started = true;
      i = end - 1;
      continue;
    }
    if ((c === '$' || c === '`') && expansionEnd(text, i) > i + 1) {
      const end = expansionEnd(text, i);
      const expansion = text.slice(i, end).replace(/\s+/gu, ' ');
      const value = substitute?.(expansion);
      if (value !== undefined && quote === '') {
        // Unquoted, the shell splits a value at blanks (RUN="sh x"; $RUN runs sh with x) and matches each piece as a
        // pattern (HOOKS="dir/*.sh"; for h in $HOOKS runs every file in dir/).
        const [first, ...rest] = value
          .trim()
          .split(/\s+/u)
          .map((piece) => piece.replace(/[*?[]/gu, (ch) => GLOB_MARKS[ch]!));
        word += first!;
        for (const piece of rest) {
          push();
          word = piece;
        }
      } else if (value !== undefined) word += value;
      else {
        expansions.push(expansion);
        word += String.fromCharCode(EXPANSION_BASE + expansions.length - 1);
      }
      started = true;
      i = end - 1;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && text[i + 1] === '\n')
        i++; // a line continued inside quotes: both go
      else if (c === '\\' && i + 1 < text.length && '$`"\\'.includes(text[i + 1]!)) word += text[++i]!;
      else word += c;
      continue;
    }
    if (c === '#' && word === '' && !started) {
      // A comment, to the end of the line.
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
      quotedWord = true;
    } else if (conditional && (c === '\n' || '&|<>()!'.includes(c))) {
      // A test's operator or a line break inside `[[ … ]]`: a word ends, the command goes on.
      push();
    } else if (c === '\\' && text[i + 1] === '\n') i++;
    else if (c === '\\' && i + 1 < text.length) word += text[++i]!;
    else if (c === '\n') {
      separate();
      i = hereDocumentBodies(text, i, pending, notes);
    } else if (inPattern && !/[\s|)]/u.test(c) && !(c === '(' && word === '' && commands.at(-1)!.length === 0)) word += GLOB_MARKS[c] ?? c;
    else if (inPattern && (c === ')' || c === '|' || c === '(')) {
      // A case pattern list: `|` parts its patterns, `)` ends it; the words are data (CASE_PATTERN).
      push();
      if (c === ')') {
        commands.at(-1)!.unshift(CASE_PATTERN);
        commands.push([]);
        inPattern = false;
      }
    } else if (c === ';' && (text[i + 1] === ';' || text[i + 1] === '&') && cases > 0) {
      // `;;`, `;&`, `;;&` end a case branch: a pattern list follows (or esac).
      separate();
      i += text[i + 1] === ';' && text[i + 2] === '&' ? 2 : 1;
      inPattern = true;
    } else if (c === '|' && text[i + 1] !== '|' && text[i - 1] !== '|') {
      // A pipe: the next command reads this one's output (the command before a here-document's `<<` is already closed).
      push();
      const producer = commands.at(-1)!.length > 0 ? commands.at(-1) : commands.at(-2);
      separate();
      if (producer !== undefined) notes?.pipes.set(commands.at(-1)!, producer);
    } else if (arithmetic > 0 && (c === '<' || c === '>')) push();
    else if (c === '<' && text[i + 1] === '<' && text[i + 2] === '<') {
      push();
      hereString = commands.at(-1)!;
      i += 2;
    } else if (c === '<' && text[i + 1] === '<' && text[i + 2] !== '<') {
      // <<DELIM, <<-DELIM, <<'DELIM', <<\DELIM, <<"DE"LIM: the body starts on the next line and ends at a line that is DELIM.
      // The word before it closed first: glued to a redirection's target (`bash 2>/dev/null<<EOF`), the body is the
      // command's, which goes on after the target.
      push();
      const start = hereDocumentDelimiter(text, i + 2);
      if (start.delimiter !== '' || start.quoted) pending.push({ ...start, command: commands.at(-1)! });
      i = start.end - 1;
      separate();
    } else if (/\s/u.test(c)) push();
    else if (c === '<' || c === '>' || (c === '&' && text[i + 1] === '>')) i = redirect(i);
    else if (';|&()<>!'.includes(c)) {
      if (c === '(' && (arithmetic > 0 || (text[i + 1] === '(' && word === '' && !started))) arithmetic++;
      else if (c === ')' && arithmetic > 0) arithmetic--;
      separate();
    } else word += GLOB_MARKS[c] ?? c;
  }
  push();
  hereDocumentBodies(text, text.length, pending, notes);
  if (quote !== '' && notes !== undefined) notes.unclosed = true;
  return commands.filter((command) => command.length > 0);
}

/** The words a `[[` may follow and still open a test (`if [[`, `! [[`, `while [[`). */
const CONDITIONAL_OPENERS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', 'time', '{', '(']);

/**
 * The delimiter word of a here-document from `at` (after "<<"), as the shell takes it: a leading "-" strips tabs; the
 * word ends at an unquoted blank or operator, its quotes and backslashes removed; any quoting leaves the body unexpanded.
 */
export function hereDocumentDelimiter(text: string, at: number): { delimiter: string; tabs: boolean; quoted: boolean; end: number } {
  let i = at;
  const tabs = text[i] === '-';
  if (tabs) i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  let delimiter = '';
  let quoted = false;
  for (; i < text.length && !/[\s;&|()<>]/u.test(text[i]!); i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      quoted = true;
      const close = text.indexOf(c, i + 1);
      const end = close === -1 ? text.length : close;
      delimiter += text.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && i + 1 < text.length) {
      quoted = true;
      delimiter += text[++i]!;
    } else delimiter += c;
  }
  return { delimiter, tabs, quoted, end: i };
}

/** At a newline (index `at`): the bodies of the here-documents opened on the line, read off; the index to go on from. */
function hereDocumentBodies(text: string, at: number, pending: PendingDocument[], notes: LexNotes | undefined): number {
  let next = at;
  while (pending.length > 0) {
    const { delimiter, tabs, quoted, command } = pending.shift()!;
    const lines: string[] = [];
    let end = next + 1;
    while (end < text.length) {
      const lineEnd = text.indexOf('\n', end) === -1 ? text.length : text.indexOf('\n', end);
      const line = text.slice(end, lineEnd);
      end = lineEnd;
      if ((tabs ? line.replace(/^\t+/u, '') : line) === delimiter) break;
      lines.push(line);
      end = lineEnd + 1;
    }
    notes?.hereDocuments.push({ command, body: lines.join('\n'), expanded: !quoted });
    next = Math.min(end, text.length);
  }
  return next;
}

/** The text of a $'...' string from `start` (after the quote), escapes spelled out; `end` is the closing quote's index. */
/** `text` with each `$'…'` string replaced by what bash makes of it (`b$'\x61'sh` is `bash`). */
export function ansiDecoded(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === "'") {
      const quoted = ansiQuoted(text, i + 2);
      out += quoted.value;
      i = quoted.end;
      continue;
    }
    out += text[i]!;
  }
  return out;
}

function ansiQuoted(text: string, start: number): { value: string; end: number } {
  const escapes: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\u0007', b: '\b', e: '\u001b', E: '\u001b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  let value = '';
  let i = start;
  for (; i < text.length && text[i] !== "'"; i++) {
    if (text[i] !== '\\' || i + 1 >= text.length) {
      value += text[i]!;
      continue;
    }
    const next = text[++i]!;
    const code = /^(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3})/u.exec(text.slice(i))?.[0];
    if (code !== undefined) {
      const number = /^[xuU]/u.test(code) ? Number.parseInt(code.slice(1), 16) : Number.parseInt(code, 8);
      value += number <= 0x10ffff ? String.fromCodePoint(number) : '';
      i += code.length - 1;
    } else value += escapes[next] ?? `\\${next}`;
  }
  return { value, end: i };
}

/** At `at` ("$" or "`"): the index after the expansion, or at + 1 for a plain "$". */
export function expansionEnd(text: string, at: number): number {
  if (text[at] === '`') {
    let j = at + 1;
    while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, text.length);
  }
  const next = text[at + 1];
  if (next === '(') {
    let depth = 0;
    for (let j = at + 1; j < text.length; j++) {
      // Quoted text inside a command substitution holds no parenthesis that counts ("$(printf ')')").
      if (text[j] === "'") j = text.indexOf("'", j + 1) === -1 ? text.length : text.indexOf("'", j + 1);
      else if (text[j] === '"') while (++j < text.length && text[j] !== '"') j += text[j] === '\\' ? 1 : 0;
      else if (text[j] === '\\') j++;
      else if (text[j] === '(') depth++;
      else if (text[j] === ')' && --depth === 0) return j + 1;
    }
    return text.length;
  }
  if (next === '{' || next === '[') {
    // ${…}, and $[…] (bash's old arithmetic: `$[1<<2]`).
    const [open, close] = next === '{' ? ['{', '}'] : ['[', ']'];
    let depth = 0;
    for (let j = at + 1; j < text.length; j++) {
      if (text[j] === open) depth++;
      else if (text[j] === close && --depth === 0) return j + 1;
    }
    return text.length;
  }
  if (next !== undefined && /[A-Za-z_]/u.test(next)) {
    let j = at + 1;
    while (j < text.length && /[A-Za-z0-9_]/u.test(text[j]!)) j++;
    return j;
  }
  if (next !== undefined && /[0-9@*#?$!-]/u.test(next)) return at + 2;
  return at + 1;
}

/** The command substitutions of a here-document body the shell expands ($(...) and `...`, not \$ nor $((...))). */
export function commandSubstitutions(body: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      i++;
      continue;
    }
    if ((body[i] !== '$' || body[i + 1] !== '(' || body[i + 2] === '(') && body[i] !== '`') continue;
    const end = expansionEnd(body, i);
    found.push(body.slice(i, end).replace(/^\$\(|^`|\)$|`$/gu, ''));
    i = end - 1;
  }
  return found;
}
