// The command words a shell text runs in its own shell, by the shell's grammar: at each level (the top, each function
// body) the words in command position, with quotes and escapes as the shell reads them, past assignments,
// redirections, keywords and wrappers (`builtin`, `command -p`, `time -p`, `exec`, `nohup`); a subshell, a command
// substitution, an arithmetic expansion, a here-document's body and a comment hold none of the level's. Function
// definitions (`name()`, `function name`) give their body a level of its own, nested ones flattened; a group `{ …; }`
// is part of its level; a name defined twice has both bodies in its level. Pure. Undefined where the text cannot be
// taken apart: a quote, a bracket, a body or a here-document never closed.
import { ansiDecoded, expansionEnd, hereDocumentDelimiter } from './shell-lexer.js';

/** One level: its command words, all its words, and its text (outside what holds none of its commands). */
export interface Level {
  readonly commands: string[];
  /** Every word, and each assignment's value: a name handed on (`run up`, `fn=up`) may be run by another. */
  readonly words: string[];
  /** Each cd, pushd and popd among `commands`, in order, with its first operand as written (quotes kept), or ''. */
  readonly movers: { readonly command: string; operand: string }[];
  /** The command words with a value zotbox does not spell out (`$C`, `"$@"`, `${CD:-cd}`), as written. */
  readonly computed: string[];
  text: string;
}

export interface CommandPositions {
  readonly top: Level;
  readonly bodies: Map<string, Level>;
}

/** Words after which the next word is still in command position. */
const KEYWORDS = new Set(['then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', 'time', 'builtin', 'command', 'exec', 'nohup', '{']);
/** Commands whose arguments are names they list, print or undefine, never run. */
const LISTS_ONLY = new Set(['unset', 'type', 'declare', 'typeset', 'local', 'export', 'readonly', 'echo', 'printf', 'hash', 'alias', 'unalias']);
/** A function definition at a command's start: `name() BODY` or `function name [()] BODY`. */
const DEFINITION = /(?:function\s+([^\s(){}<>;&|=$`'"\\]+)(?:\s*\(\s*\))?|([^\s(){}<>;&|=$`'"\\]+)\s*\(\s*\))\s*(?:\n\s*)*/uy;
/** The commands that move the shell they run in. */
export const MOVERS: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);
/** A redirection operator with its descriptor (`2>`, `{fd}>`, `&>>`, `>|`, `<&`), alone or with its target after it. */
const REDIRECTION = /^(?:\d+|\{[A-Za-z_]\w*\})?(?:>\||[<>]&|<>|&>>?|[<>]{1,2})/u;
/** What a word may be before a `<` or `>` and still be that redirection's (`2`, `{fd}`, the `&` of `&>`, the first `>` of `>>`). */
const REDIRECTION_START = /^(?:\d*|&|\{[A-Za-z_]\w*\})[<>]?$/u;
const ASSIGNMENT = /^[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=/u;

class Unclosed extends Error {}

/** Where a single-quoted string opened at `start` ends. */
function singleQuoteEnd(text: string, start: number): number {
  const end = text.indexOf("'", start + 1);
  if (end < 0) throw new Unclosed();
  return end;
}

/** Where `$'…'` (ANSI-C quoting) opened at `start` (its `$`) ends: a backslash escapes a quote there. */
function ansiQuoteEnd(text: string, start: number): number {
  for (let i = start + 2; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i;
  }
  throw new Unclosed();
}

/** Where a double-quoted string, a backquote or `${…}` opened at `start` ends (nested substitutions skipped). */
function delimitedEnd(text: string, start: number): number {
  const close = text[start] === '{' ? '}' : text[start]!;
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') i++;
    else if (ch === close) return i;
    else if (close !== '`' && ch === '$' && text[i + 1] === '(') i = substitutionEnd(text, i + 1);
    else if (close !== '`' && ch === '$' && text[i + 1] === '{') i = delimitedEnd(text, i + 1);
    else if (close !== '`' && ch === '`') i = delimitedEnd(text, i);
    else if (close === '}' && ch === '"') i = delimitedEnd(text, i);
    else if (close === '}' && ch === "'") i = singleQuoteEnd(text, i);
  }
  throw new Unclosed();
}

/** Where `(…)` opened at `start` ends: `((…))` arithmetic counted by parentheses, else shell code to its `)`. */
function substitutionEnd(text: string, start: number): number {
  if (text[start + 1] === '(') {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) return i;
    }
    throw new Unclosed();
  }
  return readLevel(text, start + 1, ')', new Map()).end;
}

/** Skips the bodies of the here-documents pending at the newline at `at`; where the last ends. */
function skipHereDocuments(text: string, at: number, pending: { readonly delimiter: string; readonly stripTabs: boolean }[]): number {
  let line = at;
  for (const { delimiter, stripTabs } of pending.splice(0)) {
    for (;;) {
      if (line >= text.length) throw new Unclosed();
      const next = text.indexOf('\n', line + 1);
      const body = text.slice(line + 1, next < 0 ? text.length : next);
      line = next < 0 ? text.length : next;
      if ((stripTabs ? body.replace(/^\t+/u, '') : body) === delimiter) break;
    }
  }
  return line;
}

/**
 * Reads shell code from `start` to `closer` (`)` for a subshell, `}` for a body or group at a command's start, '' for
 * the end of the text): the level's commands, and its functions' bodies into `bodies`.
 */
function readLevel(text: string, start: number, closer: ')' | '}' | '', bodies: Map<string, Level>): { readonly end: number; readonly level: Level } {
  const level: Level = { commands: [], words: [], movers: [], computed: [], text: '' };
  const pending: { delimiter: string; stripTabs: boolean }[] = [];
  let atCommand = true;
  let word = '';
  // The word as written (quotes and substitutions kept): a cd's operand is judged by it (placeChangesOf).
  let written = '';
  // In an object: the closures below change it, which the compiler's narrowing of a plain `let` does not see.
  // `moverOperand`: the last command is a cd, pushd or popd whose operand is still to come.
  // `cases`: case statements open; `inPattern`: in a pattern list (after `in`, `;;`, `;&`, `;;&`, up to its `)`).
  const state = { inWord: false, redirectTarget: false, moverOperand: false, cases: 0, inPattern: false };
  const endWord = () => {
    if (!state.inWord) return;
    state.inWord = false;
    // A case pattern is matched against the case word: data, no command (`"$PREFIX"*)`); `esac` ends the statement.
    if (state.inPattern || (atCommand && word === 'esac' && state.cases > 0)) {
      if (word === 'esac') {
        state.cases--;
        state.inPattern = false;
        atCommand = false;
      }
      word = '';
      written = '';
      return;
    }
    if (!atCommand && word === 'in' && level.commands.at(-1) === 'case') {
      state.cases++;
      state.inPattern = true;
    }
    // Words a command only lists or prints (`unset -f a b`, `echo a`) hand nothing on to be run.
    if (!atCommand && !LISTS_ONLY.has(level.commands.at(-1) ?? '')) level.words.push(word, word.replace(ASSIGNMENT, ''));
    else if (atCommand) level.words.push(word.replace(ASSIGNMENT, ''));
    if (state.redirectTarget) state.redirectTarget = false;
    else if (REDIRECTION.test(word)) {
      // A redirection: with its target in the word, or the next word; either way the next word is still the command's.
      if (REDIRECTION.exec(word)![0] === word) state.redirectTarget = true;
    } else if (atCommand && ASSIGNMENT.test(word)) {
      // an assignment before the command: the next word is still the command
    } else if (atCommand && word.startsWith('-') && KEYWORDS.has(level.commands.at(-1) ?? '')) {
      // A wrapper's options (`command -p`, `time -p`) come before the command it runs.
    } else if (atCommand) {
      level.commands.push(word);
      if (/[$`]/u.test(word)) level.computed.push(written);
      atCommand = KEYWORDS.has(word);
      if (MOVERS.has(word)) {
        level.movers.push({ command: word, operand: '' });
        state.moverOperand = true;
      }
    } else if (state.moverOperand && !(word.startsWith('-') && word !== '-')) {
      level.movers.at(-1)!.operand = written;
      state.moverOperand = false;
    }
    word = '';
    written = '';
  };
  const add = (raw: string, asWord: string, asWritten = raw) => {
    level.text += raw;
    word += asWord;
    written += asWritten;
    state.inWord = true;
  };
  // Ends the word in a pattern list; whether the list goes on (no `esac` ended the statement).
  const endsWordInPattern = (): boolean => {
    endWord();
    return state.inPattern;
  };
  // A command's end: a cd with no operand yet has none.
  const endCommand = () => {
    endWord();
    state.moverOperand = false;
  };
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (!state.inWord && atCommand && !state.redirectTarget) {
      // Sticky: matched where the command starts, without copying the rest of the text.
      DEFINITION.lastIndex = i;
      const definition = DEFINITION.exec(text);
      const opener = definition === null ? undefined : text[i + definition[0].length];
      if (definition !== null && (opener === '{' || opener === '(')) {
        const bodyStart = i + definition[0].length;
        const body = readLevel(text, bodyStart + 1, opener === '{' ? '}' : ')', bodies);
        // A body in parentheses runs in a subshell of its own: calling it never moves the caller. A name defined again
        // keeps both bodies: a call between the two ran the first.
        const name = definition[1] ?? definition[2]!;
        const defined = opener === '{' ? body.level : { commands: [], words: [], movers: [], computed: [], text: '' };
        const earlier = bodies.get(name);
        bodies.set(
          name,
          earlier === undefined
            ? defined
            : {
                commands: [...earlier.commands, ...defined.commands],
                words: [...earlier.words, ...defined.words],
                movers: [...earlier.movers, ...defined.movers],
                computed: [...earlier.computed, ...defined.computed],
                text: `${earlier.text};${defined.text}`,
              },
        );
        level.text += ' ';
        i = body.end;
        atCommand = false;
        continue;
      }
    }
    if (ch === '\\') {
      // A line continuation joins; an escaped character is itself (`\cd` is cd, `\ ` a blank in a word).
      if (text[i + 1] !== '\n') add(text.slice(i, i + 2), text[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '#' && !state.inWord) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
      continue;
    }
    if (ch === '\n' && pending.length > 0) {
      endCommand();
      i = skipHereDocuments(text, i, pending);
      level.text += '\n';
      atCommand = true;
      continue;
    }
    if (state.inPattern && (ch === '(' || ch === '|' || ch === ')' || ch === '\n')) {
      // A pattern list's optional `(`, its `|`, its end `)`: the branch's commands follow.
      // An `esac` that ended the statement: the character is read as anywhere else (a `)` may close a substitution).
      if (endsWordInPattern()) {
        level.text += ch === ')' ? ';' : ' ';
        if (ch === ')') {
          state.inPattern = false;
          atCommand = true;
        }
        continue;
      }
    }
    if (ch === ';' && (text[i + 1] === ';' || text[i + 1] === '&') && state.cases > 0) {
      // `;;`, `;&`, `;;&` end a branch: a pattern list (or esac) follows.
      endCommand();
      level.text += ';';
      i += text[i + 1] === ';' && text[i + 2] === '&' ? 2 : 1;
      state.inPattern = true;
      atCommand = true;
      continue;
    }
    if (closer === ')' && ch === ')') {
      endWord();
      return { end: i, level };
    }
    if (closer === '}' && ch === '}' && !state.inWord && atCommand) return { end: i, level };
    if (ch === '<' && text[i + 1] === '<' && text[i + 2] !== '<' && text[i - 1] !== '<') {
      // The delimiter as the shell takes it, parts quoted or not joined (`<<E'O'F` is EOF), as the lexer reads it.
      const here = hereDocumentDelimiter(text, i + 2);
      if (here.delimiter !== '' || here.quoted) {
        endWord();
        pending.push({ delimiter: here.delimiter, stripTabs: here.tabs });
        level.text += ' ';
        i = here.end - 1;
        continue;
      }
    }
    // $"…" is its text (a translated string).
    if (ch === '$' && text[i + 1] === '"') continue;
    if (ch === '$' && text[i + 1] === '[') {
      // $[…]: bash's old arithmetic (`$[1<<2]`), a value; no here-document in it.
      const end = expansionEnd(text, i);
      add(' ', '$', text.slice(i, end));
      i = end - 1;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`' || (ch === '$' && (text[i + 1] === "'" || text[i + 1] === '{' || text[i + 1] === '('))) {
      const end =
        ch === "'"
          ? singleQuoteEnd(text, i)
          : ch === '$'
            ? text[i + 1] === "'"
              ? ansiQuoteEnd(text, i)
              : text[i + 1] === '{'
                ? delimitedEnd(text, i + 1)
                : substitutionEnd(text, i + 1)
            : delimitedEnd(text, i);
      const quoted = text.slice(i, end + 1);
      // A quoted string is text of the word (`"cd"` is cd, `$'c\x64'` too); a substitution is a value zotbox does not
      // spell out.
      const literal =
        ch === "'" || (ch === '"' && !/[$`]/u.test(quoted)) ? quoted.slice(1, -1).replace(/\s/gu, '_') : ch === '$' && text[i + 1] === "'" ? ansiDecoded(quoted).replace(/\s/gu, '_') : '$';
      add(ch === '"' ? quoted.replace(/\$\([^]*\)|`[^`]*`/gu, ' ') : ch === "'" || (ch === '$' && text[i + 1] === "'") ? quoted : ' ', literal, quoted);
      i = end;
      continue;
    }
    if (ch === '(') {
      endCommand();
      const end = substitutionEnd(text, i);
      // A subshell (or an arithmetic command) runs nothing in this shell; after it, a command may follow (a case
      // pattern's `(a)`).
      level.text += ';';
      i = end;
      atCommand = true;
      continue;
    }
    if (ch === '{' && !state.inWord && atCommand && /\s/u.test(text[i + 1] ?? '')) {
      const group = readLevel(text, i + 1, '}', bodies);
      level.commands.push(...group.level.commands);
      level.words.push(...group.level.words);
      level.movers.push(...group.level.movers);
      level.computed.push(...group.level.computed);
      level.text += `;${group.level.text};`;
      i = group.end;
      atCommand = false;
      continue;
    }
    // A case pattern's `)`: a command follows.
    if (ch === ')') {
      endCommand();
      level.text += ch;
      atCommand = true;
      continue;
    }
    // `>&2`, `<&0`, `&>file`, `>|file`: a redirection, not a separator.
    if ((ch === '&' && (/[<>]$/u.test(word) || text[i + 1] === '>')) || (ch === '|' && state.inWord && /[>]$/u.test(word) && REDIRECTION.test(word))) {
      add(ch, ch);
      continue;
    }
    if (/[;&|\n]/u.test(ch)) {
      endCommand();
      level.text += ch;
      atCommand = true;
      state.redirectTarget = false;
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      endWord();
      level.text += ch;
      continue;
    }
    if (/[<>]/u.test(ch) && state.inWord && REDIRECTION_START.test(word)) {
      // `2>&1`, `{fd}>f`, `&>f`: the descriptor and the operator are one redirection word.
    } else if (/[<>]/u.test(ch) && state.inWord) endWord();
    add(ch, ch);
  }
  endWord();
  if (closer !== '' || pending.length > 0) throw new Unclosed();
  return { end: text.length, level };
}

/** The command positions of `text` (the module comment); undefined where it cannot be taken apart. */
export function commandPositions(text: string): CommandPositions | undefined {
  const bodies = new Map<string, Level>();
  try {
    return { top: readLevel(text, 0, '', bodies).level, bodies };
  } catch (error) {
    // Never closed, or nested deeper than the stack: not taken apart.
    if (error instanceof Unclosed || error instanceof RangeError) return undefined;
    throw error;
  }
}
