// One git-state check for every writer (issue 21 §4): a bash call, confined or
// not, and each write or edit of the file tools record the git metadata of the
// write scopes before, and run the same aftercare after (git-aftercare.ts). What
// breaks the rules is undone and ZB_CONFINEMENT_GIT_PROGRAM stops the run.
import { gitProgramError, removeUnsafeGitChanges, restoreControlFiles, snapshotControlFiles } from './git-aftercare.js';
import { scanGitMetadata, type GitInventory } from './git-inventory.js';
import type { SandboxLayout } from './sandbox-plan.js';

export interface GitStateCheck {
  /** The git metadata as it was before: the sandbox protects what it lists. */
  readonly before: GitInventory;
  /** Throws ZB_CONFINEMENT_GIT_PROGRAM after undoing what broke the rules. */
  finish(): void;
}

function skippedOf(layout: SandboxLayout): string[] {
  return layout.stateDirectory === undefined ? [] : [layout.stateDirectory];
}

/** The aftercare against `before`; gitfiles are compared with their earlier text when `snapshot` is given (nothing bound them read-only). */
export function finishGitStateCheck(layout: SandboxLayout, before: GitInventory, snapshot?: ReadonlyMap<string, string>): void {
  // No size limit here: whatever the command made must all be checked, however many directories it made.
  const after = scanGitMetadata(layout.writeRoots, skippedOf(layout), false);
  const violations = [...(snapshot === undefined ? [] : restoreControlFiles(snapshot)), ...removeUnsafeGitChanges(before, after)];
  if (violations.length > 0) throw gitProgramError(violations);
}

/** Records the write scopes' git metadata now, for a writer that nothing binds read-only (unconfined commands, the file tools). */
export function beginGitStateCheck(layout: SandboxLayout, inventory?: GitInventory): GitStateCheck {
  const before = inventory ?? scanGitMetadata(layout.writeRoots, skippedOf(layout));
  const snapshot = snapshotControlFiles(before);
  return { before, finish: () => finishGitStateCheck(layout, before, snapshot) };
}
