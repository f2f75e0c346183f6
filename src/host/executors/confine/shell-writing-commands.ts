// Whether a command of a script may write files, for what a later `.` sources (shell-sourced-functions.ts): a file not
// there when zotbox reads it may be there when the shell sources it, if a command before may have written it
// (`cp fns.template .cache/fns.sh; . ./.cache/fns.sh`). Closed world: only the commands listed here write nothing
// (what they print goes to the shell's output), and any other command, a redirection, a process substitution or a
// command substitution running one, may write. Pure.
import { programOf } from './shell-command-reading.js';
import { commandSubstitutions, EXPANSION_BASE, type LexNotes, lexShell, unmark } from './shell-lexer.js';

/** Builtins, keywords and programs that write no file (their output goes where a redirection, counted apart, sends it). */
const WRITES_NOTHING = new Set([
  ...['', '[', 'test', '[[', ']]', 'echo', 'printf', 'true', 'false', ':', 'exit', 'return', 'export', 'readonly', 'local', 'declare'],
  ...['typeset', 'set', 'shift', 'unset', 'type', 'read', 'let', 'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', '!', '{', '}'],
  ...['do', 'done', 'in', 'cd', 'pushd', 'popd', 'getopts', 'wait', 'basename', 'dirname', 'pwd', 'cat', 'wc', 'head', 'tail'],
  ...['cut', 'tr', 'grep', 'date', 'uname', 'id', 'whoami', 'realpath', 'readlink', 'stat', 'ls'],
]);
/** How many command substitutions deep a command's words are read. */
const MAX_DEPTH = 4;

/**
 * Whether `program` (a command's first word, its directory dropped) writes no file. The lexer splits a test at `!`
 * (`[ ! -f "$s" ]`, `[ $c != 0 ]`): what is left starts with an option or an operator, the rest of a test.
 */
export function writesNothing(program: string): boolean {
  return WRITES_NOTHING.has(program) || /^(?:-[a-zA-Z]+|=|==|!=|\]\]?)$/u.test(program);
}

/** Whether the command may write a file: its program, a redirection, or a substitution in its words. */
export function mayWriteFiles(command: readonly string[], at: number, notes: LexNotes, expansions: readonly string[], depth = 0): boolean {
  // A redirection's file (the lexer splits it off as a command of its own): written, unless it is /dev/null.
  if (notes.redirected?.has(command as string[]) === true) return command.length !== 1 || unmark(command[0]!) !== '/dev/null';
  // Only a bare name is the program listed (`./scripts/test` is no test(1)); a PATH the command sets makes any name a
  // program of the script's choosing.
  // PATH in any spelling (`PATH=`, `printf -v PATH`, `read PATH`, `export PATH`) may be set there (review s05b).
  if (!writesNothing(unmark(command[at] ?? '')) || command.some((word) => /^PATH(?:\+?=|$)/u.test(unmark(word)))) return true;
  return expansionsMayWrite(command, expansions, depth);
}

/** Whether a command's own expansions (its command and process substitutions) may write a file: they run before it. */
export function expansionsMayWrite(command: readonly string[], expansions: readonly string[], depth = 0): boolean {
  for (const word of command) {
    // A process substitution runs a command this reading does not look into.
    if (/[\uF100-\uF1FF]/u.test(word)) return true;
    for (const mark of word.match(/[\uE000-\uEFFF]/gu) ?? []) {
      const expansion = expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? '';
      const inner = /^(\$\(|`)/u.test(expansion) ? [expansion.replace(/^\$\(|^`|\)$|`$/gu, '')] : commandSubstitutions(expansion);
      if (inner.some((text) => textMayWrite(text, depth + 1))) return true;
    }
  }
  return false;
}

/** Whether shell text (a command substitution's) may write a file. */
function textMayWrite(text: string, depth: number): boolean {
  if (depth > MAX_DEPTH) return true;
  const expansions: string[] = [];
  const notes: LexNotes = { hereDocuments: [], pipes: new Map(), processSubstitutions: [], unclosed: false, redirected: new Set() };
  const commands = lexShell(text, expansions, undefined, notes);
  return notes.unclosed || commands.some((command) => mayWriteFiles(command, programOf(command).at, notes, expansions, depth));
}
