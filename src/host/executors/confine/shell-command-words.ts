// The files a shell command may name, as the shell would read it: for a git
// config value (a command git hands to a shell) and for a whole script a tool runs
// (a hook, a script a hook or a tool file names). Every word counts, with or without
// a "/"; an interpreter's module or directory counts as the file it runs
// (interpreter-operands.ts); what the shell would expand must be known now, or the
// word is unresolved (closed world). Pure, no I/O.
import path from 'node:path';
import { CLIMB_REASON, climbsOutsideOwn } from './lexical-climb.js';
import { inlineProgram } from './interpreter-operands.js';
import { scriptPathTracker } from './python-script-path.js';
import { programsOnScriptPath } from './script-path-programs.js';
import { namesRun, programsOnUserPath } from './user-path-programs.js';
import { ASSIGNMENT, commandReading, SHELLS, commandStrings, DECLARERS, listWords, pipelineFrom, programOf, stdinLanguage, stdinReader, variablesRun } from './shell-command-reading.js';
import { evaluatedUses } from './shell-evaluated-values.js';
import { mayAlias } from './shell-top-level-lines.js';
import {
  ANY_FUNCTIONS,
  functionNames,
  handlesEveryName,
  readsText,
  runsOutOfOrder,
  type SourcedFunctions,
  type SourcedOperands,
  type SourcedRead,
  sourceCommands,
  sourcedFilesNamed,
  sourcedFunctionsOf,
  TEXT_READERS,
} from './shell-sourced-functions.js';
import { expansionsMayWrite, mayWriteFiles } from './shell-writing-commands.js';
import { placeChangesOf, replacesPlaces, setsPwd } from './shell-place-changes.js';
import { ansiDecoded, CASE_PATTERN, commandSubstitutions, EXPANSION_BASE, expansionEnd, type LexNotes, lexShell, processSubstitutionOf, type Substitute, unmark } from './shell-lexer.js';

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
      /**
       * Script mode, a word that runs: the program that reads it (`.` or `source` when it is sourced, `bash`, `sh`...);
       * none when it is run by its own name (its `#!` line decides).
       */
      readonly runner?: string;
      /**
       * Script mode, a word that runs: it is run from shell text a new shell reads (`sh -c TEXT`, a here-document fed to
       * sh), whose $0 is not the script's (script-invocation.ts reads what it sources so).
       */
      readonly inShellText?: true;
      /**
       * Script mode, a word that runs as a command's program (`./x.sh`, `exec tools/x`): a new process, which inherits
       * no variable's attributes nor traps. A word run otherwise with no runner named (`cat x | sh`, `. /dev/stdin <
       * x`, a function's argument) may run in this shell (script-invocation.ts).
       */
      readonly newProcess?: true;
      /** Script mode, a word `.` or `source` reads: a command that may write files ran before it (in the text's order). */
      readonly afterWrites?: true;
      /** A word taken relative to a directory a `cd` (or `env -C`) moved to: that directory, where what it runs runs. */
      readonly movedTo?: { readonly text: string; readonly anchor: 'plain' | 'home' | 'top' };
    }
  | { readonly kind: 'unresolved'; readonly text: string; readonly why: string };

/**
 * A whole script, read where it runs: its own directory ($(dirname "$0")), the directory it runs in ($PWD, the
 * top of the repository), and the user's environment (what a variable the script does not set expands to).
 */
export interface ScriptContext {
  /**
   * $0: the file the shell was started on. A sourced file's is its sourcer's (`.` and `source` change no $0), and
   * `sh -c TEXT` has the shell's own name, whose directory is the current one (`scriptDirectory` "." then).
   */
  readonly scriptFile?: string;
  /** $0's directory; none where $0 cannot be told (a spelling of it is then unresolved). */
  readonly scriptDirectory?: string;
  /**
   * BASH_SOURCE: the file being read, given only where bash reads it. dash and other shells have none (`dirname ""` is
   * ".", not the file's folder), so where it is not given, a spelling of it is unresolved.
   */
  readonly sourceFile?: string;
  /** Where `scriptFile` and `sourceFile` lead, links followed (what `readlink -f` and `realpath` of them give), where they differ. */
  readonly scriptRealFile?: string;
  readonly sourceRealFile?: string;
  /**
   * Whether an own folder is plain (plain-folders.ts): a climb out of one that is not is unresolved. Without it, every
   * own folder counts as plain (a pure reading of the text, as the unit tests make).
   */
  readonly isPlainFolder?: (folder: string) => boolean;
  /**
   * Where a folder really is, links followed (plain-folders.ts), where it exists: after `cd link`, the kernel walks a
   * later `../x` from there. Without it, a cd's place is taken as written.
   */
  readonly realFolder?: (folder: string) => string | undefined;
  /** The shell that reads it (`sh`, `bash`, `zsh`...), where known: what a file it sources takes as its $0. */
  readonly shell?: string;
  /** It is sourced (`.`, `source`): it runs in its sourcer's shell, with that shell's variables, attributes and traps. */
  readonly sourced?: true;
  /** The script that runs it may hand it functions (`export -f bash`): a command it runs may be one of them. */
  readonly inheritsFunctions?: true;
  /**
   * Reads what a file the script sources defines (an absolute path; `undefined`: it cannot be read). Where given and
   * every `.` and `source` names a file, a command is a function only where one of those files defines it.
   */
  readonly readSourced?: SourcedRead;
  /** What the files the script sources define, as read through `readSourced` (set by commandWords itself). */
  readonly sourcedFunctions?: SourcedFunctions;
  /** It is sourced after a command that may write files ran: a file it sources that is not there may be by then. */
  readonly afterWrites?: true;
  /** The shell it runs in may have changed directory: a file it sources relative to where the shell is is unknown. */
  readonly directoryUnknown?: true;
  /** Sourced: the moving functions of the files its sourcer sourced before it, which it may call. */
  readonly movingInherited?: ReadonlySet<string>;
  /**
   * The repository top `git rev-parse --show-toplevel` gives where the script runs: null where zotbox cannot tell (no
   * repository, or one nested in another); not given, the working directory (a pure reading, as the unit tests make).
   */
  readonly repositoryTop?: string | null;
  /** The functions the shell it runs in has where that is known (its sourcer's), with `inheritsFunctions` unset. */
  readonly inheritedFunctions?: readonly string[];
  readonly workingDirectory: string;
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/**
 * The names a shell sets itself, whatever the environment holds: bash's and zsh's own (BASH_SOURCE, BASH_ARGV0,
 * FUNCNAME, ZSH_ARGZERO...) and the POSIX shell's (LINENO, PPID, PWD, OPTARG...). `${BASH_SOURCE:-$0}` is the file
 * under bash, not the environment's value.
 */
const SHELL_SET_NAMES =
  /^(?:BASH|BASH_[A-Z0-9_]+|BASHOPTS|BASHPID|ZSH_[A-Z0-9_]+|ZSH_NAME|FUNCNAME|LINENO|PPID|PWD|OPTARG|OPTIND|REPLY|RANDOM|SRANDOM|SECONDS|EPOCHSECONDS|EPOCHREALTIME|SHLVL|SHELLOPTS|PIPESTATUS|GROUPS|UID|EUID|HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE|DIRSTACK|HISTCMD|COLUMNS|LINES|_|funcstack|funcfiletrace|funcsourcetrace|functrace|argv|ARGC)$/u;

/** Keywords after which a word starts a command (an assignment there is one). */
const COMMAND_OPENERS = new Set(['then', 'do', 'else', 'elif', '{', '(', '!', 'time', 'if', 'while', 'until']);

/** Shells that are surely not bash, whatever /bin/sh is: BASH_SOURCE is an ordinary variable there. */
const NOT_BASH = new Set(['dash', 'zsh', 'ksh', 'mksh', 'ash']);

/** The commands that only test a file (`[ -f F ] && . F`): naming it there writes nothing. */
const FILE_TESTS = new Set(['[', 'test', '[[']);
/** HOME set by the script, in any spelling: `~` is then its value, not the environment's. */
const SETS_HOME = /(?:^|[^$\w{])HOME\+?=|\$\{HOME:?=|\b(?:read|export|declare|typeset|local|readonly|printf)\b[^\n;]*\bHOME\b/u;

/** The commands whose shell text this shell reads itself: $0 stays the script's. */
const SAME_SHELL_TEXT = new Set(['eval', 'trap', 'alias']);

/** What a shell expands these to is known: the user's home, the directory git runs the command in, the user's own arguments. */
const HOME_EXPANSIONS = new Set(['$HOME', '${HOME}']);
const TOP_EXPANSIONS = new Set(['$PWD', '${PWD}', '$(pwd)', '`pwd`', '$(git rev-parse --show-toplevel)', '`git rev-parse --show-toplevel`']);
const POSITIONAL = /^\$(\{?[0-9@*#?$!-]\}?)$/u;
/** The shell's own builtins and keywords: as a command they run no file (`test -n "$X"`, `exit 0`). */
const BUILTINS = new Set([
  ...['test', 'echo', 'printf', 'exit', 'return', 'set', 'unset', 'export', 'readonly', 'local', 'declare', 'typeset', 'read', 'shift'],
  ...['true', 'false', ':', 'cd', 'pushd', 'popd', 'trap', 'wait', 'type', 'hash', 'alias', 'unalias', 'let', 'umask', 'getopts', 'break'],
  ...['continue', 'if', 'then', 'else', 'elif', 'fi', 'for', 'in', 'do', 'done', 'while', 'until', 'case', 'esac', 'function', 'select'],
]);

/** Why an inline program's call that runs what it computes is unresolved. */
const COMPUTED_RUN =
  'zotbox cannot tell in advance what it runs (a file or command an inline program names by a value it computes, a search path it computes, or an interpreter option zotbox does not read)';

interface Reading {
  readonly shell: boolean;
  /** A whole script: an expansion left is the script's own (a command's output, a loop's words), not the user's. */
  readonly script: boolean;
  /** The word is run or sourced, or is one of a loop's words. */
  readonly runs: boolean;
  /** A whole script's own folders, $0's and BASH_SOURCE's (lexical-climb.ts: a climb out of one is the one a script may make). */
  readonly ownFolders?: readonly string[];
  /** Shell text a new shell reads (`sh -c TEXT NAME ARGS`): its $0 and arguments are what that shell was given. */
  readonly newShell?: boolean;
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
      // A new shell's $0 or argument run or sourced (`sh -c '. "$0"' lib.sh`): a file zotbox does not read from here.
      else if (reading.runs && reading.newShell === true && POSITIONAL.test(expansionAt(0)!))
        out.push({ kind: 'unresolved', text: written, why: 'it runs what the shell running this text was given as its $0 or an argument' });
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
  // A climb out of a folder (lexical-climb.ts), but for a script's out of its own folder.
  if (climbsOutsideOwn(rest, reading.ownFolders ?? [])) {
    out.push({ kind: 'unresolved', text: written, why: CLIMB_REASON });
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
export function commandWords(value: string, mode: 'shell' | 'git' = 'shell', script?: ScriptContext, defined?: DefinedCommands): CommandWord[] {
  const operands = noOperands(script?.afterWrites === true);
  const first = readCommandWords(value, mode, script, operands);
  if (script === undefined || mode !== 'shell' || script.sourcedFunctions !== undefined) return told(first, defined);
  // Read again where what the sourced files define is known (a command named otherwise is then what it is named), or
  // where the reading met what the text's loose count did not (a `.` or eval glued to a redirection): any.
  const files = script.readSourced === undefined ? undefined : sourcedFunctionsOf(value, operands, script.readSourced, runsOutOfOrder(value));
  const sourced = operands.readsText ? textReadFunctions(files) : script.readSourced === undefined ? (operands.met > 0 ? ANY_FUNCTIONS : undefined) : files;
  if (sourced === undefined) return told(first, defined);
  // Read again even where both readings allow any function: the first took every sourced file as unknown (a pwd or git
  // of its own, mayDefine), the second knows which.
  const reading = readCommandWords(value, mode, { ...script, sourcedFunctions: sourced }, noOperands(script.afterWrites === true));
  // A file it sources may leave the shell elsewhere, or a function one defines may: the words after it are relative to
  // where zotbox does not follow.
  const moving = inheritedMoving({ ...script, sourcedFunctions: sourced });
  const moved = sourced.moves === true || (moving.size > 0 && placeChangesOf(value, moving).callsInherited);
  const words = moved ? [...reading.words, { kind: 'unresolved' as const, text: firstSourcing(value), why: SOURCED_MOVES }] : reading.words;
  return told({ words, ...(reading.commands === undefined ? {} : { commands: reading.commands }) }, defined);
}

const SOURCED_MOVES =
  'it sources a file that may change the directory the shell is in (a cd, pushd or popd, PWD set, or text zotbox cannot take apart), or calls a function of one that may, so its words after it may be relative to where zotbox does not follow';

/** The first line that may source a file, as the word a refusal names (its line is where the refusal points). */
function firstSourcing(text: string): string {
  const line =
    text
      .split('\n')
      .find((each) => /(?:^|[\s;&|(){}])(?:\.|source)(?=[\s;&|()<>]|$)/u.test(each))
      ?.trim() ?? '.';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/**
 * Where the script reads text as commands (eval's, trap's): any function, but what its files do to the place is kept;
 * and the text's own definitions are spelled in it (mayDefine reads them there), so the any is loose unless a file
 * it sources may define any.
 */
function textReadFunctions(files: SourcedFunctions | undefined): SourcedFunctions {
  const place = { ...(files?.moves === true ? { moves: true } : {}), ...(files?.movingFunctions === undefined ? {} : { movingFunctions: files.movingFunctions }) };
  return { ...ANY_FUNCTIONS, ...place, ...(files?.any === true && files.loose !== true ? {} : { loose: true as const }) };
}

const noOperands = (written: boolean): SourcedOperands => ({
  files: [],
  met: 0,
  opaque: false,
  readsText: false,
  changesDirectory: false,
  places: new Set(),
  written,
  writes: written,
  named: new Set(),
});

/** The words read, the script's functions told to `defined`. */
function told(reading: { readonly words: CommandWord[]; readonly commands?: SourcedFunctions }, defined: DefinedCommands | undefined): CommandWord[] {
  if (defined !== undefined && reading.commands !== undefined) defined.commands = reading.commands;
  return reading.words;
}

/** Where commandWords tells the functions a script may have (what a file it sources runs with). */
export interface DefinedCommands {
  commands?: SourcedFunctions;
}

function readCommandWords(value: string, mode: 'shell' | 'git', script: ScriptContext | undefined, operands: SourcedOperands): { readonly words: CommandWord[]; readonly commands?: SourcedFunctions } {
  const out: CommandWord[] = [];
  const expansions: string[] = [];
  const seen = new Set<string>();
  const assignments = script === undefined ? undefined : assignmentsOf(value);
  // The functions and aliases the script may have: a command so named may run in this shell, whatever it is named.
  const ownCommands = script === undefined ? undefined : definedCommands(value, script);
  // PWD set, or a pwd of the script's own (or any command possibly a function): where the shell is, as `$PWD` or
  // `$(pwd)` spell it, is not taken from the cds zotbox follows (review s05b).
  const own =
    script === undefined || ownCommands === undefined
      ? undefined
      : {
          pwdSet: setsPwd(value),
          pwdFunction: mayDefine(value, script, ownCommands, 'pwd'),
          gitFunction: mayDefine(value, script, ownCommands, 'git') || replacesPlaces(value) || script.sourcedFunctions?.replacesPlaces === true,
        };
  const substitute = script === undefined || assignments === undefined || own === undefined ? undefined : scriptSubstitute(script, assignments, own);
  // Shell text a new shell reads (`sh -c TEXT [NAME]`, `bash -c`, a here-document or a pipe fed to sh, `su -c`): its $0
  // is NAME, the shell's name or a found file, never the script's, and it has no BASH_SOURCE; read with none.
  const textScript: ScriptContext | undefined =
    script === undefined
      ? undefined
      : {
          workingDirectory: script.workingDirectory,
          environment: script.environment,
          shell: 'sh',
          ...(script.isPlainFolder === undefined ? {} : { isPlainFolder: script.isPlainFolder }),
          ...(script.realFolder === undefined ? {} : { realFolder: script.realFolder }),
        };
  const textSubstitute = textScript === undefined || assignments === undefined || own === undefined ? undefined : scriptSubstitute(textScript, assignments, own);
  let inText = false;
  // The expansions met in such text: a command substitution among them runs in that shell too.
  const textExpansions = new Set<number>();
  // The variables whose value the script runs (a loop's list is run only through them).
  const runVariables = script === undefined ? new Set<string>() : variablesRun(value);
  // Directories a "cd" in the command moved to: later relative words are relative to them too.
  const moved: { readonly text: string; readonly anchor: 'plain' | 'home' | 'top' }[] = [];
  let placesCapped = false;
  // The PATH a bare python is looked up on, as the script's commands leave it (activate, PATH=...).
  const scriptPath = script === undefined ? undefined : scriptPathTracker((mark) => expansions[mark.charCodeAt(0) - EXPANSION_BASE]);
  const parts = (word: string, runs: boolean, runner?: string, newProcess = false) => {
    // The test command's brackets are no pattern; in a script, a URL is no file.
    if (/^(\uF003|\uF003\uF003|\]|\]\])$/u.test(word) || (script !== undefined && /^[a-z][\w+.-]*:\/\//iu.test(word))) return;
    // An option's value is a file too (--config=x, a:b): the parts between "=", ":" and ","; outside a script, a value
    // with blanks may be a command of its own. In a script the shell has split the words: a quoted one is one argument.
    for (const part of new Set([word, ...word.split(script === undefined ? /[\s"'`;|&()<>{}=,:!]+/u : /[=,:]+/u)])) {
      const key = `${moved.length}\u0000${runs}\u0000${runner ?? ''}\u0000${newProcess}\u0000${part}`;
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
      // A value the script sets but zotbox cannot spell out (`X=$(cat f)`, a quoted `$` in it), run as a file or as
      // shell text (`sh "$X"`, `sh -c "$X"`): anything.
      if (runs && variable !== undefined && assignments !== undefined && (assignments.values.has(variable) || assignments.unknown.has(variable)) && !assignments.loops.has(variable)) {
        out.push({ kind: 'unresolved', text: unmark(expansions[part.charCodeAt(0) - EXPANSION_BASE]!), why: 'it runs a value the script computes, which zotbox cannot spell out' });
        continue;
      }
      const from = out.length;
      const own = inText ? textScript : script;
      resolvePart(part, expansions, { shell: mode === 'shell', script: script !== undefined, runs, newShell: inText, ...(own === undefined ? {} : { ownFolders: ownFolders(own) }) }, out);
      for (const found of out.slice(from)) {
        if (found.kind !== 'path') continue;
        const running =
          runs && part === word && script !== undefined
            ? { runs: true as const, ...(runner === undefined ? {} : { runner }), ...(inText ? { inShellText: true as const } : {}), ...(newProcess ? { newProcess: true as const } : {}) }
            : {};
        out[out.indexOf(found)] = { ...found, ...running };
        if (found.anchor !== 'plain' || path.isAbsolute(found.text)) continue;
        for (const directory of moved)
          out.push({
            ...found,
            text: path.join(directory.text, found.text),
            anchor: directory.anchor,
            movedTo: directory,
            ...running,
          });
      }
    }
  };
  // The file a `.` or `source` names, where it is one zotbox can tell: a path with a "/" (a bare name is looked up on
  // PATH), relative only before any cd.
  // The file a `.` or `source` names, where it is one zotbox can tell: a path with a "/" (a bare name is looked up on
  // PATH); one relative to where the shell is (`./x`, `$PWD/x`) is another file after a cd anywhere in the script.
  const noteSourced = (word: string, afterWrites: boolean) => {
    operands.met++;
    const found: CommandWord[] = [];
    const own = inText ? textScript : script;
    resolvePart(word, expansions, { shell: true, script: true, runs: true, newShell: inText, ...(own === undefined ? {} : { ownFolders: ownFolders(own) }) }, found);
    const only = found.length === 1 ? found[0] : undefined;
    const home = script?.environment.HOME;
    // `~` is the HOME the shell has: where the script may set its own, not the environment's (review s03z).
    const homeUnknown = home === undefined || SETS_HOME.test(value);
    if (only?.kind !== 'path' || only.tree || (only.anchor === 'plain' && !only.text.includes('/')) || (only.anchor === 'home' && homeUnknown)) {
      operands.opaque = true;
      return;
    }
    const relative = only.anchor === 'top' || (only.anchor === 'plain' && !path.isAbsolute(only.text));
    if (relative && script?.directoryUnknown === true) {
      operands.opaque = true;
      return;
    }
    const file = only.anchor === 'home' ? path.join(home!, only.text) : path.resolve(script!.workingDirectory, only.text);
    // A path the kernel gives each process its own (a file descriptor, /proc/self): no file zotbox can read (review s05b).
    if (/^\/(?:dev\/(?:fd|stdin|stdout|stderr)(?:\/|$)|proc\/(?!sys\/))/u.test(file)) {
      operands.opaque = true;
      return;
    }
    operands.files.push({ file, relative, afterWrites, ...(relative ? { relativeText: only.text } : {}) });
  };
  // The paths a command names, for what a `.` sources (sourcedFilesNamed).
  const noteNamed = (from: number) => {
    for (const found of out.slice(from))
      if (found.kind === 'path' && script !== undefined)
        operands.named.add(found.anchor === 'home' ? path.join(script.environment.HOME ?? '/', found.text) : path.resolve(script.workingDirectory, found.text));
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
    if (target === undefined) {
      operands.changesDirectory = true;
      // A relative `.` after it is read from the home directory too; with no HOME known, from anywhere.
      if (script?.environment.HOME === undefined) operands.opaque = true;
      else operands.places.add(path.resolve(script.environment.HOME));
      return moved.push({ text: '', anchor: 'home' });
    }
    const resolved: CommandWord[] = [];
    for (const candidate of cdPathCandidates(target, script === undefined ? undefined : substitute)) {
      if (candidate === undefined) {
        out.push({ kind: 'unresolved', text: `cd ${unmark(target)}`, why: 'cd looks in the folders CDPATH lists first, and the script sets CDPATH to what zotbox cannot spell out' });
        continue;
      }
      // `cd "$PWD"` is no move only where PWD and pwd are the shell's own; with cdable_vars on, `cd NAME` goes to
      // $NAME where no folder NAME is (review s09f).
      const spelled = candidate.replace(/[\uE000-\uEFFF]/gu, (ch) => expansions[ch.charCodeAt(0) - EXPANSION_BASE] ?? ch);
      // In a script, `$1` and `"$@"` are its caller's or a function's arguments: a place zotbox does not follow (review s11g).
      if (script !== undefined && (candidate.match(/[\uE000-\uEFFF]/gu) ?? []).some((ch) => POSITIONAL.test(expansions[ch.charCodeAt(0) - EXPANSION_BASE] ?? ''))) {
        resolved.push({ kind: 'unresolved', text: unmark(spelled), why: "it names a place by the script's or a function's arguments, which zotbox does not follow" });
        continue;
      }
      if (own !== undefined && (placeSpellingUnknown(spelled, own) || ((/\bcdable_vars\b/u.test(value) || script?.sourcedFunctions?.replacesPlaces === true) && !spelled.startsWith('/')))) {
        resolved.push({
          kind: 'unresolved',
          text: unmark(spelled),
          why: 'the script may set PWD, have a pwd or git of its own, set where git finds its worktree, or turn cdable_vars on, so the place it names is not one zotbox can tell',
        });
        continue;
      }
      resolvePart(candidate, expansions, { shell: true, script: false, runs: false }, resolved);
    }
    // Anywhere but where the script runs (the top it names, `.`): a file sourced relative to the shell's place is another.
    const here = (found: CommandWord) =>
      found.kind === 'path' &&
      ((found.anchor === 'top' && found.text.replace(/\/+$/u, '') === '') ||
        (found.anchor === 'plain' && script !== undefined && path.resolve(script.workingDirectory, found.text) === path.resolve(script.workingDirectory)));
    if (resolved.length === 0 || !resolved.every(here)) operands.changesDirectory = true;
    // An unresolved target is already reported as a word of the command (in a script, where a lone variable is not, here).
    const before = [...moved];
    for (const found of resolved) {
      if (found.kind !== 'path') {
        if (script !== undefined) out.push({ ...found, why: `${found.why}, and the words after this cd are relative to it` });
        continue;
      }
      movedTo({ text: found.text, anchor: found.anchor });
      // A relative cd after another goes from where that one went (`cd scripts; cd sub` is scripts/sub).
      if (found.anchor === 'plain' && !path.isAbsolute(found.text)) for (const directory of before) movedTo({ text: path.join(directory.text, found.text), anchor: directory.anchor });
    }
    return moved.length;
  };
  // Notes a directory a cd may move to, once; where a link is on its way, where it really is as well: the kernel walks a
  // later `../x` (and `cd -P`'s `..`) from the link's target, not from the name's folder (review s09f).
  const movedTo = (directory: { readonly text: string; readonly anchor: 'plain' | 'home' | 'top' }) => {
    if (moved.some((each) => each.text === directory.text && each.anchor === directory.anchor)) return;
    if (moved.length >= MOST_PLACES) {
      if (!placesCapped && script !== undefined) out.push({ kind: 'unresolved', text: 'cd', why: `the script's cds may lead to more than ${MOST_PLACES} places, more than zotbox follows` });
      placesCapped = true;
      return;
    }
    moved.push(directory);
    if (script === undefined) return;
    const place = directory.anchor === 'home' ? path.join(script.environment.HOME ?? '/', directory.text) : path.resolve(script.workingDirectory, directory.text);
    operands.places.add(place);
    const real = script.realFolder?.(place);
    if (real !== undefined && real !== place) movedTo({ text: real, anchor: 'plain' });
  };
  // `newShell`: the text is read by a shell of its own (inText); what such text holds is too.
  const read = (text: string, depth: number, newShell = false) => {
    const outer = inText;
    inText = inText || newShell;
    try {
      readText(text, depth);
    } finally {
      inText = outer;
    }
  };
  const readText = (text: string, depth: number) => {
    const notes: LexNotes = { hereDocuments: [], pipes: new Map(), processSubstitutions: [], unclosed: false, redirected: new Set() };
    const first = expansions.length;
    const commands = lexShell(text, expansions, inText ? textSubstitute : substitute, notes);
    if (inText) for (let index = first; index < expansions.length; index++) textExpansions.add(index);
    // `${IFS:=/}` and `${IFS=/}` set IFS where they are expanded (spelled out by then, so read in the text).
    if (script !== undefined && /\$\{IFS:?=/u.test(text))
      out.push({ kind: 'unresolved', text: '${IFS:=…}', why: 'the script splits its unquoted values at other characters than blanks, which zotbox does not follow' });
    if (notes.unclosed && script !== undefined)
      out.push({ kind: 'unresolved', text: text.length > 60 ? `${text.slice(0, 57)}...` : text, why: 'a quote is never closed, so zotbox cannot tell where its words end' });
    for (const command of commands) {
      // A case pattern list is matched against the case word: data, no file run.
      if (command[0] === CASE_PATTERN) {
        for (const word of command.slice(1)) parts(word, false);
        continue;
      }
      const words = command.map(unmark);
      const { at, chdir, names, computed, runsAt, runners, scripts, starts } = commandReading(command, script !== undefined, scriptPath?.interpreterWord(words, programOf(command).at));
      // What may change what a `.` sources: text read as commands, a move, a command that may write files.
      const program = path.basename(words[at] ?? '');
      if (TEXT_READERS.has(program)) operands.readsText = true;
      if (program === 'popd') operands.changesDirectory = true;
      const writes = script !== undefined && mayWriteFiles(command, at, notes, expansions);
      if (writes) operands.writes = true;
      // A bare name on the PATH the script set runs that entry's file (a venv's console script).
      const onPath = scriptPath === undefined || BUILTINS.has(words[at] ?? '') ? [] : programsOnScriptPath(words, at, scriptPath.commandPath(words, at));
      scriptPath?.after(words, at);
      for (const call of computed) out.push({ kind: 'unresolved', text: call, why: COMPUTED_RUN });
      if (script !== undefined) {
        // BASH_ENV (ENV for sh): a file every new shell sources first, with that shell's $0, not this script's.
        for (const word of words)
          if (/^(?:BASH_ENV|ENV|BASH_FUNC_[^=]*)=./u.test(word))
            out.push({
              kind: 'unresolved',
              text: word.slice(0, 60),
              why: `a new shell runs what it names or holds (a file it sources first, a function it is handed), with that shell's $0, which zotbox does not read`,
            });
        // zsh's cdpath array is CDPATH by another name (cdPathCandidates reads CDPATH only).
        const cdpath = words.find((word) => /^cdpath\+?=/u.test(word));
        if (cdpath !== undefined) out.push({ kind: 'unresolved', text: cdpath.slice(0, 60), why: 'cd looks in the folders cdpath lists first, which zotbox does not follow' });
        // IFS set to other characters than blanks, in any spelling (`IFS=/`, `IFS+=/`, for one command, after `then`), or
        // to a value zotbox does not know (`read IFS`): unquoted values split where zotbox does not split them.
        const ifs = words.find((word) => /^IFS\+?=/u.test(word) && /[^ \t\n]/u.test(word.replace(/^IFS\+?=/u, '').replace(/[\uE000-\uEFFF]/gu, 'x')));
        const readsIfs = words.includes('IFS') && words.some((word) => ['read', 'mapfile', 'readarray', 'printf', 'declare', 'typeset', 'local', 'export'].includes(word));
        // A nameref (`declare -n R=IFS`) makes an assignment to one name set another: zotbox follows no value through it.
        if (['declare', 'typeset', 'local'].includes(words[at] ?? '') && words.slice(at + 1).some((word) => /^-[a-zA-Z]*n/u.test(word)))
          out.push({ kind: 'unresolved', text: words.slice(at, at + 3).join(' '), why: 'a nameref makes an assignment to one name set another, which zotbox does not follow' });
        if (ifs !== undefined || readsIfs)
          out.push({ kind: 'unresolved', text: ifs ?? 'IFS', why: 'the script splits its unquoted values at other characters than blanks, which zotbox does not follow' });
      }
      if (chdir !== undefined) changeDirectory(['cd', chdir]);
      // A relative entry of the user's own PATH is a workspace directory where the command runs (user-path-programs.ts).
      // Behind a wrapper too (`timeout 60 NAME`, `find . -exec NAME {} +`): what it runs is looked up on PATH.
      if (script !== undefined)
        for (const index of namesRun(words, at))
          if (index !== at || !BUILTINS.has(words[at] ?? '')) for (const file of programsOnUserPath(words[index]!, scriptPath?.commandPath(words, index) ?? [], script.environment)) parts(file, true);
      for (const start of starts) parts(`${start.replace(/\/+$/u, '')}/\uF001`, true);
      // A list the script loops over or keeps as its positional parameters (`for f in scripts/*.sh`, `set -- dir/*.sh`
      // and `for f do`): run when what it holds is run, data when the loop only passes "$f" to programs.
      if (script !== undefined) for (const index of listWords(command, at, runVariables)) runsAt.add(index);
      // A shell or interpreter reading its program from a pipe runs what the command before it writes.
      if (script !== undefined) pipedProgram(command, notes, depth);
      // A cd handed to what may run its arguments in this shell (a function of the script's own or a file's it sources,
      // a computed command word, a `.` with arguments: `run cd scripts`, `set -- cd x; "$@"`): a move zotbox does not
      // follow (review s13h).
      if (script !== undefined && handsOnMove(command, words, at, ownCommands))
        out.push({ kind: 'unresolved', text: words.join(' ').slice(0, 60), why: 'it hands a cd to a command that may run it in this shell, a move zotbox does not follow' });
      command.forEach((word, index) => {
        // find's `{}` is each file it finds: covered by its starting points when it runs them.
        if (starts.length > 0 && unmark(word) === '{}') return;
        if (processSubstitutionsIn(word, notes, index, runsAt, depth)) return;
        const scriptFollows = scripts.has(index);
        const runs = runsAt.has(index) || (scriptFollows && script !== undefined && !scripts.guessed.has(index));
        const shown = out.length;
        parts(word, runs, runners.get(index), index === at && !notes.redirected!.has(command));
        const sourcing = script !== undefined && ['.', 'source'].includes(runners.get(index) ?? '');
        if (sourcing) {
          // Whether a command that may write files ran before it, its own expansions too (they run first).
          const afterWrites = operands.written || expansionsMayWrite(command, expansions);
          // The file's reading is told so (script-invocation.ts).
          if (afterWrites) for (let k = shown; k < out.length; k++) if (out[k]!.kind === 'path') out[k] = { ...out[k]!, afterWrites: true } as CommandWord;
          noteSourced(word, afterWrites);
        }
        // A path a command that may write files names (not an assignment's value, not a file test's operand).
        else if (writes && index >= at && !FILE_TESTS.has(program)) noteNamed(shown);
        // A function or alias named like a runner (`bash() { . "$@"; }`) may source what it is handed: its words may
        // share this shell too, so they are read both ways (review s95r, s97t).
        const own = ownCommands !== undefined && (ownCommands.names.has(words[at] ?? '') || (ownCommands.any && (index === at || SHELLS.has(runners.get(index) ?? ''))));
        if (own) parts(word, runs, undefined, false);
        // eval's, trap's and an alias's text is read by this shell; any other by a shell of its own.
        if (scriptFollows && depth < 4) read(scripts.get(index)!, depth + 1, !SAME_SHELL_TEXT.has(path.basename(words[at] ?? '')));
      });
      for (const name of names) parts(name.tree ? `${name.text}/\uF001` : name.text, name.tree);
      for (const name of onPath) parts(name.tree ? `${name.text}/\uF001` : name.text, name.tree || name.runs);
      if (['cd', 'pushd'].includes(unmark(command[at] ?? ''))) changeDirectory(command.slice(at));
      if (writes) operands.written = true;
    }
    // A here-document's (or here-string's) body is the text its command reads, or a command it pipes into: shell
    // text for a shell, a program for an interpreter (what it imports or requires runs), data for anything else; an
    // unquoted delimiter lets the shell run the body's command substitutions whoever reads it.
    for (const { command, body, expanded } of notes.hereDocuments) {
      if (script === undefined) continue;
      if (expanded && depth < 4) for (const inner of commandSubstitutions(body)) read(inner, depth + 1);
      const kinds = pipelineFrom(command, notes).map(stdinReader);
      if (kinds.includes('shell')) {
        if (depth < 4) read(body, depth + 1, true);
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
    programWritten(producer, depth);
  };
  // The script a command writes for a shell to run: echo's and printf's text, the files cat writes (each run as a
  // script); anything else (`curl … | sh`, `git diff | xargs sh`) cannot be told.
  const programWritten = (producer: readonly string[], depth: number) => {
    const { at } = programOf(producer);
    const program = unmark(producer[at] ?? '');
    const args = producer.slice(at + 1);
    if (program === 'echo' && !args.some((arg) => unmark(arg).startsWith('-'))) return read(args.join(' '), depth + 1, true);
    if (program === 'printf' && args.length === 1 && !/[%\\]/u.test(args[0]!)) return read(args[0]!, depth + 1, true);
    if (program === 'cat' && args.length > 0 && !args.some((arg) => unmark(arg).startsWith('-'))) {
      for (const arg of args) parts(arg, true);
      return;
    }
    out.push({ kind: 'unresolved', text: unmark(producer.join(' ')), why: 'a shell runs what this command writes, which zotbox cannot tell' });
  };
  // A word that holds process substitutions (`source <(cat FILE)`): the commands inside are read; one that is run or
  // sourced runs what its command writes (read as a pipe into a shell is). True when the word is nothing else.
  const processSubstitutionsIn = (word: string, notes: LexNotes, index: number, runsAt: ReadonlySet<number>, depth: number): boolean => {
    const marks = Array.from(word.matchAll(/[\uF100-\uF1FF]/gu), (match) => processSubstitutionOf(match[0])!);
    if (marks.length === 0) return false;
    for (const mark of marks) if (depth < 4) read(notes.processSubstitutions![mark]!, depth + 1);
    const whole = processSubstitutionOf(word);
    if (!runsAt.has(index) || script === undefined) return whole !== undefined;
    const inner = whole === undefined ? [] : lexShell(notes.processSubstitutions![whole]!, expansions, substitute);
    if (inner.length === 1) programWritten(inner[0]!, depth);
    else {
      const written = unmark(word).replace(/[\uF100-\uF1FF]/gu, (mark) => `<(${notes.processSubstitutions![processSubstitutionOf(mark)!] ?? ''})`);
      out.push({ kind: 'unresolved', text: written.slice(0, 60), why: 'a shell runs what a process substitution writes, which zotbox cannot tell' });
    }
    return true;
  };
  if (mode === 'git') {
    for (const word of lexShell(
      value.replace(/[$`*?[{~]/gu, (c) => `\\${c}`),
      expansions,
    ).flat())
      if (word !== CASE_PATTERN) parts(word, false);
  } else read(value, 0);
  // BASH_ENV set or exported in any spelling (`${BASH_ENV:=f}`, `read BASH_ENV`, `export BASH_ENV`, `printf -v`): a
  // file every new bash sources first, whose functions it then has (review s99v). Only `$BASH_ENV` read is no set.
  if (script !== undefined && mode === 'shell') {
    const setting = [
      ...ansiDecoded(value)
        .replace(/["'\\]/gu, '')
        .matchAll(/(\$\{?)?\bBASH_ENV\b(:?=)?/gu),
    ].find((match) => match[1] === undefined || match[2] !== undefined);
    if (setting !== undefined)
      out.push({ kind: 'unresolved', text: setting[0], why: "it may set BASH_ENV, a file every new bash sources first (with that bash's $0 and functions), which zotbox does not follow" });
  }
  // A value bash evaluates where it is used (arithmetic, `${X@P}`, PS4, `${!X}`): refused where the script may have
  // set it to code, however it did (shell-evaluated-values.ts).
  if (script !== undefined && assignments !== undefined && mode === 'shell')
    for (const use of evaluatedUses(value, assignments, script.sourced === true)) out.push({ kind: 'unresolved', text: use.text, why: use.why });
  // A value holding quoted shell code (`PS4='+$(sh x.sh)'`, `X='a[$(sh x.sh)]'`): bash runs it in more ways than
  // eval (a trace prompt, arithmetic, `${X@P}`): read as this shell's own code.
  if (script !== undefined && assignments !== undefined)
    for (const values of assignments.values.values())
      for (const value of values)
        if (/\$\(|`/u.test(value))
          read(
            unmark(value).replace(/[\uE000-\uEFFF]/gu, (ch) => assignments.expansions[ch.charCodeAt(0) - EXPANSION_BASE] ?? ch),
            1,
          );
  // A command substitution a script uses runs too: its words are the script's words. So does one inside another
  // expansion (`${X:-$(cmd)}`, `${X:=`cmd`}`, `$(( $(cmd) + 1 ))`), quoted or not (read either way).
  if (script !== undefined)
    for (let i = 0; i < expansions.length && i < 256; i++) {
      const expansion = expansions[i]!;
      if (/^(\$\(|`)/u.test(expansion)) read(expansion.replace(/^\$\(|^`|\)$|`$/gu, ''), 1, textExpansions.has(i));
      else for (const inner of commandSubstitutions(expansion)) read(inner, 1, textExpansions.has(i));
    }
  // A function's body runs where it is called, a loop's body again after its own cds: a relative word counts from every
  // place the script's cds reach, not only from those written above it (review s13h).
  if (script !== undefined && moved.length > 0)
    for (const found of [...out]) {
      if (found.kind !== 'path' || found.anchor !== 'plain' || path.isAbsolute(found.text) || found.movedTo !== undefined) continue;
      for (const directory of moved) out.push({ ...found, text: path.join(directory.text, found.text), anchor: directory.anchor, movedTo: directory });
    }
  const keyOf = (word: CommandWord) => JSON.stringify(word.kind === 'path' ? [word.anchor, word.text, word.tree, word.runs ?? false, word.runner ?? '', word.afterWrites ?? false] : [word.text]);
  // A word run both as a command's program and otherwise (`x.sh; cat x.sh | sh`) may share the shell: it is not only a new process.
  const shared = new Set(out.filter((word) => word.kind === 'path' && word.runs === true && word.newProcess !== true).map(keyOf));
  const unique = new Map(
    out.map((word) => {
      const key = keyOf(word);
      if (word.kind !== 'path' || word.newProcess !== true || !shared.has(key)) return [key, word];
      const { newProcess: _, ...rest } = word;
      return [key, rest];
    }),
  );
  // A file it sources that another of its commands names may be written first: its text is not the one read here.
  if (script !== undefined)
    for (const file of sourcedFilesNamed(operands, script.workingDirectory, script.environment.HOME))
      unique.set(`sourced-named:${file}`, {
        kind: 'unresolved',
        text: file,
        why: 'the script sources a file another of its commands names (it may write it first, or for a later run), whose text zotbox cannot tell now',
      });
  const commands =
    ownCommands === undefined
      ? {}
      : {
          commands: {
            ...ownCommands,
            changesDirectory: ownCommands.changesDirectory === true || operands.changesDirectory,
            ...(script === undefined ? {} : placeOf(value, script, !operands.changesDirectory)),
          },
        };
  return { words: [...unique.values()], ...commands };
}

/** The moving functions a script may call: its sourced files', and those of files sourced before it. */
function inheritedMoving(script: ScriptContext): ReadonlySet<string> {
  return new Set([...(script.sourcedFunctions?.movingFunctions ?? []), ...(script.movingInherited ?? [])]);
}

/**
 * What sourcing this text does to the sourcer's place (shell-place-changes.ts): what it does itself, what the files it
 * sources do, and a call of one of their functions that may move the shell.
 */
function placeOf(text: string, script: ScriptContext, cdsHere: boolean): Pick<SourcedFunctions, 'moves' | 'movingFunctions' | 'replacesPlaces'> {
  // Where the script reader found every cd it followed to go where the script runs, the grammar's cds are judged by
  // their operands: to where the shell is, or to the top where the script runs at its repository's top.
  const atTop = script.repositoryTop === undefined || (script.repositoryTop !== null && path.resolve(script.repositoryTop) === path.resolve(script.workingDirectory));
  const place = placeChangesOf(text, inheritedMoving(script), cdsHere ? { atTop } : undefined);
  const moves = place.movesWhenSourced || script.sourcedFunctions?.moves === true;
  const replaces = place.replacesPlaces || script.sourcedFunctions?.replacesPlaces === true;
  return { ...(moves ? { moves: true } : {}), ...(replaces ? { replacesPlaces: true as const } : {}), ...(place.movingFunctions.size > 0 ? { movingFunctions: place.movingFunctions } : {}) };
}

/** What a script sets its variables to: each assignment's value words (expansions as placeholders into `expansions`). */
interface Assignments {
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** Loop variables and what `read` sets: the words of a list or a line of input, never spelled out. */
  readonly unknown: ReadonlySet<string>;
  /** What `read` sets: a line of input, anything. */
  readonly lines: ReadonlySet<string>;
  /** A loop's variable: each word of its list (read as run where the loop runs it). */
  readonly loops: ReadonlySet<string>;
  readonly expansions: readonly string[];
}

/**
 * The names a script defines as functions (`name() {`, `function name`), and whether any command may be one it does
 * not spell out (`any`): where a word may be an alias (shell-top-level-lines.ts), where it sources a file or reads
 * text with eval or trap (whose functions are not read here), and where it may have been handed functions (by the
 * script that runs it, or through the user's environment: `BASH_FUNC_…`, `BASH_ENV`) (reviews s97t, s99v).
 */
function definedCommands(text: string, script: ScriptContext): SourcedFunctions {
  // What the files it sources define, where the caller read them all (shell-sourced-functions.ts).
  const sourced = script.sourcedFunctions;
  const names = new Set([...functionNames(text), ...(sourced?.names ?? []), ...(script.inheritedFunctions ?? [])]);
  const any =
    mayAlias(text) ||
    // command_not_found_handle runs for every name bash does not find.
    handlesEveryName(names) ||
    // A file sourced, or text this shell reads (eval's, trap's): functions zotbox does not read may be defined there.
    (sourced === undefined ? sourceCommands(text) > 0 : sourced.any) ||
    readsText(text) ||
    script.inheritsFunctions === true ||
    Object.keys(script.environment).some((key) => key.startsWith('BASH_FUNC_') || key === 'BASH_ENV');
  return { names, any, changesDirectory: sourced?.changesDirectory === true };
}

function assignmentsOf(text: string): Assignments {
  const expansions: string[] = [];
  const values = new Map<string, string[]>();
  const unknown = new Set<string>();
  const lines = new Set<string>();
  const loops = new Set<string>();
  for (const command of lexShell(text, expansions)) {
    const words = command.map(unmark);
    if ((words[0] === 'for' || words[0] === 'select') && words[1] !== undefined) {
      unknown.add(words[1]);
      loops.add(words[1]);
    }
    // What `read`, `mapfile`/`readarray` (MAPFILE when unnamed) and `printf -v` set: input, or a value zotbox does not
    // spell out.
    const reader = words.findIndex((word) => word === 'read' || word === 'mapfile' || word === 'readarray');
    if (reader !== -1) {
      const names = words.slice(reader + 1).filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/u.test(name));
      for (const name of words[reader] === 'read' ? names : [...names, 'MAPFILE']) {
        unknown.add(name);
        lines.add(name);
      }
    }
    for (const [index, word] of words.entries()) if (word === '-v' && words[index - 1] === 'printf' && words[index + 1] !== undefined) unknown.add(words[index + 1]!);
    for (const [index, word] of command.entries()) {
      const assignment = ASSIGNMENT.exec(word);
      // An assignment starts a command, also after a keyword that opens one (`then X=…`, `do X=…`, `{ X=…`).
      const starts = index === 0 || (index === 1 && COMMAND_OPENERS.has(words[0]!));
      if (assignment === null || !(starts || DECLARERS.has(words[0]!) || ASSIGNMENT.test(unmark(command[index - 1]!)))) continue;
      const [, name, append, value] = assignment;
      if (append === '+') unknown.add(name!);
      else values.set(name!, [...(values.get(name!) ?? []), value!]);
    }
  }
  return { values, unknown, lines, loops, expansions };
}

/** Whether a command hands cd, pushd or popd to what may run it in this shell: its own function, a value, a `.`. */
function handsOnMove(command: readonly string[], words: readonly string[], at: number, own: SourcedFunctions | undefined): boolean {
  if (!words.slice(at + 1).some((word) => ['cd', 'pushd', 'popd'].includes(word))) return false;
  const program = command[at] ?? '';
  return /[\uE000-\uEFFF]/u.test(program) || ['.', 'source'].includes(words[at] ?? '') || own?.names.has(words[at] ?? '') === true || own?.any === true;
}

/** The most places a script's cds are followed to (each relative cd goes from every place before it). */
const MOST_PLACES = 64;

/** The script's own directory, as scripts spell it ("$(dirname -- "$0")", "${0%/*}", "$(cd "$(dirname "$0")" && pwd)"). */
const SCRIPT_DIRECTORY =
  /^(?:\$\(\s*(?:cd\s+"?)?\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)"?\s*(?:&&\s*pwd\s*)?\)|\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)|`dirname\s+(?:--\s+)?"?\$(?:0|\{0\})"?`|\$\{0%\/\*\})$/u;
/** More spellings of the script's own directory: ${BASH_SOURCE%/*}, $(dirname "$(readlink -f "$0")"), $(dirname "$(realpath "$0")"). */
const SCRIPT_DIRECTORY_MORE =
  /^(?:\$\{(?:0|BASH_SOURCE(?:\[0\])?)%\/\*\}|\$\(\s*(?:cd\s+"?)?\$\(\s*dirname\s+(?:--\s+)?"\$\(\s*(?:readlink\s+-[a-z]*f|realpath)\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\})"?\s*\)"\s*\)"?\s*(?:&&\s*pwd\s*)?\)|\$\(\s*dirname\s+(?:--\s+)?"\$\(\s*(?:readlink\s+-[a-z]*f|realpath)\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\})"?\s*\)"\s*\))$/u;
const SCRIPT_PARENT = /^\$\(\s*dirname\s+(?:--\s+)?"\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\})"?\s*\)"\s*\)$/u;

/** The folders of the files a script's `$0` and BASH_SOURCE name, where they are known and plain (a climb out of them is a path). */
const ownFolders = (script: ScriptContext): string[] =>
  [
    ...(script.scriptDirectory === undefined ? [] : [script.scriptDirectory]),
    ...[script.sourceFile, script.scriptRealFile, script.sourceRealFile].flatMap((file) => (file === undefined ? [] : [path.dirname(file)])),
  ].filter((folder) => script.isPlainFolder?.(folder) ?? true);

/**
 * The directory a spelling of the script's own directory stands for: BASH_SOURCE's or $0's, where it leads when the
 * spelling follows links (`readlink -f`, `realpath`); undefined where it is not known.
 */
function ownDirectory(expansion: string, script: ScriptContext): string | undefined {
  const physical = /readlink|realpath/u.test(expansion);
  if (expansion.includes('BASH_SOURCE')) {
    const file = physical ? (script.sourceRealFile ?? script.sourceFile) : script.sourceFile;
    return file === undefined ? undefined : path.dirname(file);
  }
  // `${0%/*}` of a $0 with no "/" (`sh -c TEXT`'s "sh") is $0 itself: only a known file has it spelled out.
  if (expansion.includes('%/*') && script.scriptFile === undefined) return undefined;
  return physical && script.scriptRealFile !== undefined ? path.dirname(script.scriptRealFile) : script.scriptDirectory;
}

/** Script mode: what an expansion is, where it can be told now (undefined: it cannot be). */
/**
 * Whether the command `name` may be a function or alias of the script's: one it or a file it sources defines, text it
 * reads as commands may (eval's, trap's, spelled anywhere in its text), a file it sources may define any, or it is
 * handed functions. eval or trap text that never spells the name is not taken to define it.
 */
function mayDefine(text: string, script: ScriptContext, defined: SourcedFunctions, name: string): boolean {
  const sourced = script.sourcedFunctions;
  // Any function only because the loose count took `find . -name` for a `.`: no file known to define it.
  if (defined.names.has(name) || (sourced?.any === true && sourced.loose !== true) || script.inheritsFunctions === true) return true;
  // In the first reading the files it sources are not read yet, and none is taken to define it: a `.` of
  // "$(git rev-parse …)/x.sh" is resolved first; the second reading knows what they define.
  if (Object.keys(script.environment).some((key) => key.startsWith('BASH_FUNC_') || key === 'BASH_ENV')) return true;
  const spelled = text.replace(/\\\n/gu, '').replace(/["'\\]/gu, '');
  return new RegExp(`(?:\\bfunction\\s+${name}\\b|\\b${name}\\s*\\(\\s*\\)|\\balias\\b[^\\n]*\\b${name}=|\\benable\\b[^\\n]*\\b${name}\\b)`, 'u').test(spelled);
}

/** What may make `$PWD`, `$(pwd)` or `$(git rev-parse --show-toplevel)` other than the place it names. */
interface PwdSpellings {
  readonly pwdSet: boolean;
  readonly pwdFunction: boolean;
  readonly gitFunction: boolean;
}

/** Whether `text` spells a place through a PWD, pwd or git the script may have made its own. */
function placeSpellingUnknown(text: string, own: PwdSpellings): boolean {
  return (own.pwdSet && /\bPWD\b/u.test(text)) || (own.pwdFunction && /\bpwd\b/u.test(text)) || (own.gitFunction && /\bgit\b/u.test(text));
}

function scriptSubstitute(script: ScriptContext, assignments: Assignments, pwd: PwdSpellings): Substitute {
  const resolving = new Set<string>();
  // A variable the script sets: its value spelled out when every assignment spells out the same (a loop's, a
  // command's output: never).
  const assigned = (name: string): string | undefined => {
    const values = assignments.values.get(name)!;
    if (assignments.unknown.has(name) || resolving.has(name)) return undefined;
    // A quoted or escaped `$` or backquote in the value (`X='sh "$(dirname "$0")/x"'`) is text: what it means depends on
    // the shell that reads it (a new shell's `sh -c "$X"` has its own $0), so it is not spelled out here.
    if (values.some((value) => /[$`]/u.test(value))) return undefined;
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
  // BASH_SOURCE is bash's own: under sh it may be (bash as sh) or not (dash), so it is unknown there; only shells that
  // surely are not bash leave it to the environment.
  const shellSets = (name: string) => SHELL_SET_NAMES.test(name) && !(name === 'BASH_SOURCE' && NOT_BASH.has(script.shell ?? ''));
  const valueOf = (name: string): string | undefined => {
    // A name the shell sets itself is never the user's environment: BASH_SOURCE is the file where bash reads it; the
    // rest (FUNCNAME, LINENO, ZSH_ARGZERO...) zotbox does not spell out. $PWD is where the shell is now.
    if (shellSets(name)) return name === 'BASH_SOURCE' ? script.sourceFile : name === 'PWD' && !pwd.pwdSet ? '.' : undefined;
    if (assignments.values.has(name)) return assigned(name);
    // A variable the environment does not hold now may hold anything when the script runs: left for resolvePart.
    return assignments.unknown.has(name) ? undefined : script.environment[name];
  };
  const substitute: Substitute = (expansion) => {
    if (SCRIPT_DIRECTORY.test(expansion) || SCRIPT_DIRECTORY_MORE.test(expansion)) return ownDirectory(expansion, script);
    // $0: the script's own file (`exec "$0.local"`, a hook's chained local copy).
    if ((expansion === '$0' || expansion === '${0}') && script.scriptFile !== undefined) return script.scriptFile;
    if (SCRIPT_PARENT.test(expansion)) return script.scriptDirectory === undefined ? undefined : path.dirname(script.scriptDirectory);
    // Where the shell is, spelled by a PWD or a pwd the script may have made its own: anything.
    if (placeSpellingUnknown(expansion, pwd)) return undefined;
    const directory = pathSubstitution(expansion, substitute, script);
    if (directory !== undefined) return directory;
    // $PWD is where the shell is now: "." after each cd (relative words are taken from every directory moved to).
    if (/^(\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)$/u.test(expansion)) return '.';
    // The repository's top, which is not where the script runs where a hook runs it from a subfolder (review s05b).
    if (TOP_EXPANSIONS.has(expansion)) return script.repositoryTop === undefined ? script.workingDirectory : (script.repositoryTop ?? undefined);
    const name = variableOf(expansion);
    if (name === undefined || POSITIONAL.test(expansion)) return undefined;
    if (/^\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\})$/u.test(expansion)) return valueOf(name);
    // ${X:-word}, ${X-word}, ${X:=word}, ${X=word}: the value when set, else the word; ${X:+word}: the word or nothing.
    const operator = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-=+])(.*)\}$/su.exec(expansion);
    if (operator === null) return undefined;
    const [, kind, word] = operator;
    if (kind!.endsWith('+')) return spelledOut(word!, substitute);
    const value = assignments.values.has(name) || assignments.unknown.has(name) || shellSets(name) ? valueOf(name) : script.environment[name];
    // Set by the shell, but to what zotbox cannot spell out: neither the value nor the word can be taken.
    if (value === undefined && shellSets(name)) return undefined;
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
const DIRNAME = new RegExp(String.raw`^(dirname|basename|realpath(?:\s+-[a-zA-Z]+)*|readlink\s+-[a-z]*f[a-z]*)\s+${OPERAND}$`, 'su');

/** A substitution that follows links: realpath, readlink -f, cd … && pwd. */
const PHYSICAL = /(\$\(|`)\s*(?:builtin\s+)?(?:realpath|readlink|cd)\b/u;

/**
 * Where `cd TARGET` may go: bash, dash and zsh look for a relative TARGET that does not start with `.` or `..` in each
 * folder CDPATH lists (an empty entry is the current one) before the current folder. CDPATH is the script's own value,
 * else the user's environment's; undefined in the list when the script sets it to what zotbox cannot spell out.
 */
function cdPathCandidates(target: string, substitute: Substitute | undefined): (string | undefined)[] {
  if (substitute === undefined || /^(?:\/|\.\.?(?:\/|$))/u.test(unmark(target))) return [target];
  const listed = substitute('$CDPATH');
  if (listed === undefined) return substitute('${CDPATH-}') === '' ? [target] : [target, undefined];
  return [target, ...listed.split(':').map((entry) => (entry === '' ? target : `${entry.replace(/\/+$/u, '')}/${target}`))];
}

/** A PATH lookup of one bare NAME whose output is that program's path (see pathSubstitution). */
const LOOKUP = /^(?:command\s+-v|which(?:\s+-a)?|type\s+-[pP])\s+([A-Za-z0-9_.+-]+)(?:\s+2>\s*\/dev\/null)?(?:\s*\|\s*head\s+-(?:n\s*)?1)?(?:\s*\|\|\s*echo\s+\1)?$/u;

/** Whether `absolute` is the script's own file ($0's or BASH_SOURCE's) or a folder that holds it. */
function onTheWayToScript(absolute: string, script: ScriptContext): boolean {
  const files = [
    script.scriptFile ?? (script.scriptDirectory === undefined ? undefined : path.join(script.scriptDirectory, '\u0000')),
    script.sourceFile,
    script.scriptRealFile,
    script.sourceRealFile,
  ];
  return files.some((file) => file !== undefined && (absolute === file || file.startsWith(absolute === '/' ? '/' : `${absolute}/`)));
}

/**
 * A command substitution that names a directory computed from a known path: `$(cd DIR && pwd)` (the repository's
 * top as "$(cd "$(dirname "$0")/../.." && pwd)"), `$(dirname WORD)`, `$(realpath WORD)`, `$(readlink -f WORD)`; the
 * absolute path when WORD spells out to one, else undefined (left unresolved).
 */
function pathSubstitution(expansion: string, substitute: Substitute, script: ScriptContext): string | undefined {
  const inner = (/^\$\((.*)\)$/su.exec(expansion) ?? /^`(.*)`$/su.exec(expansion))?.[1]?.trim();
  if (inner === undefined) return undefined;
  // `$(command -v NAME)`, `$(which NAME)`: the program NAME as PATH finds it, read as the bare name. So are the usual
  // dressings that keep it that name: errors dropped, the first of `which -a`, and `|| echo NAME` (NAME again, looked up
  // when run).
  const lookup = LOOKUP.exec(inner);
  if (lookup !== null) return lookup[1];
  const cd = CD_PWD.exec(inner);
  const other = cd === null ? DIRNAME.exec(inner) : null;
  const word = cd?.[1] ?? other?.[2];
  if (word === undefined) return undefined;
  const value = spelledOut(word, substitute);
  if (value === undefined || !path.isAbsolute(value)) return undefined;
  // realpath and cd -P follow a link before its `..`: a climb out of a folder but the script's own is not tidied away.
  if (climbsOutsideOwn(value, ownFolders(script))) return undefined;
  // realpath, readlink -f and cd … && pwd give a path with its links followed. Used as it is, or below, it is on the way
  // to what is then protected (protected-locations.ts stops the run when a folder on that way becomes a link); the
  // dirname of one drops its last folder, which is then on no protected way, unless the path is on the way to the
  // script itself (its own file or a folder holding it).
  if (other?.[1] === 'dirname' && PHYSICAL.test(word) && !onTheWayToScript(path.normalize(value), script)) return undefined;
  if (other?.[1] === 'basename') return path.basename(value);
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

/** The program a script's `#!` line runs (shebangProgram), or undefined where the text has none. */
export function shebangProgramOf(text: string): string | undefined {
  const line = /^#!\s*(\S+)([^\n]*)/u.exec(text);
  return line === null ? undefined : shebangProgram(line[1]!, line[2]!);
}

/** The words of a whole script a tool runs (a hook, a script a hook names), read where it runs. */
export function scriptWords(text: string, script: ScriptContext, defined?: DefinedCommands): CommandWord[] {
  return commandWords(text, 'shell', script, defined);
}
