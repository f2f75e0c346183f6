// What the files a script sources define. A command may be a function the script does not spell out where the script
// sources a file (shell-command-words.ts definedCommands), so its words are read both as the command it is named like
// and as sharing the shell. Where every `.` and `source` names a file zotbox can read, what those files define is
// known instead: husky 9's runner sources the user's ~/.config/husky/init.sh before `sh -e .husky/NAME`, and an
// init.sh that defines no `sh` leaves the hook a shell of its own. Pure: the caller reads the files.
import path from 'node:path';
import { ansiDecoded } from './shell-lexer.js';

/** The functions a file defines, whether it may define others it does not spell out (`any`), whether it may cd. */
export interface SourcedFunctions {
  readonly names: ReadonlySet<string>;
  readonly any: boolean;
  /** It may change the directory of the shell that sources it (a relative `.` after it is then unknown). */
  readonly changesDirectory?: boolean;
  /**
   * Sourcing it may leave the sourcer's shell in another directory (shell-place-changes.ts): the sourcer's relative
   * words after it are relative to where zotbox does not follow.
   */
  readonly moves?: boolean;
  /** Its functions whose call may leave the shell in another directory. */
  readonly movingFunctions?: ReadonlySet<string>;
  /** `any` only because the loose count met more `.` words than the reading did (`find . -name`, a comment). */
  readonly loose?: true;
  /** It may make the sourcer's `cd NAME` or `$(git rev-parse --show-toplevel)` name another place (cdable_vars, GIT_DIR). */
  readonly replacesPlaces?: true;
}

/** A file a `.` or `source` names. */
export interface SourcedFile {
  /** Absolute. */
  readonly file: string;
  /** Written relative to where the shell is (`./lib.sh`, `$PWD/lib.sh`): a cd anywhere makes it another file. */
  readonly relative: boolean;
  /** Where it is relative: the path as written, from where the shell is. */
  readonly relativeText?: string;
  /** A command that may write files ran before it, in the text's order: a file not there may be there by then. */
  readonly afterWrites: boolean;
}

/** What a reading met of the script's `.` and `source` commands, and of what may change what they source. */
export interface SourcedOperands {
  readonly files: SourcedFile[];
  /** How many `.` and `source` commands the reading met. */
  met: number;
  /** One named no single file zotbox can tell (a variable it cannot spell out, a pattern, a name looked up on PATH). */
  opaque: boolean;
  /** A command that reads text as this shell's commands (eval, trap, alias, mapfile -C…) or loads builtins. */
  readsText: boolean;
  /** A cd (pushd, popd, env -C) to elsewhere than where the script runs. */
  changesDirectory: boolean;
  /** The directories a cd names (absolute): where a relative `.` may be read from besides where the script runs. */
  readonly places: Set<string>;
  /** In the text's order so far: a command that may write files ran. */
  written: boolean;
  /** Anywhere: a command that may write files. */
  writes: boolean;
  /** The paths the script's other commands name (absolute; a `.`'s file and a file test's operand excepted). */
  readonly named: Set<string>;
}

/** A file's reading: `absent` where nothing is there; undefined where it cannot be read. */
export type SourcedRead = (
  file: string,
  how: { readonly afterWrites: boolean; readonly directoryUnknown: boolean; readonly movingFunctions?: ReadonlySet<string> },
) => SourcedFunctions | 'absent' | undefined;

/**
 * The files the script sources that another of its commands names (the file, or a folder it lies in, not the folder
 * the script runs in): the script may write one before it sources it (`sed … > .cache/env.sh; . ./.cache/env.sh`), or
 * cache it for the next run, so its text is not the one zotbox reads (review s03z).
 */
export function sourcedFilesNamed(operands: SourcedOperands, workingDirectory: string, home: string | undefined): string[] {
  const open = new Set([path.resolve(workingDirectory), '/', ...(home === undefined ? [] : [path.resolve(home)])]);
  const named = [...operands.named].filter((each) => !open.has(each));
  return [...new Set(operands.files.map(({ file }) => file))].filter((file) => named.some((each) => file === each || file.startsWith(`${each}/`)));
}

/** What may define any function. */
export const ANY_FUNCTIONS: SourcedFunctions = { names: new Set(), any: true, changesDirectory: true };
/**
 * A file zotbox cannot tell (an opaque `.`, one it cannot read, one not there after a write): it may define any
 * function. What it does to the place is not known either; it is not taken to move the shell, which would refuse
 * every hook that sources git's git-sh-setup (whose `. "$(git --exec-path)/git-sh-i18n"` is opaque) or, through
 * husky 4-8's `debug` call counted as a write, an absent `~/.huskyrc` (review s09f).
 */
const UNKNOWN_FILE: SourcedFunctions = ANY_FUNCTIONS;

/** Before a command word: a line's start, a separator, a group, a case pattern's `)`, a command substitution. */
const BEFORE = String.raw`(?:^|[\s;&|(){}\x60])`;
/** After one: a blank, a separator or a redirection (`.>/dev/null f`). */
const AFTER = String.raw`(?=[\s;&|()<>]|$)`;
const DEFINITION = new RegExp(`${BEFORE}(?:function\\s+([^\\s(){}<>;&|]+)|([^\\s(){}<>;&|=$\`'"]+)\\s*\\(\\s*\\))`, 'gmu');
/** A `.` or `source` command, on the text as the shell joins its words (quotes and backslashes gone). */
const SOURCES = new RegExp(`${BEFORE}(?:(?:builtin|command)\\s+)?(?:source|\\.)${AFTER}`, 'gmu');
/**
 * Text this shell reads as commands (eval's, trap's, an alias's, mapfile's and readarray's callback, fc's history,
 * bind -x's and complete -C's commands) or builtins it loads (enable): functions zotbox does not read may be defined.
 */
const READS_TEXT = new RegExp(`${BEFORE}(?:(?:builtin|command)\\s+)?(?:eval|trap|alias|mapfile|readarray|fc|bind|complete|compgen|enable)${AFTER}`, 'mu');
/** The commands READS_TEXT names, as the reading meets them. */
export const TEXT_READERS = new Set(['eval', 'trap', 'alias', 'mapfile', 'readarray', 'fc', 'bind', 'complete', 'compgen', 'enable']);
/** A function bash runs where no command of the name is found: every command name may run it. */
const EVERY_NAME = new Set(['command_not_found_handle']);
/** A loop: what it sources may run after what a later line writes. */
const LOOP = new RegExp(`${BEFORE}(?:for|while|until|select)${AFTER}`, 'mu');
/**
 * What hands functions or startup files to a shell the script starts (`export -f`, `declare -fx`, allexport,
 * BASH_FUNC_…, BASH_ENV, ENV): read loosely, in any spelling.
 */
const HANDS_ON = /\b(?:BASH_ENV\b|ENV\b|BASH_FUNC_)|allexport|\bset\s+(?:[-+][a-zA-Z]*\s+)*-[a-zA-Z]*a|\b(?:export|declare|typeset|readonly|local)\b[^\n]*\s-[a-zA-Z]*f/u;

/** The text as the shell joins its words: `$'…'` decoded, line continuations joined, quotes and backslashes gone. */
function joined(text: string): string {
  return ansiDecoded(text.replace(/\\\n/gu, '')).replace(/["'\\]/gu, '');
}

/** The names `text` defines as functions (`name() {`, `function name`), a line continuation joined. */
export function functionNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.replace(/\\\n/gu, '').matchAll(DEFINITION)) names.add(match[1] ?? match[2]!);
  return names;
}

/** Whether one of `names` is run for every command name bash does not find (command_not_found_handle). */
export function handlesEveryName(names: ReadonlySet<string>): boolean {
  return [...names].some((name) => EVERY_NAME.has(name));
}

/** How many `.` and `source` commands `text` may hold (loosely: one in a comment or a string counts too). */
export function sourceCommands(text: string): number {
  return [...joined(text).matchAll(SOURCES)].length;
}

/** Whether `text` reads text as commands of this shell (READS_TEXT). */
export function readsText(text: string): boolean {
  return READS_TEXT.test(joined(text));
}

/** Whether `text` runs commands in another order than it writes them: a loop, or a function's body. */
export function runsOutOfOrder(text: string): boolean {
  return LOOP.test(joined(text)) || functionNames(text).size > 0;
}

/** Whether `text` may hand functions or a startup file to a shell it starts (HANDS_ON). */
export function handsOnFunctions(text: string): boolean {
  return HANDS_ON.test(joined(text));
}

/**
 * What the files a script sources define: undefined where it sources nothing; ANY_FUNCTIONS where a `.` names no file
 * zotbox can tell, one the text may hold was not met, a relative one may be read from another directory, or a file
 * may define any (it cannot be read, it may, or it is not there yet but a command before it may write it).
 */
export function sourcedFunctionsOf(text: string, operands: SourcedOperands, read: SourcedRead, outOfOrder: boolean): SourcedFunctions | undefined {
  const commands = sourceCommands(text);
  if (commands === 0 && operands.met === 0) return undefined;
  // The loose count takes `find . -name` and a `.` in a comment: any function, but no move, unless a file read moves.
  const unmet = operands.met < commands;
  // A relative one after a cd is one of several files: each is read, for what it may do to the place.
  const uncertain = operands.files.some((each) => each.relative) && operands.changesDirectory;
  const names = new Set<string>();
  const movingFunctions = new Set<string>();
  // A `.` of a file zotbox cannot tell may define anything; the files it can tell are still read for the place.
  let any = uncertain || operands.opaque;
  let moves = false;
  let replaces = false;
  // Read in order, each with the moving functions of all the files (one sourced later may call an earlier one's, and
  // a function of an earlier one may call a later one's): again until no more are found.
  for (let known = -1; known < movingFunctions.size; ) {
    known = movingFunctions.size;
    for (const { file, afterWrites: written } of candidates(operands)) {
      // Out of order, a `.` may run after any write the text holds.
      const afterWrites = written || (outOfOrder && operands.writes);
      const defined = read(file, { afterWrites, directoryUnknown: operands.changesDirectory, ...(movingFunctions.size > 0 ? { movingFunctions: new Set(movingFunctions) } : {}) });
      // Not there but maybe written first, or not readable: any function (UNKNOWN_FILE); the others are still read, so
      // a move one of them makes is kept.
      if (defined === 'absent' || defined === undefined) {
        any ||= defined === undefined || afterWrites;
        continue;
      }
      // One that may change directory: the files sourced after it, and what they source, may be others (review s03z).
      any ||= defined.any || defined.changesDirectory === true;
      moves ||= defined.moves === true;
      replaces ||= defined.replacesPlaces === true;
      for (const name of defined.names) names.add(name);
      for (const name of defined.movingFunctions ?? []) movingFunctions.add(name);
    }
  }
  const place = { ...(moves ? { moves: true } : {}), ...(replaces ? { replacesPlaces: true as const } : {}), ...(movingFunctions.size > 0 ? { movingFunctions } : {}) };
  if (any) return { ...UNKNOWN_FILE, ...place };
  return unmet ? { ...ANY_FUNCTIONS, ...place, loose: true } : { names, any: false, changesDirectory: operands.changesDirectory, ...place };
}

/** Each file a `.` may source: a relative one from where the script runs and from each directory a cd names. */
function candidates(operands: SourcedOperands): SourcedFile[] {
  const out: SourcedFile[] = [];
  for (const each of operands.files) {
    out.push(each);
    if (each.relativeText !== undefined) for (const place of operands.places) out.push({ ...each, file: path.resolve(place, each.relativeText) });
  }
  return out;
}
