// A program's file must not be one the agent can change (adv27b): a name found in a
// directory outside the write scopes (the fixed PATH, a program directory) whose file
// is, through a link, inside one would run whatever the agent wrote there, as the
// allowlisted program, and the rule that only trusted directories hold programs would
// not hold. A write scope that holds the directory itself is the user's explicit grant
// over those programs (a scope of "/"), and is not this case.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isInsideRoot, type CompiledScopes } from './scopes.js';
import { deny, type Check } from './shell-check.js';

/** `found`: where the name was found on the search path and the canonical file it is. */
export function checkProgramLocation(name: string, found: { readonly program: string; readonly foundAt: string }, scopes: CompiledScopes): Check<null> {
  const inScope = scopes.write.filter(({ root }) => isInsideRoot(found.program, root));
  if (inScope.length === 0) return { ok: true, value: null };
  // The directory as the scopes are written: canonical (/bin is /usr/bin on merged-/usr systems).
  const directory = canonicalDirectory(path.dirname(found.foundAt));
  const scope = inScope.find(({ root }) => directory === undefined || !isInsideRoot(directory, root));
  if (scope === undefined) return { ok: true, value: null };
  const what = found.program === found.foundAt ? `its file ${found.program} is` : `${found.foundAt} is a link to ${found.program},`;
  return deny(
    'ZB_POLICY_SHELL_PROGRAM',
    `${JSON.stringify(name)} is denied: ${what} inside the write scope ${scope.declared} of this run, so the agent could change what runs as ${name}. Install the program outside the write scopes (or link to a copy there).`,
  );
}

/** undefined when it cannot be resolved: then no scope is taken to hold it (the program is denied). */
function canonicalDirectory(directory: string): string | undefined {
  try {
    return realpathSync.native(directory);
  } catch {
    return undefined;
  }
}
