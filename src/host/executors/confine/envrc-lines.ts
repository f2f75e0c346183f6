// direnv and dotenv files read line by line (tool-file-references.ts reads the files an .envrc loads): each
// assignment's value as the shell reads it, each direnv directive by direnv-stdlib.ts, and the git configuration the
// variables give (git-environment-config.ts). Closed world: a line or value zotbox does not read is unresolved, never
// taken to name nothing.
import path from 'node:path';
import { DIRENV_DIRECTIVES, type DirectiveReading } from './direnv-stdlib.js';
import { dotenvLine } from './dotenv-line.js';
import { lineCommands, shellWords } from './envrc-shell-line.js';
import { gitEnvironmentNames, repositoryTops } from './git-environment-config.js';
import { commandWords } from './shell-command-words.js';
import { plainWord, valuePaths } from './tool-file-words.js';
import { DATA_VARIABLES, OPTION_VARIABLES, optionVariableNames, SEARCH_VARIABLES } from './variable-kinds.js';

export const DIRENV = 'direnv runs it when a shell enters the directory';

/** A path a line names: `value` is a variable's path (a file is read as words, anything else protected whole). */
export interface EnvironmentFileName {
  readonly name: string;
  readonly as: DirectiveReading | 'tree' | 'value' | 'hooks';
  /** What names it: "/ws/.envrc line 1 (source_env_if_exists .envrc.local)". */
  readonly by: string;
  readonly runBy: string;
  /** For a hooks directory: the tops git runs its hooks at. */
  readonly tops?: readonly string[];
}

/**
 * What a variable's value runs: a command a tool runs from it (GIT_SSH_COMMAND="sh ssh-wrapper.sh", GIT_EDITOR,
 * BASH_ENV=env.sh), read as git config commands are, every word a file with interpreters' grammar; an interpreter's
 * options (PERL5OPT="-Itools -MLint", NODE_OPTIONS="-r ./tools/setup") by that interpreter's grammar.
 */
function variableCommandNames(name: string, value: string, where: (what: string) => string, runBy: string, unresolved: string[]): EnvironmentFileName[] {
  const named: EnvironmentFileName[] = [];
  if (OPTION_VARIABLES.has(name)) {
    const options = optionVariableNames(`${name}=${value}`);
    for (const found of options.names) named.push({ name: found.text, as: found.tree ? 'tree' : 'words', by: where(''), runBy });
    for (const why of options.computed) unresolved.push(where(`: ${DIRENV}, and ${why}`));
    return named;
  }
  for (const word of commandWords(value, 'shell')) {
    if (word.kind === 'unresolved') unresolved.push(where(`: ${DIRENV}, and its value names ${JSON.stringify(word.text)}, which ${word.why}`));
    else if (word.anchor === 'plain' && !path.isAbsolute(word.text) && plainWord(word.text.replace(/ /gu, '_')))
      named.push({ name: word.text, as: word.tree ? 'tree' : 'words', by: where(''), runBy });
  }
  return named;
}

/** What a file's lines have set so far: each variable's value, and those spelled from $PWD (gitEnvironmentNames). */
interface FileState {
  readonly known: Map<string, string>;
  readonly fromWorkingDirectory: Set<string>;
}

/** What a variable's value names (a search path's directories, a path, a command), and the variable as set. */
function assign(name: string, value: string, written: string, state: FileState, where: (what: string) => string, runBy: string, unresolved: string[]): EnvironmentFileName[] {
  const named: EnvironmentFileName[] = [];
  state.known.set(name, value);
  // A value spelled from $PWD (or from a variable that was) is an absolute path where direnv runs the file.
  const leading = /^["']?\$\{?([A-Za-z_][A-Za-z0-9_]*)/u.exec(written)?.[1];
  if (leading !== undefined && (leading === 'PWD' || state.fromWorkingDirectory.has(leading))) state.fromWorkingDirectory.add(name);
  else state.fromWorkingDirectory.delete(name);
  // A search path's directories (PATH, LD_LIBRARY_PATH, PYTHONPATH...): what is in them runs in place of the user's
  // own, and a relative entry (`bin` in PATH=bin:$PATH) is one too, with or without a "/".
  // A directory named by any variable is one a tool may search for code or configuration (PERL5LIB, XDG_CONFIG_HOME):
  // protected whole, unless the variable is on the closed list of data variables.
  if (DATA_VARIABLES.test(name)) return named;
  if (SEARCH_VARIABLES.test(name)) {
    // Every directory of a search path, or the file refuses (s33d): a piece zotbox cannot read (a variable dotenv
    // expands, `${TOOLS}/bin`) is not known to name nothing, and one with spaces or other letters is a directory all the same.
    // The variable's own earlier value, as dotenv-expand writes it ($PATH, ${PATH}), is the user's: it names nothing here.
    const own = new Set([`$${name}`, `\${${name}}`]);
    const pieces = value.split(':').filter((piece) => piece !== '' && !own.has(piece));
    const unreadable = pieces.find((piece) => /[$`\\\u0000-\u001f]/u.test(piece) || piece.startsWith('-'));
    if (unreadable !== undefined) {
      unresolved.push(where(`: it puts ${JSON.stringify(unreadable)} on ${name}, and zotbox cannot work out which directory that is`));
      return named;
    }
    for (const piece of pieces) named.push({ name: piece, as: 'tree', by: where(''), runBy });
    return named;
  }
  for (const piece of valuePaths(value)) named.push({ name: piece, as: 'value', by: where(''), runBy });
  named.push(...variableCommandNames(name, value, where, runBy, unresolved));
  return named;
}

const ASSIGNMENT_WORD = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/u;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/u;

/** What one dotenv line names, read as direnv's dotenv reads it (dotenv-line.ts). */
function dotenvAssign(line: string, state: FileState, where: (what: string) => string, runBy: string, unresolved: string[]): EnvironmentFileName[] {
  const read = dotenvLine(line, state.known);
  if (read.kind === 'none') return [];
  if (read.kind === 'unresolved') {
    unresolved.push(where(`: ${read.why}`));
    return [];
  }
  if (read.kind === 'outside') {
    // A variable set outside the file: its value is not known, so neither is this one (a data variable names nothing).
    state.known.delete(read.name);
    if (!DATA_VARIABLES.test(read.name)) unresolved.push(where(`: its value takes $${read.variable}, a variable set outside the file, and zotbox cannot work out what that names`));
    return [];
  }
  // A key that is no shell name (`app.port`) is no variable of the shell's; dotenv still expands it in later values.
  if (!NAME.test(read.name)) {
    state.known.set(read.name, read.value);
    return [];
  }
  return assign(read.name, read.value, read.quote === "'" ? '' : read.written, state, where, runBy, unresolved);
}

/**
 * An assignment's value as the shell expands it (quotes, $NAME of what the file set, ~ after "=" and ":"); the
 * variable's own earlier value ($PATH in PATH=...:$PATH) is the user's, from outside: it names nothing here.
 */
function expandValue(name: string, written: string, known: ReadonlyMap<string, string>): string | undefined {
  const words = shellWords(written, new Map([...known, [name, known.get(name) ?? '']]), true);
  return words === undefined || words.length > 1 ? undefined : (words[0] ?? '');
}

/**
 * The assignments of a simple command, in the order the shell makes them, or why it is not read: a list of
 * assignments alone (each value expanded after the ones before it are made), `export` or `declare -x` with
 * assignments and names (every value expanded first, then all made, as bash does for a declaration builtin); undefined
 * for any other command (a directive, read by direnv-stdlib.ts).
 */
function commandAssignments(words: readonly string[], known: ReadonlyMap<string, string>): { name: string; value: string; written: string }[] | string | undefined {
  const first = words[0]!;
  if (ASSIGNMENT_WORD.test(first)) {
    if (!words.every((word) => ASSIGNMENT_WORD.test(word))) return 'a command run with variables set for it alone';
    const made = new Map(known);
    const assignments: { name: string; value: string; written: string }[] = [];
    for (const word of words) {
      const [, name, written] = ASSIGNMENT_WORD.exec(word)!;
      const value = expandValue(name!, written!, made);
      if (value === undefined) return 'a value zotbox cannot read (a command substitution, or a variable set outside the file)';
      made.set(name!, value);
      assignments.push({ name: name!, value, written: written! });
    }
    return assignments;
  }
  if (first !== 'export' && first !== 'declare') return undefined;
  // export takes no option here (-n unexports, -f names functions); declare only -x and -g (-i, -n, -r... change what is set).
  const operands = words.slice(1);
  while (first === 'declare' && /^-[xg]+$/u.test(operands[0] ?? '')) operands.shift();
  const assignments: { name: string; value: string; written: string }[] = [];
  for (const word of operands) {
    if (NAME.test(word)) continue; // exported as it is: nothing new named
    const assignment = ASSIGNMENT_WORD.exec(word);
    if (assignment === null) return `${JSON.stringify(word)}, which is not an assignment zotbox reads`;
    const value = expandValue(assignment[1]!, assignment[2]!, known);
    if (value === undefined) return 'a value zotbox cannot read (a command substitution, or a variable set outside the file)';
    assignments.push({ name: assignment[1]!, value, written: assignment[2]! });
  }
  return assignments;
}

/**
 * What the lines of a direnv file (`direnv`: an .envrc or a file it sources) or a dotenv file name, relative to
 * `directory` (where direnv runs it); `whereAt` names a line for messages; `tops` are the repositories zotbox found
 * (git-environment-config.ts repositoryTops). What zotbox cannot read is pushed to `unresolved`.
 */
export function environmentFileNames(
  file: string,
  lines: readonly string[],
  as: 'direnv' | 'dotenv',
  place: { readonly directory: string; readonly tops: readonly string[] },
  runBy: string,
  whereAt: (index: number, what: string) => string,
  unresolved: string[],
): EnvironmentFileName[] {
  const named: EnvironmentFileName[] = [];
  const { directory } = place;
  // What $NAME expands to: $PWD is the file's directory; a variable the file sets is what it set (outside values are unknown).
  const state: FileState = { known: new Map<string, string>([['PWD', '.']]), fromWorkingDirectory: new Set() };
  const { known } = state;
  for (const [index, raw] of lines.entries()) {
    const where = (what: string) => whereAt(index, what);
    if (as === 'dotenv') {
      for (const piece of raw.split('\r')) named.push(...dotenvAssign(piece, state, where, runBy, unresolved));
      continue;
    }
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    // Each simple command of the line, as the shell runs them: after "&&" only where what comes before cannot fail.
    const commands = lineCommands(line);
    if (typeof commands === 'string') {
      unresolved.push(where(`: ${DIRENV}, and it holds ${commands}`));
      continue;
    }
    let mayFail = false;
    for (const { words, after } of commands) {
      if (after === ';') mayFail = false;
      else if (after === '&&' && mayFail) {
        unresolved.push(where(`: ${DIRENV}, and what runs after "&&" depends on a command zotbox cannot tell succeeds`));
        break;
      }
      const assignments = commandAssignments(words, known);
      if (typeof assignments === 'string') {
        unresolved.push(where(`: ${DIRENV}, and it holds ${assignments}`));
        break;
      }
      if (assignments !== undefined) {
        for (const { name, value, written } of assignments) named.push(...assign(name, value, written, state, where, runBy, unresolved));
        continue;
      }
      mayFail = true;
      const expanded = words.map((word) => shellWords(word, known));
      const spelled = expanded.some((word) => word === undefined) ? undefined : expanded.flatMap((word) => word!);
      const directive = spelled === undefined ? undefined : DIRENV_DIRECTIVES.get(spelled[0] ?? '');
      if (directive === undefined) {
        unresolved.push(where(`: ${DIRENV}, and zotbox reads only direnv's directives ${[...DIRENV_DIRECTIVES.keys()].join(', ')} and assignments (NAME=VALUE, export, declare -x)`));
        break;
      }
      const items = directive(spelled!.slice(1), known, directory);
      if (typeof items === 'string') {
        unresolved.push(where(`: ${DIRENV}, and ${items}`));
        break;
      }
      for (const item of items) named.push({ ...item, by: where(''), runBy: DIRENV });
    }
  }
  // Git configuration the variables give (GIT_CONFIG_KEY_n, GIT_CONFIG_GLOBAL...): what the user's git reads in that shell.
  const gitPlace = { directory, tops: repositoryTops(directory, place.tops), fromWorkingDirectory: state.fromWorkingDirectory };
  for (const found of gitEnvironmentNames(known, file, gitPlace, unresolved))
    named.push({ name: found.name, as: found.as, by: file, runBy: `${DIRENV}; ${found.why}`, ...(found.tops === undefined ? {} : { tops: found.tops }) });
  return named;
}
