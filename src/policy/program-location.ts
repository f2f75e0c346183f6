// A program's file must not be one the agent can change (adv27b, adv27c): a name found
// in a directory outside the write scopes (the fixed PATH, a program directory) whose
// file is, through a link (on any step of the way) or a hard link, in one would run
// whatever the agent wrote there, as the allowlisted program, and the rule that only
// trusted directories hold programs would not hold. A write scope that holds the directory itself is the user's explicit grant
// over those programs (a scope of "/"), and is not this case.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { type ChangeablePath, changeableProgram } from './changeable-program.js';
import { isInsideRoot, type CompiledScopes } from './scopes.js';
import { deny, type Check } from './shell-check.js';

/** `found`: where the name was found on the search path and the canonical file it is. */
export function checkProgramLocation(name: string, found: { readonly program: string; readonly foundAt: string }, scopes: CompiledScopes): Check<null> {
  const why = changeableInSearchDirectory(found.foundAt, scopes);
  if (why === undefined) return { ok: true, value: null };
  return deny('ZB_POLICY_SHELL_PROGRAM', `${JSON.stringify(name)} is denied: ${describeChangeable(found.foundAt, why)}, so the agent could change what runs as ${name}. ${FIX}`);
}

const FIX = 'Install the program outside the write scopes (a copy, not a link), or name another program directory.';

/** Why the agent could change what the program found at `foundAt` is, unless a write scope holds the directory it was found in. */
export function changeableInSearchDirectory(foundAt: string, scopes: CompiledScopes): ChangeablePath | undefined {
  const why = changeableProgram(foundAt, scopes.write);
  if (why === undefined) return undefined;
  // The directory as the scopes are written: canonical (/bin is /usr/bin on merged-/usr systems).
  const directory = canonicalDirectory(path.dirname(foundAt));
  const granted = directory !== undefined && scopes.write.some(({ root }) => isInsideRoot(directory, root));
  return granted ? undefined : why;
}

/** One sentence part: what `foundAt` is and how the agent reaches it (or that it cannot be told). */
export function describeChangeable(foundAt: string, why: ChangeablePath): string {
  return `${foundAt} ${why.why}`;
}

/** undefined when it cannot be resolved: then no scope is taken to hold it (the program is denied). */
function canonicalDirectory(directory: string): string | undefined {
  try {
    return realpathSync.native(directory);
  } catch {
    return undefined;
  }
}
