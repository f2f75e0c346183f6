// --program-path DIR (repeatable): the user's program directories, for the
// commands that run or decide commands and those that show the search path.
// Relative ones resolve against the current directory; the checks are the
// host's (program-directories.ts), made where the directories are used.
import path from 'node:path';
import type { OptionSpec } from './command-spec.js';

export const PROGRAM_PATH_OPTION: OptionSpec = {
  name: 'program-path',
  type: 'string',
  multiple: true,
  valueName: 'DIR',
  description:
    'Also find programs in DIR, before the fixed PATH (repeatable, in this order), e.g. ~/.nvm/versions/node/v22.1.0/bin or ~/.cargo/bin. DIR must exist, lie outside the write scopes and be writable by no one but you or root; the sandbox binds it read-only, with its parent when DIR is named bin (docs/permissions.md).',
};

/** The directories given with --program-path, absolute; undefined when none was given. */
export function programPathOf(values: Readonly<Record<string, unknown>>, cwd: string): string[] | undefined {
  const given = values['program-path'];
  if (!Array.isArray(given) || given.length === 0) return undefined;
  return given.map((entry) => path.resolve(cwd, String(entry)));
}
