// Finding a program by name on a fixed search path, as execvp does. Its own file,
// importing only node:fs, so that callers outside the bash gate (requirements,
// bubblewrap detection) do not load the shell rules and argument tables (issue 11).
import { realpathSync, statSync } from 'node:fs';

/** The first executable regular file named `name` in the search path, canonicalised. */
export function lookupProgram(name: string, searchPath: readonly string[]): string | undefined {
  return findProgram(name, searchPath)?.program;
}

/** Like lookupProgram, also returning the path it was found at (its PATH entry). */
export function findProgram(name: string, searchPath: readonly string[]): { program: string; foundAt: string } | undefined {
  for (const directory of searchPath) {
    const candidate = `${directory}/${name}`;
    try {
      // Absence is reported without an exception: most directories of the path do not hold the program.
      const stats = statSync(candidate, { throwIfNoEntry: false });
      if (stats !== undefined && stats.isFile() && (stats.mode & 0o111) !== 0) return { program: realpathSync.native(candidate), foundAt: candidate };
    } catch {
      // Unreadable, or not a directory: keep searching, as execvp does.
    }
  }
  return undefined;
}
