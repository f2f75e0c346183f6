// What an allowed git subcommand reads and writes: the repository, the worktree
// paths it names (or the whole worktree), and .git, checked against the scopes.
import { deny as no, type Check } from '../shell-check.js';
import type { ParsedArguments } from './parse-arguments.js';
import type { ArgumentContext } from './value-kinds.js';

export function checkGitEffects(name: string, _parsed: ParsedArguments, _context: ArgumentContext): Check<null> {
  return no('ZB_POLICY_SHELL_ARGUMENT', `${name}: not yet understood.`);
}
