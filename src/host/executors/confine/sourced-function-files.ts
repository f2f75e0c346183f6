// Reads what a file a script sources defines (shell-sourced-functions.ts), for the script readers: the file where its
// links lead, read whole or not at all, by the shell's grammar as the sourcer's shell reads it (what it sources in
// turn is read so too, MAX_DEPTH deep). A file that is not there defines nothing; one that is there but cannot be read
// (a dangling or looping link, a directory, a device, larger than zotbox reads) may define anything.
import { lstatSync } from 'node:fs';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { invocationOf, type ScriptShell, scriptShell } from './script-invocation.js';
import { type DefinedCommands, type ScriptContext, scriptWords } from './shell-command-words.js';
import { handsOnFunctions, NO_FUNCTIONS, type SourcedFunctions } from './shell-sourced-functions.js';

/** How many files deep a chain of sourced files is read: past it, a file may define anything. */
const MAX_DEPTH = 4;

/** Where the sourcer's shell runs: what its words are relative to, its environment, its folders. */
export type SourcerPlace = Pick<ScriptContext, 'workingDirectory' | 'environment' | 'isPlainFolder'>;

/**
 * `readSourced` for a script read as `shell` says: what a file it sources (an absolute path) defines, read as that
 * shell reads it; undefined where it cannot be read.
 */
export function sourcedFileReader(shell: ScriptShell, place: SourcerPlace, depth = 0): (file: string) => SourcedFunctions | undefined {
  return (file) => {
    if (depth >= MAX_DEPTH) return undefined;
    const real = resolveCanonicalPath(file);
    const target = real.ok ? real.path : file;
    const text = readSmallFile(target);
    if (text === OVERSIZED) return undefined;
    if (text === undefined) return isAbsent(target) ? NO_FUNCTIONS : undefined;
    // Read as sourced, with the sourcer's $0 and shell; the sourcer's own functions are counted by the sourcer, so
    // told here as none (what this file may define is what is asked).
    const invocation = { ...invocationOf({ runner: '.' }, shell), sourcerCommands: { names: [] } };
    const inner = scriptShell(text, file, target, invocation);
    const defined: DefinedCommands = {};
    scriptWords(text, { ...inner, ...place, readSourced: sourcedFileReader(inner, place, depth + 1) }, defined);
    // Functions it exports (or a startup file it names) reach the shells the sourcer starts, under any name.
    if (defined.commands === undefined || handsOnFunctions(text)) return undefined;
    return defined.commands;
  };
}

/** Whether nothing at all lies at `file` (no link either); a path that cannot be looked at is not absent. */
function isAbsent(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) === undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
}
