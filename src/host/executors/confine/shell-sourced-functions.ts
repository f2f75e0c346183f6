// What the files a script sources define. A command may be a function the script does not spell out where the script
// sources a file (shell-command-words.ts definedCommands), so its words are read both as the command it is named like
// and as sharing the shell. Where every `.` and `source` names a file zotbox can read, what those files define is
// known instead: husky 9's runner sources the user's ~/.config/husky/init.sh before `sh -e .husky/NAME`, and an
// init.sh that defines no `sh` leaves the hook a shell of its own. Pure: the caller reads the files.
import { ansiDecoded } from './shell-lexer.js';

/** The functions a file defines, and whether it may define others it does not spell out (`any`). */
export interface SourcedFunctions {
  readonly names: ReadonlySet<string>;
  readonly any: boolean;
}

/** What a reading met of the script's `.` and `source` commands. */
export interface SourcedOperands {
  /** The files named, as absolute paths. */
  readonly files: string[];
  /** How many `.` and `source` commands the reading met. */
  met: number;
  /** One named no single file zotbox can tell (a variable it cannot spell out, a pattern, a name looked up on PATH). */
  opaque: boolean;
}

/** What a file defines nothing in: a file that is not there. */
export const NO_FUNCTIONS: SourcedFunctions = { names: new Set(), any: false };

const DEFINITION = /(?:^|[\s;&|({])(?:function\s+([^\s(){}<>;&|]+)|([^\s(){}<>;&|=$`'"]+)\s*\(\s*\))/gmu;
/** A `.` or `source` command, on the text as the shell joins its words (quotes and backslashes gone). */
const SOURCES = /(?:^|[\s;&|({`])(?:(?:builtin|command)\s+)?(?:source|\.)\s/gmu;
/** Text this shell reads as commands (eval's, trap's): it may define functions zotbox does not read. */
const READS_TEXT = /(?:^|[\s;&|({`])(?:(?:builtin|command)\s+)?(?:eval|trap)\s/mu;
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

/** How many `.` and `source` commands `text` may hold (loosely: one in a comment or a string counts too). */
export function sourceCommands(text: string): number {
  return [...joined(text).matchAll(SOURCES)].length;
}

/** Whether `text` reads text as commands of this shell (eval, trap). */
export function readsText(text: string): boolean {
  return READS_TEXT.test(joined(text));
}

/** Whether `text` may hand functions or a startup file to a shell it starts (HANDS_ON). */
export function handsOnFunctions(text: string): boolean {
  return HANDS_ON.test(joined(text));
}

/**
 * What the files a script sources define, where it is known: every `.` and `source` the text may hold was met and
 * named a file, and `read` could read each (`undefined` from it: it cannot be read, so it may define anything). Undefined
 * where the text sources nothing, or where what it sources may define any function.
 */
export function sourcedFunctionsOf(text: string, operands: SourcedOperands, read: (file: string) => SourcedFunctions | undefined): SourcedFunctions | undefined {
  const commands = sourceCommands(text);
  if (commands === 0 || operands.opaque || operands.met < commands) return undefined;
  const names = new Set<string>();
  for (const file of new Set(operands.files)) {
    const defined = read(file);
    if (defined === undefined || defined.any) return undefined;
    for (const name of defined.names) names.add(name);
  }
  return { names, any: false };
}
