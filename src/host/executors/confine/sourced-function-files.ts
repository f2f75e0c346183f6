// Reads what a file a script sources defines (shell-sourced-functions.ts), for the script readers: the file where its
// links lead, read whole or not at all, by the shell's grammar as the sourcer's shell reads it (what it sources in
// turn is read so too, MAX_DEPTH deep). A file that is not there is `absent` (the sourcer decides whether it may be
// there by the time it is sourced); one that is there but cannot be read (a link that loops, a directory, a device,
// larger than zotbox reads) may define anything.
import { lstatSync } from 'node:fs';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { invocationOf, type ScriptShell, scriptShell } from './script-invocation.js';
import { type DefinedCommands, type ScriptContext, scriptWords } from './shell-command-words.js';
import { handsOnFunctions, type SourcedRead } from './shell-sourced-functions.js';

/** How many files deep a chain of sourced files is read: past it, a file may define anything. */
const MAX_DEPTH = 4;

/** Where the sourcer's shell runs: what its words are relative to, its environment, its folders. */
export type SourcerPlace = Pick<ScriptContext, 'workingDirectory' | 'environment' | 'isPlainFolder' | 'realFolder' | 'repositoryTop'>;

/** `readSourced` for a script read as `shell` says: what a file it sources (an absolute path) defines. */
export function sourcedFileReader(shell: ScriptShell, place: SourcerPlace, depth = 0): SourcedRead {
  return (file, how) => {
    if (depth >= MAX_DEPTH) return undefined;
    const real = resolveCanonicalPath(file);
    const target = real.ok ? real.path : file;
    const text = readSmallFile(target);
    if (text === OVERSIZED) return undefined;
    // A dangling link is no file either: sh finds nothing to source there.
    if (text === undefined) return isAbsent(target) ? 'absent' : undefined;
    // Read as sourced, with the sourcer's $0 and shell; the sourcer's own functions are counted by the sourcer, so
    // told here as none (what this file may define is what is asked).
    // Whether it runs after writes, or after a cd, is the sourcer's to tell (`how`), not taken from no reading.
    const { afterWrites: _after, directoryUnknown: _moved, ...sourced } = invocationOf({ runner: '.' }, shell) ?? {};
    const invocation = { ...sourced, sourcerCommands: { names: [] } };
    const inner = scriptShell(text, file, target, invocation);
    const defined: DefinedCommands = {};
    const flags = {
      ...(how.afterWrites ? { afterWrites: true as const } : {}),
      ...(how.directoryUnknown ? { directoryUnknown: true as const } : {}),
      ...(how.movingFunctions === undefined ? {} : { movingInherited: how.movingFunctions }),
    };
    scriptWords(text, { ...inner, ...place, ...flags, readSourced: sourcedFileReader(inner, place, depth + 1) }, defined);
    if (defined.commands === undefined) return undefined;
    // Functions it exports (or a startup file it names) reach the shells the sourcer starts, under any name; what it
    // does to the place is still read from its text (nvm.sh sets allexport inside a function).
    if (handsOnFunctions(text)) return { ...defined.commands, any: true, changesDirectory: true };
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
