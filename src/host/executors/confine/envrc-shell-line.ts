// An .envrc line split as the shell splits it (envrc-lines.ts reads what each command does): simple commands
// separated by ";" and "&&", each a list of words as written, and each word expanded from the variables the file set.
// Pure, no I/O. Closed: a construct outside this grammar (a pipe, "||", a redirection, a group, $(...), a backquote,
// an escape, an open quote) makes the line one zotbox does not read.
import os from 'node:os';

/** A simple command: its words as written (quotes kept), and the separator before it (undefined for the first). */
export interface LineCommand {
  readonly words: readonly string[];
  readonly after: ';' | '&&' | undefined;
}

/**
 * The simple commands of a line, or why zotbox does not read it. An empty line or a comment has none; a trailing ";"
 * ends the last command, and a trailing "&&" (the command goes on on the next line) is not read.
 */
export function lineCommands(line: string): LineCommand[] | string {
  const commands: LineCommand[] = [];
  let words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  let after: LineCommand['after'];
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = (next: ';' | '&&'): string | undefined => {
    endWord();
    if (words.length === 0) return `an empty command before "${next}"`;
    commands.push({ words, after });
    words = [];
    after = next;
    return undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && '`\\'.includes(c)) return 'a backquote or an escape';
      word = (word ?? '') + c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word = (word ?? '') + c;
      continue;
    }
    if (c === '$' && line[i + 1] === '{') {
      // ${NAME} is part of its word, braces and all (what is inside is read when the word is expanded).
      const close = line.indexOf('}', i);
      if (close === -1) return 'an open ${';
      word = (word ?? '') + line.slice(i, close + 1);
      i = close;
      continue;
    }
    if (c === '#' && word === undefined) break; // a comment
    if (/\s/u.test(c)) {
      endWord();
      continue;
    }
    if (c === ';' && line[i + 1] !== ';') {
      const empty = endCommand(';');
      if (empty !== undefined) return empty;
      continue;
    }
    if (c === '&' && line[i + 1] === '&') {
      const empty = endCommand('&&');
      if (empty !== undefined) return empty;
      i++;
      continue;
    }
    if (';&|<>(){}`\\'.includes(c)) return `"${c}", which zotbox does not read here (a pipe, a redirection, a group, a substitution, an escape)`;
    word = (word ?? '') + c;
  }
  if (quote !== undefined) return 'a quote that does not close on the line';
  endWord();
  if (words.length > 0) commands.push({ words, after });
  else if (after === '&&') return 'a command that goes on on the next line ("&&" at its end)';
  return commands;
}

/**
 * Splits a shell line into words: plain, '...' and "..." quoting; $NAME and ${NAME} expand to what `known` holds
 * ($PWD: the file's directory), a leading ~ to the user's home (in an assignment's value, `assignment`, after each
 * unquoted ":" too, as bash expands it: PATH=$PATH:~/bin). Undefined when the line holds what zotbox does not read: a command substitution,
 * a backquote, an escape, a redirection, a separator, a group, or a variable it does not know.
 */
export function shellWords(line: string, known: ReadonlyMap<string, string>, assignment = false): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word = (word ?? '') + c;
      continue;
    }
    if (c === '$') {
      const variable = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/u.exec(line.slice(i));
      const value = variable === null ? undefined : known.get(variable[1] ?? variable[2]!);
      if (variable === null || value === undefined) return undefined;
      word = (word ?? '') + value;
      i += variable[0].length - 1;
      continue;
    }
    if ('`\\'.includes(c)) return undefined;
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else word = (word ?? '') + c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
      continue;
    }
    if (c === '~' && (word === undefined || (assignment && line[i - 1] === ':'))) {
      // Tilde expansion, at the start of an unquoted word: ~ and ~/x are in the user's home; ~user is not read.
      if (!/^~(?=$|[\s/])/u.test(line.slice(i))) return undefined;
      word = (word ?? '') + os.homedir();
      continue;
    }
    if (';&|<>(){}'.includes(c)) return undefined;
    if (c === '#' && word === undefined) break; // a comment
    if (/\s/u.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    word = (word ?? '') + c;
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}
