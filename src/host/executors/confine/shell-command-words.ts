// The files a shell command may name, as the shell would read it: for a git
// config value (a command git hands to a shell) and for a whole script a tool runs
// (a hook, a script a hook or a tool file names). Every word counts, with or without
// a "/"; an interpreter's module or directory counts as the file it runs
// (interpreter-operands.ts); what the shell would expand must be known now, or the
// word is unresolved (closed world). Pure, no I/O.
import path from 'node:path';
import type { ProgramLanguage } from './inline-program-runs.js';
import { inlineProgram, interpreterReading, type InterpreterName, programLanguage } from './interpreter-operands.js';
import { DATA_VARIABLES, optionVariableNames, SEARCH_VARIABLES } from './variable-kinds.js';

/** A file a command value may name, resolved as far as the text allows; or why it cannot be. */
export type CommandWord =
  | {
      readonly kind: 'path';
      /** Relative to `anchor` unless absolute ("plain": to every directory git may run it from, and PATH). */
      readonly text: string;
      readonly anchor: 'plain' | 'home' | 'top';
      /** True when the word is a pattern: everything below `text` may match. */
      readonly tree: boolean;
      /** Script mode: the word is run as a program or sourced (a command's first word, `. FILE`, an interpreter's script). */
      readonly runs?: true;
    }
  | { readonly kind: 'unresolved'; readonly text: string; readonly why: string };

/**
 * A whole script, read where it runs: its own directory ($(dirname "$0")), the directory it runs in ($PWD, the
 * top of the repository), and the user's environment (what a variable the script does not set expands to).
 */
export interface ScriptContext {
  /** The script's own file ($0) and directory. */
  readonly scriptFile?: string;
  readonly scriptDirectory: string;
  readonly workingDirectory: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** Marks for an unquoted pattern character (the shell expands it), and the first code point of expansions. */
const GLOB_MARKS: Readonly<Record<string, string>> = { '*': '\uF001', '?': '\uF002', '[': '\uF003', '{': '\uF004' };
const GLOB_CHARACTERS = '*?[{';
/** A pattern mark back to the character written. */
const unmark = (text: string) => text.replace(/[\uF001-\uF004]/gu, (ch) => GLOB_CHARACTERS[ch.charCodeAt(0) - 0xf001]!);
const EXPANSION_BASE = 0xe000;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox', 'eval']);
/** What a shell expands these to is known: the user's home, the directory git runs the command in, the user's own arguments. */
const HOME_EXPANSIONS = new Set(['$HOME', '${HOME}']);
const TOP_EXPANSIONS = new Set(['$PWD', '${PWD}', '$(pwd)', '`pwd`', '$(git rev-parse --show-toplevel)', '`git rev-parse --show-toplevel`']);
const POSITIONAL = /^\$(\{?[0-9@*#?$!-]\}?)$/u;
/** An assignment word, `NAME=VALUE` or bash's `NAME+=VALUE` (appended): the shell reads both as the assignment they are. */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)$/su;
/** Words before a command's program that are not it: keywords, assignments, and wrappers that run the words after them. */
const BEFORE_PROGRAM = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', 'time', 'exec', 'command', 'builtin', 'nohup', 'env', 'xargs']);
/** The shell's own builtins and keywords: as a command they run no file (`test -n "$X"`, `exit 0`). */
const BUILTINS = new Set([
  ...['test', 'echo', 'printf', 'exit', 'return', 'set', 'unset', 'export', 'readonly', 'local', 'declare', 'typeset', 'read', 'shift'],
  ...['true', 'false', ':', 'cd', 'pushd', 'popd', 'trap', 'wait', 'type', 'hash', 'alias', 'unalias', 'let', 'umask', 'getopts', 'break'],
  ...['continue', 'if', 'then', 'else', 'elif', 'fi', 'for', 'in', 'do', 'done', 'while', 'until', 'case', 'esac', 'function', 'select'],
]);

/** How an expansion is spelled out before the words are split: a value, or undefined to leave it for resolvePart. */
type Substitute = (expansion: string) => string | undefined;

/** What the lexer saw besides words: here-documents (their text and the command that reads them), an unclosed quote. */
interface LexNotes {
  /** `expanded`: the shell expands the body ($(...) in it runs) — the delimiter was not quoted. */
  readonly hereDocuments: { readonly command: string[]; readonly body: string; readonly expanded: boolean }[];
  /** A command whose standard input is the output of the one before it in a pipeline (`cat <<EOF | sh`): consumer → producer. */
  readonly pipes: Map<string[], string[]>;
  unclosed: boolean;
}

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
function lexShell(text: string, expansions: string[], substitute?: Substitute, notes?: LexNotes): string[][] {
  const commands: string[][] = [[]];
  const pending: PendingDocument[] = [];
  let word = '';
  let started = false;
  // A here-string's command (`bash <<< "text"`): its next word is the text the command reads, not one of its words.
  let hereString: string[] | undefined;
  // Open case statements, and whether the lexer is in a pattern list (after `in`, `;;`, up to `)`).
  let cases = 0;
  let inPattern = false;
  const push = () => {
    const command = commands.at(-1)!;
    if (hereString !== undefined && (word !== '' || started)) {
      notes?.hereDocuments.push({ command: hereString, body: word, expanded: false });
      hereString = undefined;
    } else if (cases > 0 && word === 'esac' && command.length === 0) {
      cases--;
      inPattern = false;
      command.push(word);
    }
    // A lone "{" or "}" is a reserved word (a function body), not a file.
    else if (word !== '' && word !== '\uF004' && word !== '}') command.push(word);
    if (command.length === 3 && command[0] === 'case' && command[2] === 'in') {
      cases++;
      inPattern = true;
      commands.push([]);
    }
    word = '';
    started = false;
  };
  const separate = () => {
    push();
    if (commands.at(-1)!.length > 0) commands.push([]);
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
      // $'...' (escapes spelled out, as bash reads them) and $"..." (a translated string: its text).
      if (text[i + 1] === '"') continue;
      const quoted = ansiQuoted(text, i + 2);
      word += quoted.value;
      started = true;
      i = quoted.end;
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
    } else if (c === '<' && text[i + 1] === '<' && text[i + 2] === '<') {
      push();
      hereString = commands.at(-1)!;
      i += 2;
    } else if (c === '<' && text[i + 1] === '<' && text[i + 2] !== '<') {
      // <<DELIM, <<-DELIM, <<'DELIM', <<\DELIM, <<"DE"LIM: the body starts on the next line and ends at a line that is DELIM.
      const start = hereDocumentDelimiter(text, i + 2);
      if (start.delimiter !== '' || start.quoted) pending.push({ ...start, command: commands.at(-1)! });
      i = start.end - 1;
      separate();
    } else if (/\s/u.test(c)) push();
    else if (';|&()<>!'.includes(c)) separate();
    else word += GLOB_MARKS[c] ?? c;
  }
  push();
  hereDocumentBodies(text, text.length, pending, notes);
  if (quote !== '' && notes !== undefined) notes.unclosed = true;
  return commands.filter((command) => command.length > 0);
}

/**
 * The delimiter word of a here-document from `at` (after "<<"), as the shell takes it: a leading "-" strips tabs; the
 * word ends at an unquoted blank or operator, its quotes and backslashes removed; any quoting leaves the body unexpanded.
 */
function hereDocumentDelimiter(text: string, at: number): { delimiter: string; tabs: boolean; quoted: boolean; end: number } {
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
function expansionEnd(text: string, at: number): number {
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
  if (next === '{') {
    let depth = 0;
    for (let j = at + 1; j < text.length; j++) {
      if (text[j] === '{') depth++;
      else if (text[j] === '}' && --depth === 0) return j + 1;
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

interface Reading {
  readonly shell: boolean;
  /** A whole script: an expansion left is the script's own (a command's output, a loop's words), not the user's. */
  readonly script: boolean;
  /** The word is run or sourced, or is one of a loop's words. */
  readonly runs: boolean;
}

/** The variable an expansion reads ($X, ${X}, ${X:-w}...), if it is one. */
const variableOf = (expansion: string) => /^\$\{?([A-Za-z_][A-Za-z0-9_]*)/u.exec(expansion)?.[1];

function resolvePart(part: string, expansions: readonly string[], reading: Reading, out: CommandWord[]): void {
  const expansionAt = (index: number) => expansions[part.charCodeAt(index) - EXPANSION_BASE];
  const isExpansion = (index: number) => {
    const code = part.charCodeAt(index);
    return code >= EXPANSION_BASE && code < EXPANSION_BASE + expansions.length;
  };
  const written = unmark(part.replace(/[\uE000-\uEFFF]/gu, (ch) => expansions[ch.charCodeAt(0) - EXPANSION_BASE] ?? ch));
  const used = Array.from({ length: part.length }, (_, index) => index).filter(isExpansion);
  const known = (index: number) => HOME_EXPANSIONS.has(expansionAt(index)!) || TOP_EXPANSIONS.has(expansionAt(index)!);
  // The user's own arguments ("$1", "$@") name what the user types when running it: theirs to choose (in a script, the
  // arguments its caller gives are read below with the script's other values).
  if (!reading.script && used.some((index) => POSITIONAL.test(expansionAt(index)!))) {
    const other = used.filter((index) => !POSITIONAL.test(expansionAt(index)!) && !known(index));
    if (other.length === 0) return;
    out.push({ kind: 'unresolved', text: written, why: `${other.map((index) => expansionAt(index)).join(', ')} is expanded only when git runs it` });
    return;
  }
  let anchor: 'plain' | 'home' | 'top' = 'plain';
  let rest = part;
  if (reading.script && used.length > 0) {
    // A script's own variable set from a command's output or a loop, or a command substitution: its words were read
    // (they are words too) but what it holds cannot be spelled out. A word that is only that names no file zotbox
    // could know; one with more around it is read as a pattern under its fixed directory.
    if (used.length === 1 && part.length === 1) {
      // A command's output run as a program (`$(cat scripts/cmd)`, `eval "$(...)"`, `sh -c "$(...)"`): anything.
      if (reading.runs && /^(\$\(|`)/u.test(expansionAt(0)!)) out.push({ kind: 'unresolved', text: written, why: "it runs a command's output" });
      return;
    }
    rest = part.replace(/[\uE000-\uEFFF]/gu, '\uF001');
  } else if (used.length > 0) {
    const first = expansionAt(0);
    const leading = used.length === 1 && used[0] === 0 && first !== undefined ? (HOME_EXPANSIONS.has(first) ? 'home' : TOP_EXPANSIONS.has(first) ? 'top' : undefined) : undefined;
    if (leading === undefined || (part.length > 1 && part[1] !== '/')) {
      out.push({ kind: 'unresolved', text: written, why: `${used.map((index) => expansionAt(index)).join(', ')} is expanded only when git runs it` });
      return;
    }
    anchor = leading;
    rest = part.slice(2);
  } else if (part === '~' || part.startsWith('~/')) {
    anchor = 'home';
    rest = part.slice(2);
  } else if (part.startsWith('~') && reading.shell) {
    out.push({ kind: 'unresolved', text: written, why: "another user's home directory" });
    return;
  }
  const glob = rest.search(/[\uF001-\uF004]/u);
  if (glob === -1) {
    out.push({ kind: 'path', text: rest, anchor, tree: false });
    return;
  }
  // In a script, a pattern in an argument (`eslint src/*.ts`, `case $f in *.md)`) is data for the program; one that
  // is run, sourced or looped over names the files that run.
  if (reading.script && !reading.runs) return;
  const prefix = rest.slice(0, glob);
  const directory = prefix.slice(0, prefix.lastIndexOf('/') + 1).replace(/\/+$/u, '');
  if (directory === '' && !prefix.startsWith('/')) {
    out.push({ kind: 'unresolved', text: written, why: 'a pattern the shell matches against the files where git runs it' });
    return;
  }
  // A script's program picked from the project's dependencies by a pattern or a variable (lefthook's hook:
  // "$dir/node_modules/lefthook-${os}-${cpu}/bin/lefthook") is the dependencies', as running them by hand is.
  if (reading.script && directory.split('/').includes('node_modules')) return;
  out.push({ kind: 'path', text: directory === '' ? '/' : directory, anchor, tree: true });
}

/** A wrapper's options that take the next word as their value (`env -C DIR`, `xargs -I {}`, `exec -a NAME`). */
const VALUED_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  env: new Set(['-C', '--chdir', '-u', '--unset', '-S', '--split-string']),
  xargs: new Set(['-I', '-i', '-n', '-P', '-d', '-E', '-e', '-L', '-l', '-s', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs']),
  exec: new Set(['-a']),
};

/**
 * The index of a command's program, past keywords, assignments and wrappers (`env -i X=1 prog`, `exec prog`), and the
 * directory a wrapper moves it to (`env -C DIR prog`, `--chdir=DIR`).
 */
function programOf(command: readonly string[]): { readonly at: number; readonly chdir: string | undefined } {
  let at = 0;
  let chdir: string | undefined;
  let wrapper = '';
  while (at < command.length) {
    const word = unmark(command[at]!);
    if (BEFORE_PROGRAM.has(word)) {
      wrapper = word;
      at++;
    } else if (ASSIGNMENT.test(word)) at++;
    else if (word.startsWith('-') && wrapper !== '' && wrapper !== 'if' && wrapper !== 'then') {
      if (wrapper === 'env' && word.startsWith('--chdir=')) chdir = command[at]!.slice('--chdir='.length);
      if (VALUED_OPTIONS[wrapper]?.has(word) === true) {
        if (wrapper === 'env' && (word === '-C' || word === '--chdir')) chdir = command[at + 1];
        at++;
      }
      at++;
    } else break;
  }
  return { at, chdir };
}

/** How one command is read: its program, what it runs (by index), the shell text its words hold, find's starting points. */
interface CommandReading {
  readonly at: number;
  readonly chdir: string | undefined;
  readonly names: InterpreterName[];
  /** An inline program's calls that run what it only computes (`perl -e 'do $f'`). */
  readonly computed: string[];
  readonly runsAt: Set<number>;
  readonly scripts: Map<number, string>;
  readonly starts: string[];
}

function commandReading(command: readonly string[], scriptMode: boolean): CommandReading {
  const { at, chdir } = programOf(command);
  const program = path.basename(unmark(command[at] ?? ''));
  // Every word that names an interpreter starts its grammar: the program, and one behind a wrapper zotbox does not
  // know (`nice python3 -m x`, `timeout 60 node tools`).
  const names: InterpreterName[] = [];
  const computed: string[] = [];
  const runsAt = new Set<number>(scriptMode ? [at] : []);
  for (let index = at; index < command.length; index++) {
    const grammar = interpreterReading(path.basename(unmark(command[index]!)), command.slice(index + 1).map(unmark));
    names.push(...grammar.names);
    computed.push(...(grammar.computed ?? []));
    if (grammar.operand !== undefined && scriptMode) runsAt.add(index + 1 + grammar.operand);
  }
  // A search path a script sets for what it runs (`PATH="$PWD/bin:$PATH"`, `PYTHONPATH=tools python3 -m lint`).
  // An interpreter's option variable set for it (`NODE_OPTIONS="--require ./x.js" node ...`): read by its grammar.
  if (scriptMode) for (const word of command) names.push(...searchPathNames(unmark(word)), ...optionVariableNames(unmark(word)));
  // What find hands to the program it runs is every file below its starting points; the program runs too.
  const starts = program === 'find' ? findStarts(command, at) : [];
  command.forEach((_, index) => {
    if (starts.length > 0 && /^-(exec|execdir|ok|okdir)$/u.test(unmark(command[index - 1] ?? ''))) runsAt.add(index);
  });
  // Shell text a word holds, at any word of the command: "sh -c SCRIPT" (behind any wrapper), "eval SCRIPT",
  // "trap SCRIPT EXIT", "flock -c SCRIPT", "su -c SCRIPT", "env -S LINE", an alias's body, a git -c value.
  const scripts = commandStrings(command.map(unmark));
  return { at, chdir, names, computed, runsAt, scripts, starts };
}

/** The positional parameters, as a variable name: `$1`, `$@`, `"$*"`, a `for f do` loop. */
const POSITIONAL_NAME = '@';

/**
 * The indexes of a command's words that are a list the script loops over: `for V in WORDS` (and select) when V is
 * run; `set [options] [--] WORDS` (the positional parameters) when they are run.
 */
function listWords(command: readonly string[], at: number, runVariables: ReadonlySet<string>): number[] {
  const words = command.map(unmark);
  const indexes = (from: number) => Array.from({ length: Math.max(0, command.length - from) }, (_, i) => from + i);
  if ((words[0] === 'for' || words[0] === 'select') && words[2] === 'in') return runVariables.has(words[1]!) ? indexes(3) : [];
  if (words[at] !== 'set' || !runVariables.has(POSITIONAL_NAME)) return [];
  let index = at + 1;
  while (index < words.length && /^[-+]/u.test(words[index]!) && words[index] !== '--' && words[index] !== '-') index += /^[-+]o$/u.test(words[index]!) ? 2 : 1;
  if (words[index] === '--' || words[index] === '-') index++;
  return indexes(index);
}

/** Whether a command reads its standard input as a program: a shell's script (`sh`, `timeout 60 bash`), an interpreter's. */
function stdinReader(command: readonly string[]): 'shell' | 'code' | undefined {
  for (let index = programOf(command).at; index < command.length; index++) {
    const program = path.basename(unmark(command[index]!));
    if ((SHELLS.has(program) && program !== 'eval') || program === '.' || program === 'source') return 'shell';
    if (INTERPRETERS.test(program)) return 'code';
  }
  return undefined;
}
const INTERPRETERS = /^(python|pypy|node|nodejs|bun|deno|tsx|ts-node|perl|ruby)[0-9.]*$/u;

/** The language of the interpreter a command's standard input goes to, if one does. */
function stdinLanguage(command: readonly string[]): ProgramLanguage | undefined {
  for (let index = programOf(command).at; index < command.length; index++) {
    const program = path.basename(unmark(command[index]!));
    if (INTERPRETERS.test(program)) return programLanguage(program);
  }
  return undefined;
}

/** Why an inline program's call that runs what it computes is unresolved. */
const COMPUTED_RUN = 'an inline program runs a file or a command whose name it computes, which zotbox cannot tell in advance';

/** A command and every command after it in its pipeline (what it writes flows to each). */
function pipelineFrom(command: string[], notes: LexNotes): string[][] {
  const chain = [command];
  for (let guard = 0; guard < 64; guard++) {
    const next = [...notes.pipes].find(([, producer]) => producer === chain.at(-1))?.[0];
    if (next === undefined || chain.includes(next)) break;
    chain.push(next);
  }
  return chain;
}

/** The command substitutions of a here-document body the shell expands ($(...) and `...`, not \$ nor $((...))). */
function commandSubstitutions(body: string): string[] {
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

/**
 * The variables whose value a script runs: named in a word that is run or sourced (or an interpreter's script), in
 * shell text a word holds, in an argument of one of the script's own functions or of a shell's -c script, in what is
 * piped into a shell; and through assignments (`x=$f; sh "$x"` runs f). `for f do` loops over the positional
 * parameters ("@"). Read over the script, its command substitutions and the here-documents a shell reads.
 */
function variablesRun(text: string): Set<string> {
  const run = new Set<string>();
  const flows = new Map<string, Set<string>>();
  const functions = new Set([...text.matchAll(/(?:^|[\s;&|(])(?:function\s+([A-Za-z_][\w.-]*)|([A-Za-z_][\w.-]*)\s*\(\s*\))/gu)].map((m) => m[1] ?? m[2]!));
  const visit = (body: string, depth: number) => {
    const expansions: string[] = [];
    const notes: LexNotes = { hereDocuments: [], pipes: new Map(), unclosed: false };
    const named = (word: string) =>
      Array.from(word.matchAll(/[\uE000-\uEFFF]/gu), (m) => m[0]).flatMap((ch) => {
        const expansion = expansions[ch.charCodeAt(0) - EXPANSION_BASE];
        if (expansion === undefined) return [];
        return [...expansion.matchAll(/\$\{?#?([A-Za-z_][A-Za-z0-9_]*|[0-9@*])/gu)].map((m) => (/^[0-9@*]$/u.test(m[1]!) ? POSITIONAL_NAME : m[1]!));
      });
    const commands = lexShell(body, expansions, undefined, notes);
    for (const command of commands) {
      if (command[0] === CASE_PATTERN) continue;
      const { at, runsAt, scripts } = commandReading(command, true);
      const words = command.map(unmark);
      const runs = new Set([...runsAt, ...scripts.keys()]);
      // The arguments of a function of the script's, of a shell's -c script ($1...), of what is piped into a shell.
      const after = (from: number) => command.forEach((_, index) => index > from && runs.add(index));
      if (functions.has(words[at] ?? '')) after(at);
      for (const index of scripts.keys()) if (SHELLS.has(path.basename(words[at] ?? ''))) after(index);
      for (const [consumer, producer] of notes.pipes) if (producer === command && stdinReader(consumer) === 'shell') after(-1);
      for (const index of runs) for (const name of named(command[index] ?? '')) run.add(name);
      for (const [index, word] of command.entries()) {
        const assignment = ASSIGNMENT.exec(word);
        if (assignment !== null && (index < at || DECLARERS.has(words[at] ?? ''))) flows.set(assignment[1]!, new Set([...(flows.get(assignment[1]!) ?? []), ...named(assignment[3]!)]));
      }
      if ((words[0] === 'for' || words[0] === 'select') && words[1] !== undefined && words[2] !== 'in') flows.set(words[1], new Set([...(flows.get(words[1]) ?? []), POSITIONAL_NAME]));
      if (depth < 4) for (const script of scripts.values()) visit(script, depth + 1);
    }
    for (const document of notes.hereDocuments) {
      if (depth >= 4) continue;
      if (pipelineFrom(document.command, notes).some((command) => stdinReader(command) === 'shell')) visit(document.body, depth + 1);
      if (document.expanded) for (const inner of commandSubstitutions(document.body)) visit(inner, depth + 1);
    }
    if (depth < 4) for (const expansion of expansions) if (/^(\$\(|`)/u.test(expansion)) visit(expansion.replace(/^\$\(|^`|\)$|`$/gu, ''), depth + 1);
  };
  visit(text, 0);
  // A variable set from another that is run runs the other's value too.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, sources] of flows)
      for (const source of sources)
        if (run.has(name) && !run.has(source)) {
          run.add(source);
          changed = true;
        }
  }
  return run;
}

/**
 * find's starting points when it runs what it finds (`-exec {} ;`, `-exec sh {} ;`, `-execdir python3 {} +`): every
 * file below them may be run. A program given the files as data (`-exec black {} +`) runs none of them.
 */
function findStarts(command: readonly string[], at: number): string[] {
  const words = command.slice(at + 1).map(unmark);
  const runsFound = words.some((word, index) => {
    if (!/^-(exec|execdir|ok|okdir)$/u.test(word)) return false;
    const end = words.findIndex((w, i) => i > index && (w === ';' || w === '+'));
    const executed = words.slice(index + 1, end === -1 ? undefined : end);
    if (executed[0] === '{}') return true;
    const operand = interpreterReading(path.basename(executed[0] ?? ''), executed.slice(1)).operand;
    return operand !== undefined && executed[1 + operand] === '{}';
  });
  if (!runsFound) return [];
  const end = words.findIndex((word) => word.startsWith('-') || word === '(' || word === '!');
  return command.slice(at + 1, at + 1 + (end === -1 ? words.length : end));
}

/**
 * Every file a command value may name, as git runs it: through a shell (`shell`, the default: "!" aliases, editors,
 * pagers, drivers, helpers, fsmonitor), or split as git splits a plain alias (no expansion). Every word counts, with
 * or without a "/" (an interpreter's argument, "sh fsmon.sh", names a file relative to where git runs it), and so does
 * each part of it between "=", ":" and ","; so do the files an interpreter runs for a module or a directory
 * (`python3 -m tools.fsmon`: tools/fsmon.py...). A shell script handed to "sh -c" or "eval" is read the same way. A word
 * whose expansion cannot be known before git runs it ($X, $(cmd), `cmd`, ~user, a pattern with no fixed directory)
 * comes back unresolved; "$HOME/…", "~/…", "$PWD/…", "$(pwd)/…" and "$(git rev-parse --show-toplevel)/…" are known.
 * With `script`, the text is a whole script (scriptWords).
 */
export function commandWords(value: string, mode: 'shell' | 'git' = 'shell', script?: ScriptContext): CommandWord[] {
  const out: CommandWord[] = [];
  const expansions: string[] = [];
  const seen = new Set<string>();
  const assignments = script === undefined ? undefined : assignmentsOf(value);
  const substitute = script === undefined || assignments === undefined ? undefined : scriptSubstitute(script, assignments);
  // The variables whose value the script runs (a loop's list is run only through them).
  const runVariables = script === undefined ? new Set<string>() : variablesRun(value);
  // Directories a "cd" in the command moved to: later relative words are relative to them too.
  const moved: { readonly text: string; readonly anchor: 'plain' | 'home' | 'top' }[] = [];
  const parts = (word: string, runs: boolean) => {
    // The test command's brackets are no pattern; in a script, a URL is no file.
    if (/^(\uF003|\uF003\uF003|\]|\]\])$/u.test(word) || (script !== undefined && /^[a-z][\w+.-]*:\/\//iu.test(word))) return;
    // An option's value is a file too (--config=x, a:b): the parts between "=", ":" and ","; outside a script, a value
    // with blanks may be a command of its own. In a script the shell has split the words: a quoted one is one argument.
    for (const part of new Set([word, ...word.split(script === undefined ? /[\s"'`;|&()<>{}=,:!]+/u : /[=,:]+/u)])) {
      const key = `${moved.length}\u0000${runs}\u0000${part}`;
      if (part === '' || seen.has(key)) continue;
      // A builtin or keyword run as a command is the shell's own: no file.
      if (script !== undefined && runs && part === word && BUILTINS.has(unmark(word))) continue;
      seen.add(key);
      // A line the script reads (`… | while read f; do sh "$f"`), run: anything the input holds.
      const variable = /^[\uE000-\uEFFF]$/u.test(part) ? variableOf(expansions[part.charCodeAt(0) - EXPANSION_BASE] ?? '') : undefined;
      if (runs && variable !== undefined && assignments?.lines.has(variable) === true) {
        out.push({ kind: 'unresolved', text: unmark(expansions[part.charCodeAt(0) - EXPANSION_BASE]!), why: 'it runs a line of input the script reads' });
        continue;
      }
      const from = out.length;
      resolvePart(part, expansions, { shell: mode === 'shell', script: script !== undefined, runs }, out);
      for (const found of out.slice(from)) {
        if (found.kind !== 'path') continue;
        if (runs && part === word && script !== undefined) out[out.indexOf(found)] = { ...found, runs: true };
        if (found.anchor !== 'plain' || path.isAbsolute(found.text)) continue;
        for (const directory of moved)
          out.push({ ...found, text: path.join(directory.text, found.text), anchor: directory.anchor, ...(runs && part === word && script !== undefined ? { runs: true as const } : {}) });
      }
    }
  };
  const changeDirectory = (command: readonly string[]) => {
    // `cd -` goes to $OLDPWD: one the script sets, or the one an earlier cd left (already counted: relative words are
    // kept from each directory moved to); before any cd, the directory the shell was started from, which zotbox cannot tell.
    if (command.slice(1).includes('-')) {
      const previous = substitute?.('$OLDPWD');
      if (previous !== undefined && previous !== '' && previous !== script?.environment['OLDPWD']) return changeDirectory(['cd', previous]);
      if (moved.length === 0 && script !== undefined) out.push({ kind: 'unresolved', text: 'cd -', why: 'it goes back to the directory the shell started from, which zotbox cannot tell' });
      return moved.length;
    }
    const target = command.slice(1).find((word) => !word.startsWith('-'));
    if (target === undefined) return moved.push({ text: '', anchor: 'home' });
    const resolved: CommandWord[] = [];
    resolvePart(target, expansions, { shell: true, script: false, runs: false }, resolved);
    // An unresolved target is already reported as a word of the command (in a script, where a lone variable is not, here).
    for (const found of resolved) {
      if (found.kind === 'path') moved.push({ text: found.text, anchor: found.anchor });
      else if (script !== undefined) out.push({ ...found, why: `${found.why}, and the words after this cd are relative to it` });
    }
    return moved.length;
  };
  const read = (text: string, depth: number) => {
    const notes: LexNotes = { hereDocuments: [], pipes: new Map(), unclosed: false };
    const commands = lexShell(text, expansions, substitute, notes);
    if (notes.unclosed && script !== undefined)
      out.push({ kind: 'unresolved', text: text.length > 60 ? `${text.slice(0, 57)}...` : text, why: 'a quote is never closed, so zotbox cannot tell where its words end' });
    for (const command of commands) {
      // A case pattern list is matched against the case word: data, no file run.
      if (command[0] === CASE_PATTERN) {
        for (const word of command.slice(1)) parts(word, false);
        continue;
      }
      const { at, chdir, names, computed, runsAt, scripts, starts } = commandReading(command, script !== undefined);
      for (const call of computed) out.push({ kind: 'unresolved', text: call, why: COMPUTED_RUN });
      if (chdir !== undefined) changeDirectory(['cd', chdir]);
      for (const start of starts) parts(`${start.replace(/\/+$/u, '')}/\uF001`, true);
      // A list the script loops over or keeps as its positional parameters (`for f in scripts/*.sh`, `set -- dir/*.sh`
      // and `for f do`): run when what it holds is run, data when the loop only passes "$f" to programs.
      if (script !== undefined) for (const index of listWords(command, at, runVariables)) runsAt.add(index);
      // A shell or interpreter reading its program from a pipe runs what the command before it writes.
      if (script !== undefined) pipedProgram(command, notes, depth);
      command.forEach((word, index) => {
        // find's `{}` is each file it finds: covered by its starting points when it runs them.
        if (starts.length > 0 && unmark(word) === '{}') return;
        const scriptFollows = scripts.has(index);
        parts(word, runsAt.has(index) || (scriptFollows && script !== undefined));
        if (scriptFollows && depth < 4) read(scripts.get(index)!, depth + 1);
      });
      for (const name of names) parts(name.tree ? `${name.text}/\uF001` : name.text, name.tree);
      if (['cd', 'pushd'].includes(unmark(command[at] ?? ''))) changeDirectory(command.slice(at));
    }
    // A here-document's (or here-string's) body is the text its command reads, or a command it pipes into: shell
    // text for a shell, a program for an interpreter (what it imports or requires runs), data for anything else; an
    // unquoted delimiter lets the shell run the body's command substitutions whoever reads it.
    for (const { command, body, expanded } of notes.hereDocuments) {
      if (script === undefined) continue;
      if (expanded && depth < 4) for (const inner of commandSubstitutions(body)) read(inner, depth + 1);
      const kinds = pipelineFrom(command, notes).map(stdinReader);
      if (kinds.includes('shell')) {
        if (depth < 4) read(body, depth + 1);
      } else if (kinds.includes('code')) {
        const program = inlineProgram(
          [],
          body,
          pipelineFrom(command, notes)
            .map(stdinLanguage)
            .find((language) => language !== undefined),
        );
        for (const name of program.names) parts(name.tree ? `${name.text}/\uF001` : name.text, name.tree);
        for (const call of program.computed ?? []) out.push({ kind: 'unresolved', text: call, why: COMPUTED_RUN });
      }
    }
  };
  // What a shell reading a pipe runs: the text an echo or printf writes, read as the script; a here-document's is read
  // with the here-documents; anything else (`curl … | sh`, `git diff | xargs sh`) cannot be told.
  const pipedProgram = (command: readonly string[], notes: LexNotes, depth: number) => {
    const producer = notes.pipes.get(command as string[]);
    // A shell given its script by -c (`xargs bash -c '…'`) reads that script, read as its words are.
    if (producer === undefined || stdinReader(command) !== 'shell' || commandStrings(command.map(unmark)).size > 0) return;
    if (notes.hereDocuments.some((document) => pipelineFrom(document.command, notes).includes(command as string[]))) return;
    const { at } = programOf(producer);
    const program = unmark(producer[at] ?? '');
    const args = producer.slice(at + 1);
    if (program === 'echo' && !args.some((arg) => unmark(arg).startsWith('-'))) return read(args.join(' '), depth + 1);
    if (program === 'printf' && args.length === 1 && !/[%\\]/u.test(args[0]!)) return read(args[0]!, depth + 1);
    out.push({ kind: 'unresolved', text: unmark(producer.join(' ')), why: 'a shell runs what this command writes, which zotbox cannot tell' });
  };
  if (mode === 'git') {
    for (const word of lexShell(
      value.replace(/[$`*?[{~]/gu, (c) => `\\${c}`),
      expansions,
    ).flat())
      if (word !== CASE_PATTERN) parts(word, false);
  } else read(value, 0);
  // A command substitution a script uses runs too: its words are the script's words.
  if (script !== undefined) for (let i = 0; i < expansions.length && i < 256; i++) if (/^(\$\(|`)/u.test(expansions[i]!)) read(expansions[i]!.replace(/^\$\(|^`|\)$|`$/gu, ''), 1);
  const unique = new Map(out.map((word) => [JSON.stringify(word.kind === 'path' ? [word.anchor, word.text, word.tree, word.runs ?? false] : [word.text]), word]));
  return [...unique.values()];
}

/** What a script sets its variables to: each assignment's value words (expansions as placeholders into `expansions`). */
interface Assignments {
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** Loop variables and what `read` sets: the words of a list or a line of input, never spelled out. */
  readonly unknown: ReadonlySet<string>;
  /** What `read` sets: a line of input, anything. */
  readonly lines: ReadonlySet<string>;
  readonly expansions: readonly string[];
}

const DECLARERS = new Set(['export', 'local', 'readonly', 'declare', 'typeset']);

function assignmentsOf(text: string): Assignments {
  const expansions: string[] = [];
  const values = new Map<string, string[]>();
  const unknown = new Set<string>();
  const lines = new Set<string>();
  for (const command of lexShell(text, expansions)) {
    const words = command.map(unmark);
    if ((words[0] === 'for' || words[0] === 'select') && words[1] !== undefined) unknown.add(words[1]);
    const read = words.indexOf('read');
    if (read !== -1)
      for (const name of words.slice(read + 1))
        if (/^[A-Za-z_][A-Za-z0-9_]*$/u.test(name)) {
          unknown.add(name);
          lines.add(name);
        }
    for (const [index, word] of command.entries()) {
      const assignment = ASSIGNMENT.exec(word);
      if (assignment === null || !(index === 0 || DECLARERS.has(words[0]!) || ASSIGNMENT.test(unmark(command[index - 1]!)))) continue;
      const [, name, append, value] = assignment;
      if (append === '+') unknown.add(name!);
      else values.set(name!, [...(values.get(name!) ?? []), value!]);
    }
  }
  return { values, unknown, lines, expansions };
}

/** The script's own directory, as scripts spell it ("$(dirname -- "$0")", "${0%/*}", "$(cd "$(dirname "$0")" && pwd)"). */
const SCRIPT_DIRECTORY =
  /^(?:\$\(\s*(?:cd\s+"?)?\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)"?\s*(?:&&\s*pwd\s*)?\)|\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)|`dirname\s+(?:--\s+)?"?\$(?:0|\{0\})"?`|\$\{0%\/\*\})$/u;
/** More spellings of the script's own directory: ${BASH_SOURCE%/*}, $(dirname "$(readlink -f "$0")"), $(dirname "$(realpath "$0")"). */
const SCRIPT_DIRECTORY_MORE =
  /^(?:\$\{(?:0|BASH_SOURCE(?:\[0\])?)%\/\*\}|\$\(\s*(?:cd\s+"?)?\$\(\s*dirname\s+(?:--\s+)?"\$\(\s*(?:readlink\s+-[a-z]*f|realpath)\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\})"?\s*\)"\s*\)"?\s*(?:&&\s*pwd\s*)?\)|\$\(\s*dirname\s+(?:--\s+)?"\$\(\s*(?:readlink\s+-[a-z]*f|realpath)\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\})"?\s*\)"\s*\))$/u;
const SCRIPT_PARENT = /^\$\(\s*dirname\s+(?:--\s+)?"\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\})"?\s*\)"\s*\)$/u;

/** Script mode: what an expansion is, where it can be told now (undefined: it cannot be). */
function scriptSubstitute(script: ScriptContext, assignments: Assignments): Substitute {
  const resolving = new Set<string>();
  // A variable the script sets: its value spelled out when every assignment spells out the same (a loop's, a
  // command's output: never).
  const assigned = (name: string): string | undefined => {
    const values = assignments.values.get(name)!;
    if (assignments.unknown.has(name) || resolving.has(name)) return undefined;
    resolving.add(name);
    // An assignment's value is not matched as a pattern (X=dir/*.sh holds the text): where it is expanded decides.
    const spelled = values.map((value) =>
      spelledOut(
        unmark(value).replace(/[\uE000-\uEFFF]/gu, (ch) => assignments.expansions[ch.charCodeAt(0) - EXPANSION_BASE] ?? ch),
        substitute,
      ),
    );
    resolving.delete(name);
    return spelled.every((value) => value !== undefined && value === spelled[0]) ? spelled[0] : undefined;
  };
  const valueOf = (name: string): string | undefined => {
    if (assignments.values.has(name)) return assigned(name);
    // A variable the environment does not hold now may hold anything when the script runs: left for resolvePart.
    return assignments.unknown.has(name) ? undefined : script.environment[name];
  };
  const substitute: Substitute = (expansion) => {
    if (SCRIPT_DIRECTORY.test(expansion) || SCRIPT_DIRECTORY_MORE.test(expansion)) return script.scriptDirectory;
    // $0: the script's own file (`exec "$0.local"`, a hook's chained local copy).
    if ((expansion === '$0' || expansion === '${0}') && script.scriptFile !== undefined) return script.scriptFile;
    if (SCRIPT_PARENT.test(expansion)) return path.dirname(script.scriptDirectory);
    const directory = pathSubstitution(expansion, substitute);
    if (directory !== undefined) return directory;
    // $PWD is where the shell is now: "." after each cd (relative words are taken from every directory moved to).
    if (/^(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)$/u.test(expansion)) return '.';
    if (TOP_EXPANSIONS.has(expansion)) return script.workingDirectory;
    const name = variableOf(expansion);
    if (name === undefined || POSITIONAL.test(expansion)) return undefined;
    if (/^\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})$/u.test(expansion)) return valueOf(name);
    // ${X:-word}, ${X-word}, ${X:=word}, ${X=word}: the value when set, else the word; ${X:+word}: the word or nothing.
    const operator = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-=+])(.*)\}$/su.exec(expansion);
    if (operator === null) return undefined;
    const [, kind, word] = operator;
    if (kind!.endsWith('+')) return spelledOut(word!, substitute);
    const value = assignments.values.has(name) || assignments.unknown.has(name) ? valueOf(name) : script.environment[name];
    if (value !== undefined && (value !== '' || !kind!.startsWith(':'))) return value;
    if (assignments.values.has(name) || assignments.unknown.has(name)) return undefined;
    return spelledOut(word!, substitute);
  };
  return substitute;
}

/** Redirections of a directory-finding command's chatter (`cd DIR >/dev/null 2>&1 && pwd`). */
const QUIET = String.raw`(?:\s+(?:[12&]?>>?\s*/dev/null|[12]>&[12]))*`;
// The operand as written, quotes and inner expansions included (spelledOut reads it): up to the redirections and `&&`.
const OPERAND = String.raw`(?:--\s+)?([^\s'&;|<>][^'&;|<>]*?)`;
const CD_PWD = new RegExp(String.raw`^(?:builtin\s+)?cd\s+(?:-[PL]\s+)?${OPERAND}${QUIET}\s*&&\s*pwd(?:\s+-[PL])?${QUIET}$`, 'su');
const DIRNAME = new RegExp(String.raw`^(dirname|realpath(?:\s+-[a-zA-Z]+)*|readlink\s+-[a-z]*f[a-z]*)\s+${OPERAND}$`, 'su');

/**
 * A command substitution that names a directory computed from a known path: `$(cd DIR && pwd)` (the repository's
 * top as "$(cd "$(dirname "$0")/../.." && pwd)"), `$(dirname WORD)`, `$(realpath WORD)`, `$(readlink -f WORD)`; the
 * absolute path when WORD spells out to one, else undefined (left unresolved).
 */
function pathSubstitution(expansion: string, substitute: Substitute): string | undefined {
  const inner = (/^\$\((.*)\)$/su.exec(expansion) ?? /^`(.*)`$/su.exec(expansion))?.[1]?.trim();
  if (inner === undefined) return undefined;
  const cd = CD_PWD.exec(inner);
  const other = cd === null ? DIRNAME.exec(inner) : null;
  const word = cd?.[1] ?? other?.[2];
  if (word === undefined) return undefined;
  const value = spelledOut(word, substitute);
  if (value === undefined || !path.isAbsolute(value)) return undefined;
  return other?.[1] === 'dirname' ? path.dirname(path.normalize(value)) : path.normalize(value);
}

/** A default word with its own expansions spelled out, or undefined when one of them cannot be. */
function spelledOut(word: string, substitute: Substitute): string | undefined {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    if (word[i] !== '$' && word[i] !== '`') {
      out += word[i]!.replace(/^["']$/u, '');
      continue;
    }
    const end = expansionEnd(word, i);
    if (end === i + 1) {
      out += word[i]!;
      continue;
    }
    const value = substitute(word.slice(i, end));
    if (value === undefined) return undefined;
    out += value;
    i = end - 1;
  }
  return out;
}

/**
 * The directories an assignment in a script puts on a search path (every entry of a search-path variable but the
 * variable's own earlier value), whole; the project's dependencies (`node_modules/.bin`) are theirs, as by hand.
 */
export function searchPathNames(word: string): InterpreterName[] {
  const assignment = ASSIGNMENT.exec(word);
  if (assignment === null || !SEARCH_VARIABLES.test(assignment[1]!) || DATA_VARIABLES.test(assignment[1]!)) return [];
  return assignment[3]!
    .split(':')
    .filter((entry) => entry !== '' && !/[\uE000-\uEFFF]/u.test(entry) && !entry.split('/').includes('node_modules'))
    .map((entry) => ({ text: entry, tree: true }));
}

/**
 * The words of a command that hold shell text of their own, by index, with that text: the script of a shell's -c at
 * any word (`timeout 5 bash -c -- SCRIPT`), eval's words, trap's action, flock's and su's -c, env's -S line, an alias
 * definition's body, a git -c value (an alias or a command git runs).
 */
function commandStrings(words: readonly string[]): Map<number, string> {
  const found = new Map<number, string>();
  // From the first word: a wrapper before the program holds one too (env -S "sh x").
  for (let index = 0; index < words.length; index++) {
    const program = path.basename(words[index]!);
    const after = (test: (word: string) => boolean) => {
      const option = words.findIndex((word, i) => i > index && test(word));
      if (option === -1) return;
      const script = words[option + 1] === '--' ? option + 2 : option + 1;
      if (script < words.length) found.set(script, words[script]!);
    };
    if (SHELLS.has(program) && program !== 'eval') after((word) => /^-[a-z]*c[a-z]*$/u.test(word));
    else if (program === 'eval') for (let i = index + 1; i < words.length; i++) found.set(i, words[i]!);
    else if (program === 'trap' && index + 1 < words.length) found.set(index + 1, words[index + 1]!);
    else if (['flock', 'su', 'runuser'].includes(program)) after((word) => word === '-c' || word === '--command');
    else if (program === 'env') after((word) => word === '-S' || word === '--split-string');
    else if (program === 'alias')
      for (let i = index + 1; i < words.length; i++) {
        const body = /^[^=]+=(.*)$/su.exec(words[i]!)?.[1];
        if (body !== undefined) found.set(i, body);
      }
    else if (program === 'git')
      for (let i = index + 1; i < words.length - 1; i++) {
        const value = words[i] === '-c' ? /^[^=]+=(.*)$/su.exec(words[i + 1]!)?.[1] : undefined;
        if (value !== undefined) found.set(i + 1, value.replace(/^\s*!/u, ''));
      }
  }
  return found;
}

/**
 * The program a `#!` line runs, from the interpreter's path and the rest of the line: through env, past its options
 * (`-S`/`--split-string` splits the rest into env's words again, `-u NAME` and `-C DIR` take a value) and its
 * NAME=VALUE assignments (`#!/usr/bin/env -S LC_ALL=C bash` runs bash).
 */
export function shebangProgram(interpreter: string, rest: string): string {
  if (path.basename(interpreter) !== 'env') return path.basename(interpreter);
  const words = rest
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '' && word !== '-S' && word !== '--split-string')
    .map((word) => word.replace(/^(-S|--split-string=)(?=.)/u, ''));
  const { at } = programOf(['env', ...words]);
  return path.basename(at === 0 ? '' : (['env', ...words][at] ?? ''));
}

/** The words of a whole script a tool runs (a hook, a script a hook names), read where it runs. */
export function scriptWords(text: string, script: ScriptContext): CommandWord[] {
  return commandWords(text, 'shell', script);
}
