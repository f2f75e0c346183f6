// After every command (issue 9 §3): nothing the command left in the write scopes
// may make git run a program, now or when the user runs git later. Control
// entries that existed before the command were read-only inside the sandbox (and
// its git directories could not be renamed away); unconfined, they are compared
// with a snapshot and restored. Anything new is checked closed-world: a new
// repository may hold what `git init`, commit, remote add and branch -u write,
// and nothing else. What fails is undone, and the caller stops the run.
import { lstatSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';
import { isGitControlEntry } from '../../../policy/git-control.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { checkCreatedConfig } from './git-config-rules.js';
import { OVERSIZED, isShapedLikeGitDirectory, readSmallFile, sameEntry, type GitEntryState, type GitInventory } from './git-inventory.js';

export interface GitViolation {
  readonly path: string;
  readonly reason: string;
}

const CONFIG_NAME = /^config(\.worktree)?$/iu;
/** A line of a rebase or sequencer todo list that runs a command. */
const EXEC_LINE = /^\s*(x|exec)(\s|$)/imu;

/** Checks a control entry that is new or replaced (configs are checked by their text, below). */
function checkControlEntry(entry: string): string | undefined {
  const name = path.basename(entry).toLowerCase();
  const stats = lstatSync(entry, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  if (CONFIG_NAME.test(name)) return stats.isFile() ? undefined : 'a git config that is not a regular file';
  if (name === 'commondir') return "a commondir file points git at another directory's config and hooks";
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
 * git entry that breaks the rules (removed, restored, or the user's link put
 * back), and returns what was undone.
 */
export function removeUnsafeGitChanges(before: GitInventory, after: GitInventory): GitViolation[] {
  const violations: GitViolation[] = [];
  const record = (entry: string, reason: string, fix: () => void) => {
    fix();
    violations.push({ path: entry, reason });
  };
  for (const [entry, state] of after.gitEntries) {
    const previous = before.gitEntries.get(entry);
    if (sameEntry(previous, state)) continue;
    // A .git directory, new or made anew, is checked entry by entry below, as a repository of its own.
    if (state.kind === 'directory' && (previous === undefined || previous.kind === 'directory')) continue;
    const reason =
      state.kind === 'link'
        ? 'a .git symlink sends git to a directory zotbox does not protect'
        : state.kind === 'file'
          ? "a gitfile points git at another directory's config and hooks"
          : 'a .git entry that is neither a file nor a directory';
    record(entry, reason, () => undo(entry, previous));
  }
  for (const [directory, { ino, control }] of after.gitDirectories) {
    const earlier = before.gitDirectories.get(directory);
    const existed = earlier !== undefined && earlier.ino === ino ? earlier.control : undefined;
    for (const [name, state] of control) {
      const previous = existed?.get(name);
      if (sameEntry(previous, state)) continue;
      const entry = path.join(directory, name);
      const reason = checkControlEntry(entry);
      if (reason !== undefined) record(entry, reason, () => undo(entry, previous));
    }
  }
  for (const [file, text] of after.configTexts) {
    const earlier = before.configTexts.get(file);
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
  for (const [file, text] of after.todoTexts) {
    if (before.todoTexts.get(file) === text || (text !== OVERSIZED && !EXEC_LINE.test(text))) continue;
    record(path.dirname(file), 'a rebase left to continue would run an exec line the command wrote', () => rmSync(path.dirname(file), { recursive: true, force: true }));
  }
  return violations;
}

/** Unconfined commands could rewrite existing gitfiles and hooks: their contents before the command (configs are compared by text). */
export function snapshotControlFiles(inventory: GitInventory): Map<string, string> {
  const snapshot = new Map<string, string>();
  for (const [directory, { control }] of inventory.gitDirectories) {
    for (const [name, state] of control) {
      if (state.kind !== 'directory' || name.toLowerCase() !== 'hooks') continue;
      const hooks = path.join(directory, name);
      for (const hook of readdirSync(hooks, { withFileTypes: true }).filter((e) => e.isFile())) snapshot.set(path.join(hooks, hook.name), readSmallFile(path.join(hooks, hook.name)) ?? '');
    }
  }
  for (const [entry, state] of inventory.gitEntries) if (state.kind === 'file') snapshot.set(entry, readSmallFile(entry) ?? '');
  return snapshot;
}

/** Restores gitfiles and hooks an unconfined command changed, and removes hooks it added. */
export function restoreControlFiles(snapshot: ReadonlyMap<string, string>, before: GitInventory, after: GitInventory): GitViolation[] {
  const violations: GitViolation[] = [];
  for (const [file, text] of snapshot) {
    if (readSmallFile(file) === text) continue;
    rmSync(file, { recursive: true, force: true });
    writeFileSync(file, text, { mode: path.basename(path.dirname(file)).toLowerCase() === 'hooks' ? 0o755 : 0o644, flag: 'wx' });
    violations.push({ path: file, reason: 'an existing git control file was changed; its content was restored' });
  }
  for (const [directory, { control }] of after.gitDirectories) {
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
    `the command left git metadata that would make git run programs: ${list}. zotbox undid it and stopped the run. An agent may create repositories and commit, but never hooks, fsmonitor, filters, pagers, editors, exec lines or other programs git would run.`,
    { details: { paths: violations.map((v) => v.path) } },
  );
}

/**
 * After the write tool wrote `written`: if that made the directory it is in, or
 * any directory above it up to its write scope's root, shaped like a git
 * directory (git opens such a directory as a repository under any name), every
 * control entry there must pass the rules for a new repository. What fails is
 * removed, and the error stops the run.
 */
export function refuseGitShapeAround(written: string, writeRoots: readonly string[]): void {
  const root = writeRoots.filter((r) => isInsideRoot(written, r)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return; // not in a write scope: the gate never approves that
  const violations: GitViolation[] = [];
  for (let directory = path.dirname(written); isInsideRoot(directory, root); directory = path.dirname(directory)) {
    const entries = (() => {
      try {
        return readdirSync(directory, { withFileTypes: true });
      } catch {
        return []; // unreadable: git could not open it either
      }
    })();
    if (isShapedLikeGitDirectory(entries)) {
      for (const entry of entries.filter((e) => isGitControlEntry(e.name))) {
        const full = path.join(directory, entry.name);
        const config = CONFIG_NAME.test(entry.name) && entry.isFile() ? checkCreatedConfig(readSmallFile(full) ?? '') : { ok: true as const };
        const reason = config.ok ? checkControlEntry(full) : config.reason;
        if (reason !== undefined) {
          rmSync(full, { recursive: true, force: true });
          violations.push({ path: full, reason });
        }
      }
    }
    if (directory === root) break;
  }
  if (violations.length > 0) throw gitProgramError(violations);
}
