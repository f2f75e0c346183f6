// After every command and every write of the file tools (issue 9 §3, issue 21
// §2 and §4): nothing left in the write scopes may make git run a program, now or
// when the user runs git later. A .git link or gitfile that is new or changed is
// undone; every config is held to a closed list of keys; every git directory is a
// closed world of data (git-directory-state.ts): what changed in it must be what
// git writes as data, anything else is put back as it was or removed. What fails
// is undone, and the caller stops the run.
import { lstatSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';
import { linkTargetOf } from './git-pointer-text.js';
import { checkCreatedConfig } from './git-config-rules.js';
import { recordGitDirectory, undoGitDirectoryChanges } from './git-directory-state.js';
import { pointerNamesNow, readSmallFile, sameEntry, type GitEntryState, type GitInventory } from './git-inventory.js';
import { movedGitDirectories, movedPointers } from './git-moved-entries.js';
import { linkOnTheWay } from './protected-locations.js';
import { setAsideOrReport } from './set-aside.js';

export interface GitViolation {
  readonly path: string;
  readonly reason: string;
}

/** Runs `fix`; the error code it failed with, if it did (never a raw error out of the aftercare). */
function attempt(fix: () => void): string | undefined {
  try {
    fix();
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/** Moves a user's gitfile or .git link aside (set-aside.ts), so that git no longer follows it; what became of it. */
function setPointerAside(entry: string): string {
  const outcome = setAsideOrReport(entry, () => false);
  if (outcome.failed !== undefined) return `moving it aside failed (${outcome.failed}): review it by hand`;
  return outcome.movedTo === undefined
    ? 'zotbox removed it (no name of its own was free beside it)'
    : `zotbox moved it to ${outcome.movedTo}: git no longer follows it; move it back once what it names is checked`;
}

/**
 * The .git entries after the call that are the user's, each with its state before the call: unchanged where it stood,
 * moved there with its parent (git-moved-entries.ts), or a gitfile or .git link zotbox put back (`restored`, whatever
 * inode the put-back gave it).
 */
function usersEntries(before: GitInventory, after: GitInventory, restored: ReadonlySet<string>): Map<string, GitEntryState> {
  const moved = movedPointers(before.gitEntries, after.gitEntries);
  const users = new Map<string, GitEntryState>();
  for (const [entry, state] of after.gitEntries) {
    const previous = before.gitEntries.get(entry);
    const earlier = sameEntry(previous, state) || restored.has(entry) ? previous : previous === undefined ? moved.get(entry) : undefined;
    if (earlier !== undefined) users.set(entry, earlier);
  }
  return users;
}

/** Removes what a command left at `entry`, putting back the user's link if one stood there (added to `restored`). */
function undo(entry: string, before: GitEntryState | undefined, restored: Set<string>): void {
  rmSync(entry, { recursive: true, force: true });
  if (before?.kind !== 'link' || before.link === undefined) return;
  symlinkSync(linkTargetOf(before.link), entry);
  // The user's link again, and what it names now is judged with theirs last (setAsideRepointedPointers).
  restored.add(entry);
}

/**
 * Compares the inventory after a command with the one before it, undoes every
 * git entry that breaks the rules (removed, restored, or the user's link put
 * back: added to `restored`), and returns what was undone.
 */
export function removeUnsafeGitChanges(before: GitInventory, after: GitInventory, restored: Set<string> = new Set()): GitViolation[] {
  const violations: GitViolation[] = [];
  // Each entry on its own: one that cannot be undone (a path past PATH_MAX, EBUSY) is reported, and the rest are still undone.
  const record = (entry: string, reason: string, fix: () => void) => {
    const failed = attempt(fix);
    violations.push({ path: entry, reason: failed === undefined ? reason : `${reason}; undoing it failed (${failed}): review it by hand` });
  };
  const judgeDirectory = (directory: string, judge: () => GitViolation[]) => {
    let found: GitViolation[] = [];
    const failed = attempt(() => {
      found = judge();
    });
    violations.push(...found, ...(failed === undefined ? [] : [{ path: directory, reason: `zotbox could not check it (${failed}): review it by hand` }]));
  };
  // The user's own entries are kept here; what a pointer among them names now is judged last (setAsideRepointedPointers).
  const users = usersEntries(before, after, restored);
  for (const [entry, state] of after.gitEntries) {
    const previous = before.gitEntries.get(entry);
    if (users.has(entry)) continue;
    // A .git directory, new or made anew, is checked entry by entry below, as a repository of its own.
    if (state.kind === 'directory' && (previous === undefined || previous.kind === 'directory')) continue;
    const reason =
      state.kind === 'link'
        ? 'a .git symlink sends git to a directory zotbox does not protect'
        : state.kind === 'file'
          ? "a gitfile points git at another directory's config and hooks"
          : 'a .git entry that is neither a file nor a directory';
    record(entry, reason, () => undo(entry, previous, restored));
  }
  // Each git directory is a closed world of data (git-directory-state.ts), also one that stopped looking like a repository.
  const moved = movedGitDirectories(before, after);
  for (const [directory, record] of after.records) judgeDirectory(directory, () => undoGitDirectoryChanges(directory, before.records.get(directory), record, moved.earlierOf(directory)));
  for (const [directory, record] of before.records) {
    if (after.records.has(directory) || !record.usable) continue;
    judgeDirectory(directory, () =>
      lstatSync(directory, { throwIfNoEntry: false })?.isDirectory() === true ? undoGitDirectoryChanges(directory, record, recordGitDirectory(directory, record.pointedTo)) : [],
    );
  }
  for (const [file, text] of after.configTexts) {
    const earlier = before.configTexts.get(moved.earlierConfig(file, after.configInodes.get(file)));
    if (earlier === text) continue;
    const verdict = checkCreatedConfig(text);
    if (verdict.ok) continue;
    record(file, verdict.reason, () => {
      rmSync(file, { force: true });
      if (earlier !== undefined) writeFileSync(file, earlier, { mode: 0o644, flag: 'wx' });
    });
  }
  // A directory the command made unreadable may hide anything: nothing to undo, so the run stops and says where.
  for (const directory of after.unreadable) violations.push({ path: directory, reason: 'it cannot be listed, so zotbox cannot check it for git metadata; restore its permissions and review it' });
  return violations;
}

/**
 * A gitfile or .git link of the user's (unchanged where it stood, moved there with its parent by the command or by
 * zotbox's own set-aside, or put back by zotbox) that names another directory now than before the call (a link on its
 * way re-pointed, a relative one moved a level down, a dangling link that zotbox's own set-aside filled) would hand
 * git a directory the command chose: it is moved aside, not followed, and the directory it names is left as it is (it
 * may be the user's: src/, the workspace). One that names nothing now is kept. `final` is a scan taken after every move
 * the aftercare made, so each pointer is judged where it lies and by what it names when zotbox is done.
 */
export function setAsideRepointedPointers(before: GitInventory, final: GitInventory, restored: ReadonlySet<string> = new Set()): GitViolation[] {
  const violations: GitViolation[] = [];
  // A new pointer is not among them: removeUnsafeGitChanges undid it.
  const users = new Map([...usersEntries(before, final, restored)].filter(([, earlier]) => earlier.kind === 'file' || earlier.kind === 'link'));
  // Until nothing changes: a pointer moved aside (a `.git` link still leads where it led) may be what another
  // pointer, kept in an earlier pass because it named nothing, names now.
  for (let moved = true; moved; ) {
    moved = false;
    for (const [entry, earlier] of users) {
      const names = pointerNamesNow(entry, final.gitEntries.get(entry) ?? earlier);
      if (names === undefined || names === earlier.names) continue;
      violations.push({ path: entry, reason: `it names another directory than before the call; ${setPointerAside(entry)}` });
      users.delete(entry);
      moved = true;
    }
  }
  return violations;
}

/** Unconfined commands could rewrite existing gitfiles: their contents before the command (git directories keep their own record). */
export function snapshotControlFiles(inventory: GitInventory): Map<string, string> {
  const snapshot = new Map<string, string>();
  for (const [entry, state] of inventory.gitEntries) if (state.kind === 'file') snapshot.set(entry, readSmallFile(entry) ?? '');
  return snapshot;
}

/**
 * Restores gitfiles an unconfined command changed, each on its own: one that cannot be put back is reported and the
 * rest are still put back. One whose folder is gone (`mv lib lib2`) went with it: it is found where it lies by its
 * inode and judged by what it names (setAsideRepointedPointers).
 */
export function restoreControlFiles(snapshot: ReadonlyMap<string, string>, writeRoots: readonly string[]): { violations: GitViolation[]; restored: Set<string> } {
  const violations: GitViolation[] = [];
  // Only the gitfiles put back: whatever stands at one that was not is judged as the command's.
  const restored = new Set<string>();
  for (const [file, text] of snapshot) {
    // Never through a link: a directory on the way replaced by one would have zotbox remove and write outside the scopes.
    const detour = linkOnTheWay(file, writeRoots);
    if (detour !== undefined) {
      violations.push({ path: file, reason: `${detour} on the way to this gitfile is not a plain directory now (a link?); zotbox follows no link to put it back, so review it` });
      continue;
    }
    if (readSmallFile(file) === text || !folderStands(file)) continue;
    const failed = attempt(() => {
      rmSync(file, { recursive: true, force: true });
      writeFileSync(file, text, { mode: 0o644, flag: 'wx' });
    });
    if (failed === undefined) restored.add(file);
    violations.push({
      path: file,
      reason: failed === undefined ? 'an existing gitfile was changed; its content was restored' : `an existing gitfile was changed; putting it back failed (${failed}): review it by hand`,
    });
  }
  return { violations, restored };
}

/** Whether the folder holding `file` is still a directory (one that cannot be looked at counts as standing: put back or report). */
function folderStands(file: string): boolean {
  try {
    return lstatSync(path.dirname(file), { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return true;
  }
}

export function gitProgramError(violations: readonly GitViolation[]): ZotboxError {
  const list = violations.map((v) => `${v.path} (${v.reason})`).join('; ');
  return new ZotboxError(
    'ZB_CONFINEMENT_GIT_PROGRAM',
    `the command left git metadata that would make git run programs: ${list}. zotbox undid it and stopped the run. An agent may create repositories and commit, but never hooks, fsmonitor, filters, pagers, editors, exec lines or other programs git would run, nor replace refs, forged objects or index flags that hide changes from git status.`,
    { details: { paths: violations.map((v) => v.path) } },
  );
}
