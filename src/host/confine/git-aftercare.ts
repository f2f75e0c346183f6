// After every command (issue 9 §3): no git control file that the command left
// in the write scopes may name a program. Control files that existed before the
// command were read-only inside the sandbox; unconfined, they are compared with
// the snapshot taken before and restored. Anything new is checked closed-world:
// a new repository may hold what `git init`, commit, remote add and branch -u
// write, and nothing else. What fails is removed, and the caller stops the run.
import { lstatSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../errors.js';
import { checkCreatedConfig } from './git-config-rules.js';
import { readSmallFile, sameEntry, type GitEntryState, type GitInventory } from './git-inventory.js';

export interface GitViolation {
  readonly path: string;
  readonly reason: string;
}

/** Checks one control entry of a git directory that did not exist before the command. */
function checkNewControlEntry(entry: string): string | undefined {
  const name = path.basename(entry).toLowerCase();
  const stats = lstatSync(entry, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (name === 'config' || name === 'config.worktree') {
    if (!stats.isFile()) return 'a git config that is not a regular file';
    const verdict = checkCreatedConfig(readSmallFile(entry) ?? '');
    return verdict.ok ? undefined : verdict.reason;
  }
  if (name === 'commondir') return 'a commondir file points git at another directory\'s config and hooks';
  if (!stats.isDirectory()) return `${name} should be a directory`;
  const children = readdirSync(entry, { withFileTypes: true });
  if (name === 'hooks') {
    const hook = children.find((child) => !(child.isFile() && child.name.endsWith('.sample')));
    return hook === undefined ? undefined : `the hook ${hook.name} would run on git commands`;
  }
  if (name === 'info') {
    const odd = children.find((child) => !child.isFile());
    return odd === undefined ? undefined : `info/${odd.name} is not a regular file`;
  }
  // modules/ and worktrees/ hold other git directories, whose config and hooks git would obey.
  return children.length === 0 ? undefined : `${name}/ holds git directories zotbox cannot vouch for`;
}

/** Removes what a command left at `entry`, putting back the user's link if one stood there. */
function undo(entry: string, before: GitEntryState | undefined): void {
  rmSync(entry, { recursive: true, force: true });
  if (before?.kind === 'link' && before.link !== undefined) symlinkSync(before.link, entry);
}

/**
 * Compares the inventory after a command with the one before it, undoes every
 * git entry that breaks the rules (removed, or the user's link put back), and
 * returns what was undone.
 */
export function removeUnsafeGitChanges(before: GitInventory, after: GitInventory): GitViolation[] {
  const violations: GitViolation[] = [];
  const record = (entry: string, previous: GitEntryState | undefined, reason: string) => {
    undo(entry, previous);
    violations.push({ path: entry, reason });
  };
  for (const [entry, state] of after.gitEntries) {
    const previous = before.gitEntries.get(entry);
    if (sameEntry(previous, state) || (previous === undefined && state.kind === 'directory')) continue; // a new .git directory is checked entry by entry below
    if (state.kind === 'link') record(entry, previous, 'a .git symlink sends git to a directory zotbox does not protect');
    else if (state.kind === 'file') record(entry, previous, 'a gitfile points git at another directory\'s config and hooks');
    else record(entry, previous, `a .git ${state.kind} replaced what was there before`);
  }
  for (const [directory, control] of after.gitDirectories) {
    const existed = before.gitDirectories.get(directory);
    for (const [name, state] of control) {
      const previous = existed?.get(name);
      if (sameEntry(previous, state)) continue;
      const entry = path.join(directory, name);
      const reason = previous === undefined ? checkNewControlEntry(entry) : `${name} was replaced (it was a ${previous.kind})`;
      if (reason !== undefined) record(entry, previous, reason);
    }
  }
  return violations;
}

/** Unconfined commands could rewrite existing control files: their contents before the command. */
export function snapshotControlFiles(inventory: GitInventory): Map<string, string> {
  const snapshot = new Map<string, string>();
  for (const [directory, control] of inventory.gitDirectories) {
    for (const [name, state] of control) {
      const entry = path.join(directory, name);
      if (state.kind === 'file') snapshot.set(entry, readSmallFile(entry) ?? '');
      if (state.kind === 'directory' && name.toLowerCase() === 'hooks') {
        for (const hook of readdirSync(entry, { withFileTypes: true }).filter((e) => e.isFile())) snapshot.set(path.join(entry, hook.name), readSmallFile(path.join(entry, hook.name)) ?? '');
      }
    }
  }
  for (const [entry, state] of inventory.gitEntries) if (state.kind === 'file') snapshot.set(entry, readSmallFile(entry) ?? '');
  return snapshot;
}

/** Restores control files an unconfined command changed, and removes hooks it added. */
export function restoreControlFiles(snapshot: ReadonlyMap<string, string>, before: GitInventory, after: GitInventory): GitViolation[] {
  const violations: GitViolation[] = [];
  for (const [file, text] of snapshot) {
    if (readSmallFile(file) === text) continue;
    rmSync(file, { recursive: true, force: true });
    writeFileSync(file, text, { mode: 0o644, flag: 'wx' });
    violations.push({ path: file, reason: 'an existing git control file was changed; its content was restored' });
  }
  for (const [directory, control] of after.gitDirectories) {
    if (!before.gitDirectories.has(directory)) continue;
    const hooks = [...control].find(([name, state]) => name.toLowerCase() === 'hooks' && state.kind === 'directory')?.[0];
    if (hooks === undefined) continue;
    for (const hook of readdirSync(path.join(directory, hooks))) {
      const file = path.join(directory, hooks, hook);
      if (!snapshot.has(file) && !hook.endsWith('.sample')) {
        rmSync(file, { recursive: true, force: true });
        violations.push({ path: file, reason: `the hook ${hook} would run on git commands` });
      }
    }
  }
  return violations;
}

export function gitProgramError(violations: readonly GitViolation[]): ZotboxError {
  const list = violations.map((v) => `${v.path} (${v.reason})`).join('; ');
  return new ZotboxError(
    'ZB_CONFINEMENT_GIT_PROGRAM',
    `the command left git control files that would make git run programs: ${list}. zotbox removed them and stopped the run. An agent may create repositories and commit, but never hooks, fsmonitor, filters, pagers, editors or other programs in git's configuration.`,
    { details: { paths: violations.map((v) => v.path) } },
  );
}
