// direnv and dotenv files read line by line (tool-file-references.ts reads the files an .envrc loads): each
// assignment's value as the shell reads it, each direnv directive by direnv-stdlib.ts, and the git configuration the
// variables give (git-environment-config.ts). Closed world: a line or value zotbox does not read is unresolved, never
// taken to name nothing.
import os from 'node:os';
import path from 'node:path';
import { DIRENV_DIRECTIVES, type DirectiveReading } from './direnv-stdlib.js';
import { gitEnvironmentNames } from './git-environment-config.js';
import { commandWords } from './shell-command-words.js';
import { plainWord, valuePaths } from './tool-file-words.js';
import { DATA_VARIABLES, OPTION_VARIABLES, optionVariableNames, SEARCH_VARIABLES } from './variable-kinds.js';

export const DIRENV = 'direnv runs it when a shell enters the directory';

/** A path a line names: `value` is a variable's path (a file is read as words, anything else protected whole). */
export interface EnvironmentFileName {
  readonly name: string;
  readonly as: DirectiveReading | 'tree' | 'value';
  /** What names it: "/ws/.envrc line 1 (source_env_if_exists .envrc.local)". */
  readonly by: string;
  readonly runBy: string;
}

/**
 * Splits a shell line into words: plain, '...' and "..." quoting; $NAME and ${NAME} expand to what `known` holds
 * ($PWD: the file's directory), a leading ~ to the user's home. Undefined when the line holds what zotbox does not read: a command substitution,
 * a backquote, an escape, a redirection, a separator, a group, or a variable it does not know.
 */
function shellWords(line: string, known: ReadonlyMap<string, string>): string[] | undefined {
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
    if (c === '~' && word === undefined) {
      // Tilde expansion, at the start of an unquoted word: ~ and ~/x are in the user's home; ~user is not read.
      if (!/^~(?=$|[\s/])/u.test(line.slice(i))) return undefined;
      word = os.homedir();
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

const ASSIGNMENT = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/u;

/**
 * What a variable's value runs: a command a tool runs from it (GIT_SSH_COMMAND="sh ssh-wrapper.sh", GIT_EDITOR,
 * BASH_ENV=env.sh), read as git config commands are, every word a file with interpreters' grammar; an interpreter's
 * options (PERL5OPT="-Itools -MLint", NODE_OPTIONS="-r ./tools/setup") by that interpreter's grammar.
 */
function variableCommandNames(name: string, value: string, where: (what: string) => string, runBy: string, unresolved: string[]): EnvironmentFileName[] {
  const named: EnvironmentFileName[] = [];
  if (OPTION_VARIABLES.has(name)) {
    for (const found of optionVariableNames(`${name}=${value}`)) named.push({ name: found.text, as: found.tree ? 'tree' : 'words', by: where(''), runBy });
    return named;
  }
  for (const word of commandWords(value, 'shell')) {
    if (word.kind === 'unresolved') unresolved.push(where(`: ${DIRENV}, and its value names ${JSON.stringify(word.text)}, which ${word.why}`));
    else if (word.anchor === 'plain' && !path.isAbsolute(word.text) && plainWord(word.text.replace(/ /gu, '_')))
      named.push({ name: word.text, as: word.tree ? 'tree' : 'words', by: where(''), runBy });
  }
  return named;
}

/**
 * What the lines of a direnv file (`direnv`: an .envrc or a file it sources) or a dotenv file name, relative to
 * `directory` (where direnv runs it); `whereAt` names a line for messages. What zotbox cannot read is pushed to `unresolved`.
 */
export function environmentFileNames(
  file: string,
  lines: readonly string[],
  as: 'direnv' | 'dotenv',
  directory: string,
  runBy: string,
  whereAt: (index: number, what: string) => string,
  unresolved: string[],
): EnvironmentFileName[] {
  const named: EnvironmentFileName[] = [];
  // What $NAME expands to: $PWD is the file's directory; a variable the file sets is what it set (outside values are unknown).
  const known = new Map<string, string>([['PWD', '.']]);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const where = (what: string) => whereAt(index, what);
    if (line === '' || line.startsWith('#')) continue;
    const assignment = ASSIGNMENT.exec(line);
    if (assignment !== null) {
      const [, name, raw] = assignment;
      // A value is read as the shell reads it; one zotbox cannot read refuses (direnv runs it).
      // The variable's own earlier value ($PATH in PATH=...:$PATH) is the user's, from outside: it names nothing here.
      const words = as === 'dotenv' ? [raw!.replace(/^(["'])(.*)\1$/u, '$2')] : shellWords(raw!, new Map([...known, [name!, known.get(name!) ?? '']]));
      if (words === undefined || words.length > 1) {
        unresolved.push(where(`: ${DIRENV}, and zotbox cannot read this value (a command substitution, or a variable set outside the file)`));
        continue;
      }
      const value = words[0] ?? '';
      known.set(name!, value);
      // A search path's directories (PATH, LD_LIBRARY_PATH, PYTHONPATH...): what is in them runs in place of the user's
      // own, and a relative entry (`bin` in PATH=bin:$PATH) is one too, with or without a "/".
      // A directory named by any variable is one a tool may search for code or configuration (PERL5LIB, XDG_CONFIG_HOME):
      // protected whole, unless the variable is on the closed list of data variables.
      if (DATA_VARIABLES.test(name!)) continue;
      if (SEARCH_VARIABLES.test(name!)) {
        // Every directory of a search path, or the file refuses (s33d): a piece zotbox cannot read (a variable dotenv
        // expands, `${TOOLS}/bin`) is not known to name nothing, and one with spaces or other letters is a directory all the same.
        // The variable's own earlier value, as dotenv-expand writes it ($PATH, ${PATH}), is the user's: it names nothing here.
        const own = new Set([`$${name!}`, `\${${name!}}`]);
        const pieces = value.split(':').filter((piece) => piece !== '' && !own.has(piece));
        const unreadable = pieces.find((piece) => /[$`\\\u0000-\u001f]/u.test(piece) || piece.startsWith('-'));
        if (unreadable !== undefined) {
          unresolved.push(where(`: it puts ${JSON.stringify(unreadable)} on ${name!}, and zotbox cannot work out which directory that is`));
          continue;
        }
        for (const piece of pieces) named.push({ name: piece, as: 'tree', by: where(''), runBy });
        continue;
      }
      for (const piece of valuePaths(value)) named.push({ name: piece, as: 'value', by: where(''), runBy });
      named.push(...variableCommandNames(name!, value, where, runBy, unresolved));
      continue;
    }
    if (as === 'dotenv') {
      unresolved.push(where(': not a KEY=VALUE line'));
      continue;
    }
    const words = shellWords(line, known);
    const directive = words === undefined ? undefined : DIRENV_DIRECTIVES.get(words[0]!);
    if (words === undefined || directive === undefined) {
      unresolved.push(where(`: ${DIRENV}, and zotbox reads only direnv's directives ${[...DIRENV_DIRECTIVES.keys()].join(', ')} and NAME=VALUE lines`));
      continue;
    }
    const items = directive(words.slice(1), known, directory);
    if (typeof items === 'string') {
      unresolved.push(where(`: ${DIRENV}, and ${items}`));
      continue;
    }
    for (const item of items) named.push({ ...item, by: where(''), runBy: DIRENV });
  }
  // Git configuration the variables give (GIT_CONFIG_KEY_n, GIT_CONFIG_GLOBAL...): what the user's git reads in that shell.
  for (const found of gitEnvironmentNames(known, file, directory, unresolved)) named.push({ name: found.name, as: found.as, by: file, runBy: `${DIRENV}; ${found.why}` });
  return named;
}
