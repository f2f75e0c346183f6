// One check for every writer (issue 21 §4): a bash call, confined or not, and
// each write or edit of the file tools record the git metadata of the write
// scopes and the files other tools run (protected-locations.ts) before, and run
// the same aftercare after (git-aftercare.ts). What breaks the rules is undone,
// and ZB_CONFINEMENT_GIT_PROGRAM, ZB_CONFINEMENT_PROTECTED_FILE or ZB_CONFINEMENT_NAME_UNSAFE stops the run.
import { ZotboxError } from '../../../errors.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { setAsideNewUnsafeNames, unsafeNameError } from './agent-name-checks.js';
import { gitProgramError, removeUnsafeGitChanges, restoreControlFiles, setAsideRepointedPointers, snapshotControlFiles, type GitViolation } from './git-aftercare.js';
import { scanGitMetadata, type GitInventory } from './git-inventory.js';
import { stagedContentViolations } from './git-staged-content.js';
import { fallbackProtectedSet, protectedFileError, protectedSetOf, recordProtected, restoreProtected, type ProtectedRecord } from './protected-locations.js';
import type { SandboxLayout } from './sandbox-plan.js';
import { stateDirectoryPlaces } from './state-aliases.js';
import { setAsideUndecodableNames, shownName, undecodableRefusal } from './undecodable-names.js';

export interface GitStateCheck {
  /** The git metadata as it was before: the sandbox protects what it lists. */
  readonly before: GitInventory;
  /** Throws ZB_CONFINEMENT_GIT_PROGRAM or ZB_CONFINEMENT_PROTECTED_FILE after undoing what broke the rules. */
  finish(): void;
}

function skippedOf(layout: SandboxLayout): string[] {
  return stateDirectoryPlaces(layout.stateDirectory);
}

/**
 * The aftercare against `before` and the protected files' `record`; gitfiles are compared with their earlier text
 * when `snapshot` is given (nothing bound them read-only).
 */
export function finishGitStateCheck(layout: SandboxLayout, before: GitInventory, record: ProtectedRecord, snapshot?: ReadonlyMap<string, string>): void {
  const violations: GitViolation[] = [];
  // Each step runs whatever an earlier one met: an error in one is a violation (the run stops), never a raw error
  // that leaves the rest of what the command did in place.
  const step = <T>(what: string, fallback: T, run: () => T): T => {
    try {
      return run();
    } catch (error) {
      violations.push({ path: layout.writeRoots.join(', '), reason: `zotbox could not finish ${what} (${(error as NodeJS.ErrnoException).code ?? String(error)}); review the write scopes by hand` });
      return fallback;
    }
  };
  // Gitfiles an unconfined command rewrote are put back first, so that what is judged below is what stays; the user's
  // links zotbox puts back join them in `restored` (removeUnsafeGitChanges).
  const putBack = step('putting back gitfiles', { violations: [], restored: new Set<string>() }, () =>
    snapshot === undefined ? { violations: [], restored: new Set<string>() } : restoreControlFiles(snapshot, layout.writeRoots),
  );
  violations.push(...putBack.violations);
  const restored = putBack.restored;
  // No size limit here: whatever the command made must all be checked, however many directories it made. Names that
  // are not UTF-8 hide what they hold from every check below: they go aside first, by their bytes (every one below
  // them too), and the scopes are looked at again.
  let after = scanGitMetadata(layout.writeRoots, skippedOf(layout), false, layout.userGit?.home);
  const isProtectedName = (candidate: string) => record.set.paths.some((held) => isInsideRoot(candidate, held) || isInsideRoot(held, candidate));
  const unspelled = after.undecodable.length === 0 ? [] : setAsideUndecodableNames(after.undecodable, isProtectedName);
  if (unspelled.length > 0) after = scanGitMetadata(layout.writeRoots, skippedOf(layout), false, layout.userGit?.home);
  // What could not be moved is still hidden: the run stops and says where.
  for (const entry of after.undecodable) {
    violations.push({
      path: entry.path.toString('utf8'),
      reason: `its name is not UTF-8 (${shownName(entry.path)}) and zotbox could not move it aside, so nothing in it was checked; review it by hand`,
    });
  }
  violations.push(...step('undoing git metadata', [], () => removeUnsafeGitChanges(before, after, restored)));
  // The git aftercare may have moved a `.git` or a pointer aside (zotbox-renamed-N): what it held (tool files, names
  // the scan had left out as git's) now lies at an ordinary name. Then the scopes are looked at as they are now.
  const current = violations.length > 0 ? step('looking at the scopes again', after, () => scanGitMetadata(layout.writeRoots, skippedOf(layout), false, layout.userGit?.home)) : after;
  // A path the set cannot look at (past PATH_MAX, a link loop): the set the inventory before the call gives now stands
  // in (else the record's), with every tool file found now, so what was protected is put back and what the command
  // made is removed (fallbackProtectedSet).
  const now =
    step('finding the protected files', undefined, () => protectedSetOf(current, layout.writeRoots, layout.userGit)) ??
    step('finding the tool files', record.set, () => fallbackProtectedSet(record.set, current, layout.writeRoots, () => protectedSetOf(before, layout.writeRoots, layout.userGit)));
  // The index and the commits refs name may not carry a protected file the user did not have (git-staged-content.ts).
  violations.push(...step('checking what git stages', [], () => stagedContentViolations(before, after, record, [...record.set.locations, ...now.locations], layout.writeRoots)));
  // Then what the user's other tools run (and what git config names outside git directories) is put back (issue 21 §3, §5).
  const changes = step('putting back protected files', [], () => restoreProtected(record, now, layout.writeRoots));
  // Then, so the checks above saw what the command left where it left it: new names read as options or code go aside.
  const names = [...unspelled, ...step('setting aside unsafe names', [], () => setAsideNewUnsafeNames(before, current, layout.writeRoots, [...record.set.paths, ...now.paths]))];
  // Last, after every move zotbox made: each user's pointer, found where it lies now (zotbox's set-asides may have
  // carried it), that names another directory now is moved aside.
  const moved = violations.length > 0 || changes.length > 0 || names.length > 0;
  const final = moved ? step('looking at the scopes once more', current, () => scanGitMetadata(layout.writeRoots, skippedOf(layout), false, layout.userGit?.home)) : current;
  violations.push(...step("checking the user's gitfiles and .git links", [], () => setAsideRepointedPointers(before, final, restored)));
  if (violations.length > 0) throw gitProgramError(violations);
  if (changes.length > 0) throw protectedFileError(changes);
  if (names.length > 0) throw unsafeNameError(names);
}

/** Records the write scopes' git metadata now, for a writer that nothing binds read-only (unconfined commands, the file tools). */
export function beginGitStateCheck(layout: SandboxLayout, inventory?: GitInventory): GitStateCheck {
  const before = inventory ?? scanGitMetadata(layout.writeRoots, skippedOf(layout), true, layout.userGit?.home);
  // A name that is not UTF-8, or a pointer whose text is not, hides from the checks: nothing is written or run.
  const refused = undecodableRefusal(before);
  if (refused !== undefined) throw refused;
  const snapshot = snapshotControlFiles(before);
  let record: ProtectedRecord;
  try {
    record = recordProtected(protectedSetOf(before, layout.writeRoots, layout.userGit), layout.writeRoots);
  } catch (error) {
    if (error instanceof ZotboxError) throw error;
    // A path zotbox cannot look at (past PATH_MAX, ELOOP): nothing is written or run, and the refusal says where.
    const where = (error as NodeJS.ErrnoException).path ?? layout.writeRoots.join(', ');
    throw new ZotboxError(
      'ZB_CONFINEMENT_BIND_UNSAFE',
      `command refused: zotbox cannot look at ${where} (${(error as NodeJS.ErrnoException).code ?? String(error)}), so it cannot tell which files there the user's tools run. Nothing was written or run. Fix: remove or shorten that path, or declare a narrower write scope.`,
      { details: { path: where }, cause: error },
    );
  }
  return { before, finish: () => finishGitStateCheck(layout, before, record, snapshot) };
}
