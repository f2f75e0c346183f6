// --program-path DIR (repeatable, declared in commands.ts): the user's program
// directories, for the commands that run or decide commands and those that show
// the search path.
// Relative ones resolve against the current directory; the checks are the
// host's (program-directories.ts), made where the directories are used.
import path from 'node:path';

/** The directories given with --program-path, absolute; undefined when none was given. */
export function programPathOf(values: Readonly<Record<string, unknown>>, cwd: string): string[] | undefined {
  const given = values['program-path'];
  if (!Array.isArray(given) || given.length === 0) return undefined;
  return given.map((entry) => path.resolve(cwd, String(entry)));
}
