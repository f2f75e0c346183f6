// How the shell that reads a script starts, as far as the script's spellings of its own place go. `$0` is the file
// the shell was started on: `.` and `source` change no $0, so a sourced file's is its sourcer's, and
// `$(dirname "$0")/../tools/lint.sh` in a hook's library names a path from the HOOK's folder. BASH_SOURCE is the
// file being read, but only bash has it: under dash `$(dirname "$BASH_SOURCE")` is ".", the current directory. So a
// script's own folder is taken from how it is run, never from the file zotbox reads. Pure, no I/O.
import path from 'node:path';
import { type ScriptContext, shebangProgramOf } from './shell-command-words.js';
import type { SourcedFunctions } from './shell-sourced-functions.js';
import { ansiDecoded } from './shell-lexer.js';

/** How a script a script runs or sources is read, where its own #! line does not decide. */
export interface ScriptInvocation {
  /** Its $0, when it is sourced: the sourcer's, and where that leads (none where the sourcer's $0 cannot be told). */
  readonly sourced?: { readonly scriptFile?: string; readonly scriptRealFile?: string };
  /**
   * The shell that reads it: the sourcer's, the shell named to run it (`bash x.sh`, `sh x.sh`), or the one a tool runs
   * it with whatever its #! line says (husky 9's `sh -e .husky/NAME`).
   */
  readonly shell?: string;
  /** The sourcer's $0 and BASH_SOURCE are not the file's own where its code runs (see OPAQUE): neither is this file's. */
  readonly opaque?: true;
  /** The sourcer may hand its functions to a new bash (NEW_BASH): a function this file defines may run there. */
  readonly newBash?: true;
  /** The sourcer defines functions (read with its $0): this file must not hand them to a new bash. */
  readonly sourcerFunctions?: true;
  /**
   * Run with no runner named and not as a command's program (`source <(cat x)`, `. /dev/stdin < x`, a function that
   * sources its argument): it may run in the reading script's shell, with that shell's attributes and traps. Its $0 is
   * read as a file run by its own name's.
   */
  readonly sharesShell?: true;
  /** Run by a new shell from a script that may hand it functions (NEW_BASH, OPAQUE): a command it runs may be one. */
  readonly inheritsFunctions?: true;
  /**
   * Sourced or sharing the shell: the functions that shell has, where its script's reading could tell them all
   * (shell-sourced-functions.ts); without it, a command it runs may be any function.
   */
  readonly sourcerCommands?: { readonly names: readonly string[] };
  /** Sourced after a command that may write files ran (or at a time zotbox cannot tell): see ScriptContext. */
  readonly afterWrites?: true;
  /** Sourced by a shell that may have changed directory: see ScriptContext. */
  readonly directoryUnknown?: true;
}

/** The shells a script a shell is named to run is read by (interpreter-operands.ts SCRIPT_SHELLS). */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
/**
 * The shells whose `.` keeps the sourcer's $0. zsh gives a sourced file its own (FUNCTION_ARGZERO), and zotbox does not
 * model the others: a file they source has a $0 zotbox cannot tell.
 */
const SOURCE_KEEPS_ZERO = new Set(['sh', 'dash', 'bash', 'ash']);

/**
 * OPAQUE: code whose $0 and BASH_SOURCE are not the script's where it runs: a function bash exports (`export -f`, `declare
 * -fx`), which a new bash runs with its own $0 (`xargs bash -c 'f "$0"'`) and BASH_SOURCE "environment"; and a
 * function in a shell that gives each its own $0 (zsh, ksh's `function NAME`), whose dirname is ".".
 */
const EXPORTS_FUNCTIONS = /(?:^|[\s;&|({])(?:export|declare|typeset|local|readonly)\s+(?:[-+][a-zA-Z]*\s+)*-[a-zA-Z]*f/mu;
const DEFINES_FUNCTION = /(?:^|[\s;&|({=])(?:function\b|[^\s(){};&|=]+\s*\(\s*\)|\(\s*\)\s*\{)/mu;
/**
 * What may hand a script's functions to a new bash, in any spelling (`set -a`, `eval "export -f f"`, `\export -f`,
 * `BASH_FUNC_f%%=`): a word `bash` after the #! line, `export` with any `-f`, allexport. Read loosely: a match only
 * makes the functions' $0 unknown.
 */
// A program word the shell computes (a variable, a pattern, a brace expansion: `$BASH`, `/bin/ba[s]h`, `{ba,}sh`,
// `${X:-ba}sh`), at a command's start or after a word that runs the next one (exec, command, env...), may be bash too;
// `[`, `[[` and `{` alone are the test command and a group.
const NEW_BASH = new RegExp(
  String.raw`\bbash\b|\$\{?(?:BASH|SHELL)\b|BASH_FUNC_|allexport|\bset\s+(?:[-+][a-zA-Z]*\s+)*-[a-zA-Z]*a|\bexport\b[^\n]*-[a-zA-Z]*f|` +
    // `set` with an operand it computes (`set -$X`, `set -o all${Y}export`) may turn allexport on; the running shell's
    // own program (/proc/self/exe, /proc/$$/exe) is bash; script, su, runuser, flock, parallel, tmux and screen run a
    // command line with the user's $SHELL, bash for most.
    String.raw`\bset\s[^\n;&|]*\$|\/proc\/[^\s/]+\/exe\b|(?:^|[;&|(){}!]|\b(?:then|do|else|exec|command|env|nohup|nice|time|timeout|xargs)\b)\s*(?:script|su|runuser|flock|parallel|tmux|screen)(?=\s|$)|` +
    String.raw`(?:^|[;&|(){}]|\b(?:then|do|else|exec|command|builtin|env|nohup|nice|time|timeout|xargs|setsid|stdbuf|flock)\b)\s*(?!\[\[?(?:\s|$)|\{(?:\s|$))[^\s;&|()<>]*[$[?*{\x60]`,
  'mu',
);
/** A #! line with bash's -a or -o allexport (`#!/usr/bin/env -S bash -o allexport`). */
const SHEBANG_ALLEXPORT = /^#![^\n]*(?:\s-[a-zA-Z]*a|allexport)/u;
/** $0 set by the script (`BASH_ARGV0=x` in bash 5, `0=x` in zsh): not the file it was started on. */
const REASSIGNS_ZERO = /(?:^|[\s;&|({])(?:BASH_ARGV0|0)\+?=/mu;

/** What a script's context takes from how it is run; `opaque`: its $0 and BASH_SOURCE are not told (OPAQUE above). */
export type ScriptShell = Pick<
  ScriptContext,
  'scriptFile' | 'scriptDirectory' | 'sourceFile' | 'scriptRealFile' | 'sourceRealFile' | 'shell' | 'sourced' | 'inheritsFunctions' | 'inheritedFunctions' | 'afterWrites' | 'directoryUnknown'
> & {
  readonly opaque?: true;
  readonly newBash?: true;
  /** It defines functions, read with its $0 (a file it sources must not hand them to a new bash). */
  readonly functions?: true;
  /** It may hand its sourcer's functions (read with the sourcer's $0) to a new bash: the caller refuses (unresolved). */
  readonly handsOnFunctions?: true;
};

/**
 * The $0 and BASH_SOURCE of the script `text`, named `runAs` (a linked script's link) and read at `realFile` (where it
 * leads), run as `invocation` says.
 */
export function scriptShell(text: string, runAs: string, realFile: string, invocation: ScriptInvocation): ScriptShell {
  const sourced = invocation.sourced;
  const scriptFile = sourced === undefined ? runAs : sourced.scriptFile;
  const scriptRealFile = sourced === undefined ? realFile : sourced.scriptRealFile;
  // Its #! line's program (`#!/bin/bash`, `#!/usr/bin/env zsh`); git runs a hook with none through sh.
  const shell = invocation.shell ?? shebangProgramOf(text) ?? 'sh';
  // The text after its #! line (`#!/usr/bin/env bash` names no new bash), as the shell joins its words: quotes and
  // backslashes gone (`ba""sh`, `ex''port`), a line continuation joined, `$'…'` decoded (`b$'\x61'sh`), comments gone.
  const body = ansiDecoded(text.replace(/^#![^\n]*/u, ''))
    .replace(/\\\n/gu, '')
    .replace(/^\s*#.*$/gmu, '')
    .replace(/["'\\]/gu, '');
  const newBash = invocation.newBash === true || NEW_BASH.test(body) || SHEBANG_ALLEXPORT.test(text);
  const opaque =
    invocation.opaque === true ||
    // zsh, ksh and the shells zotbox does not model give a function (an anonymous one, one autoloaded) its own $0.
    !SOURCE_KEEPS_ZERO.has(shell) ||
    EXPORTS_FUNCTIONS.test(body) ||
    REASSIGNS_ZERO.test(body) ||
    // A function a new bash may run.
    (DEFINES_FUNCTION.test(text) && newBash);
  // A file sourced by a script with functions that may hand them to a new bash: the sourcer's $0 was taken for them.
  const handsOn = invocation.sourcerFunctions === true && (newBash || EXPORTS_FUNCTIONS.test(body)) ? { handsOnFunctions: true as const } : {};
  // Sourced: it runs in its sourcer's shell, with that shell's variables, attributes and traps (shell-evaluated-values.ts).
  const inSourcer = sourced === undefined && invocation.sharesShell !== true ? {} : { sourced: true as const };
  // A function its runner handed it, or one of the shell it runs in (sourced, or sharing it), may be named like any
  // command it runs; where that shell's reading told its functions, only a command so named.
  const known = 'sourced' in inSourcer ? invocation.sourcerCommands : undefined;
  const inherits =
    invocation.inheritsFunctions === true || ('sourced' in inSourcer && known === undefined)
      ? { inheritsFunctions: true as const }
      : known !== undefined && known.names.length > 0
        ? { inheritedFunctions: known.names }
        : {};
  // When what it sources is sourced, as the shell it runs in left things (shell-sourced-functions.ts).
  const when = { ...(invocation.afterWrites === true ? { afterWrites: true as const } : {}), ...(invocation.directoryUnknown === true ? { directoryUnknown: true as const } : {}) };
  if (opaque) return { shell, opaque: true, ...handsOn, ...inSourcer, ...inherits, ...when };
  return {
    ...inSourcer,
    ...inherits,
    ...when,
    ...(scriptFile === undefined ? {} : { scriptFile, scriptDirectory: path.dirname(scriptFile) }),
    ...(scriptRealFile === undefined ? {} : { scriptRealFile }),
    ...(shell === 'bash' ? { sourceFile: runAs, sourceRealFile: realFile } : {}),
    shell,
    ...(newBash ? { newBash: true as const } : {}),
    // Its own functions, or its sourcer's, which it hands on to what it sources in turn.
    ...(DEFINES_FUNCTION.test(text) || invocation.sourcerFunctions === true ? { functions: true as const } : {}),
    ...handsOn,
  };
}

/**
 * How the script a word runs is read: sourced (`.`, `source`) with the reading script's $0 and shell; run by a shell
 * named for it, with that shell; undefined when run by its own name (its #! line decides, and it is its own $0). A word
 * read in shell text a new shell runs (`sh -c TEXT`, a here-document fed to sh) is sourced by that shell, whose $0
 * zotbox does not tell; so is one a shell zotbox does not model sources.
 */
export function invocationOf(
  word: { readonly runner?: string; readonly inShellText?: true; readonly newProcess?: true; readonly afterWrites?: true },
  shell: ScriptShell,
  commands?: SourcedFunctions,
): ScriptInvocation | undefined {
  const runner = word.runner;
  // The functions of the shell a sourced file runs in, where the reading told them all (in shell text a new shell
  // reads, that shell's: not told).
  const sourcer = commands === undefined || commands.any || word.inShellText === true ? {} : { sourcerCommands: { names: [...commands.names].sort() } };
  // A reading that tells no functions (commands undefined) reads what it sources with any function: where it is sourced
  // from does not matter there.
  const moved = commands?.changesDirectory === true ? { directoryUnknown: true as const } : {};
  if (runner === '.' || runner === 'source') {
    const keeps = word.inShellText !== true && shell.scriptFile !== undefined && SOURCE_KEEPS_ZERO.has(shell.shell ?? '');
    const sourced = keeps ? { scriptFile: shell.scriptFile, ...(shell.scriptRealFile === undefined ? {} : { scriptRealFile: shell.scriptRealFile }) } : {};
    // A text's new shell may be any (`bash -c`, `sh -c`): read as sh, whose BASH_SOURCE spellings are unresolved.
    return {
      sourced,
      shell: word.inShellText === true ? 'sh' : (shell.shell ?? 'sh'),
      ...(shell.opaque === true ? { opaque: true as const } : {}),
      ...(shell.newBash === true ? { newBash: true as const } : {}),
      ...(shell.functions === true ? { sourcerFunctions: true as const } : {}),
      ...sourcer,
      ...(word.afterWrites === true ? { afterWrites: true as const } : {}),
      ...moved,
    };
  }
  // Another shell named to run it (`sh x.sh`, `zsh x.sh`); any other interpreter reads no shell script.
  const handsOn = shell.newBash === true || shell.opaque === true ? { inheritsFunctions: true as const } : {};
  if (runner !== undefined && SHELLS.has(runner)) return { shell: runner, ...handsOn };
  // When it is sourced zotbox cannot tell: after anything.
  if (runner === undefined && word.newProcess !== true) return { sharesShell: true, ...sourcer, afterWrites: true, ...moved };
  // Run by its own name: its #! line decides; a shell there may be handed this script's functions.
  return 'inheritsFunctions' in handsOn ? handsOn : undefined;
}
