// How the shell that reads a script starts, as far as the script's spellings of its own place go. `$0` is the file
// the shell was started on: `.` and `source` change no $0, so a sourced file's is its sourcer's, and
// `$(dirname "$0")/../tools/lint.sh` in a hook's library names a path from the HOOK's folder. BASH_SOURCE is the
// file being read, but only bash has it: under dash `$(dirname "$BASH_SOURCE")` is ".", the current directory. So a
// script's own folder is taken from how it is run, never from the file zotbox reads. Pure, no I/O.
import path from 'node:path';
import { type ScriptContext, shebangProgramOf } from './shell-command-words.js';

/** How a script a script runs or sources is read, where its own #! line does not decide. */
export interface ScriptInvocation {
  /** Its $0, when it is sourced: the sourcer's, and where that leads (none where the sourcer's $0 cannot be told). */
  readonly sourced?: { readonly scriptFile?: string; readonly scriptRealFile?: string };
  /** Whether bash reads it: the sourcer's shell, or the shell named to run it (`bash x.sh`, `sh x.sh`). */
  readonly bash?: boolean;
}

/** The shells a script a shell is named to run is read by (interpreter-operands.ts SCRIPT_SHELLS). */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);

/** What a script's context takes from how it is run. */
export type ScriptShell = Pick<ScriptContext, 'scriptFile' | 'scriptDirectory' | 'sourceFile' | 'scriptRealFile' | 'sourceRealFile'>;

/**
 * The $0 and BASH_SOURCE of the script `text`, named `runAs` (a linked script's link) and read at `realFile` (where it
 * leads), run as `invocation` says.
 */
export function scriptShell(text: string, runAs: string, realFile: string, invocation: ScriptInvocation): ScriptShell {
  const sourced = invocation.sourced;
  const scriptFile = sourced === undefined ? runAs : sourced.scriptFile;
  const scriptRealFile = sourced === undefined ? realFile : sourced.scriptRealFile;
  // A #! line that runs bash (`#!/bin/bash`, `#!/usr/bin/env bash`).
  const bash = invocation.bash ?? shebangProgramOf(text) === 'bash';
  return {
    ...(scriptFile === undefined ? {} : { scriptFile, scriptDirectory: path.dirname(scriptFile) }),
    ...(scriptRealFile === undefined ? {} : { scriptRealFile }),
    ...(bash ? { sourceFile: runAs, sourceRealFile: realFile } : {}),
  };
}

/**
 * How the script a word runs is read: sourced (`.`, `source`) with the reading script's $0 and shell; run by a shell
 * named for it, with that shell; undefined when run by its own name (its #! line decides, and it is its own $0).
 */
export function invocationOf(runner: string | undefined, shell: ScriptShell): ScriptInvocation | undefined {
  if (runner === '.' || runner === 'source') {
    const sourced = shell.scriptFile === undefined ? {} : { scriptFile: shell.scriptFile, ...(shell.scriptRealFile === undefined ? {} : { scriptRealFile: shell.scriptRealFile }) };
    return { sourced, bash: shell.sourceFile !== undefined };
  }
  // Another shell named to run it (`sh x.sh`, `zsh x.sh`); any other interpreter reads no shell script.
  if (runner !== undefined && SHELLS.has(runner)) return { bash: runner === 'bash' };
  return undefined;
}
