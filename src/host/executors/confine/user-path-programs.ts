// A bare name a script runs where its PATH still reaches the user's own (s45t review, "user-path-relative-entries"):
// a relative entry of the user's PATH (`./bin`, the binstub habit; `.` or an empty entry, the working directory) is
// looked up from where the command runs, the repository top for a hook, so it is a directory in the workspace. The
// name's file in each such entry is named as run: protected there or not (a new `bin/git` cannot appear) and read by
// its #! line as a script run by its path is. Absolute entries are the user's programs, left to the name. A name
// behind a wrapper (`timeout 60 NAME`, command-wrappers.ts) or find's -exec is searched for on PATH too. Pure, no I/O.
import path from 'node:path';
import { wrapperOperand } from './command-wrappers.js';
import { USER_PATH } from './python-script-path.js';
import { programOf } from './shell-command-reading.js';
import { lexShell, unmark } from './shell-lexer.js';

/** A word that is no plain command name: a path, an option, an expansion or pattern the lexer left in, or `.`/`source`. */
const NOT_A_NAME = /[/\s\uE000-\uEFFF\uF000-\uF1FF]|^-|^\.{0,2}$|^source$/u;

/** find's actions that run a command (execvp: searched for on PATH) up to their `;` or `+`. */
const FIND_RUNS = /^-(?:exec|execdir|ok|okdir)$/u;

/**
 * The indexes of the words a command runs by name: its program (`at`), and each command a wrapper or find runs
 * (`timeout 60 NAME`, `nice -n 5 NAME`, `flock FILE NAME`, `find src -exec NAME {} +`), each wrapper of a chain
 * too (each one is itself looked up on PATH by the one before it).
 */
export function namesRun(words: readonly string[], at: number): number[] {
  const found: number[] = [];
  const visit = (index: number) => {
    if (index >= words.length || found.includes(index)) return;
    found.push(index);
    const wrapped = wrapperOperand(words, index);
    if (wrapped !== undefined) visit(wrapped);
    if (path.basename(unmark(words[index]!)) !== 'find') return;
    for (let action = index + 1; action < words.length; action++) if (FIND_RUNS.test(unmark(words[action]!))) visit(action + 1);
  };
  visit(at);
  return found;
}

/** The relative entries of a PATH value as the shell searches them: an empty entry is the working directory. */
export function relativeEntries(searchPath: string | undefined): string[] {
  if (searchPath === undefined) return [];
  const entries = searchPath.split(':').map((entry) => (entry === '' ? '.' : entry));
  // `~/bin` left unexpanded: bash expands it when it searches, dash takes it as the directory `~` (both counted).
  return [...new Set(entries.filter((entry) => !path.isAbsolute(entry)).flatMap((entry) => (entry.startsWith('~') ? [entry, `./${entry}`] : [entry])))];
}

/**
 * The files `name` may run as in the user's relative PATH entries (relative to where the command runs), when `entries`
 * (the PATH the script gives the command, python-script-path.ts) reaches the user's own; none for any other word.
 */
export function programsOnUserPath(name: string, entries: readonly string[], environment: Readonly<Record<string, string | undefined>>): string[] {
  if (NOT_A_NAME.test(name) || !entries.includes(USER_PATH)) return [];
  return relativeEntries(environment['PATH']).map((entry) => path.join(entry, name));
}

/**
 * The files the commands of shell text a program runs (program-command-texts.ts: `execFileSync("acme-lint")`) may run
 * as in the user's relative PATH entries, relative to where it runs: a program's process calls search the user's PATH.
 */
export function programRunsOnUserPath(text: string, environment: Readonly<Record<string, string | undefined>>): string[] {
  const found = lexShell(text, []).flatMap((words) => namesRun(words, programOf(words).at).flatMap((index) => programsOnUserPath(unmark(words[index]!), [USER_PATH], environment)));
  return [...new Set(found)];
}
