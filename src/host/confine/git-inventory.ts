// Finds git metadata at any depth of the write scopes (issue 9 §3), without
// following links: every entry named like ".git" (see policy/git-control.ts),
// the control entries of each git directory, and the directories that .git
// links, gitfiles, commondir files and config includes point to inside the
// write scopes (git obeys their config and hooks as the repository's own).
// Synchronous on purpose: a readdir walk is several times faster than its
// promise form, and it runs before and after every command.
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, readlinkSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../errors.js';
import { isGitControlEntry, isGitDirectoryName } from '../../policy/git-control.js';
import { resolveCanonicalPath } from '../../policy/path-resolve.js';
import { isInsideRoot } from '../../policy/scopes.js';
import type { GitDriverNames } from '../command-environment.js';
import { configuredDrivers, includedPaths } from './git-config-rules.js';

/** Directories visited in one scan before zotbox refuses to vouch for the scopes. */
const MAX_DIRECTORIES = 250_000;
/** Largest control file read (config, gitfile, commondir). */
const MAX_CONTROL_FILE_BYTES = 1024 * 1024;

export type GitEntryKind = 'directory' | 'file' | 'link' | 'other';

/** One entry as found: its kind and, for a link, what it says (so a replaced link is noticed and put back). */
export interface GitEntryState {
  readonly kind: GitEntryKind;
  readonly link?: string;
}

export interface GitInventory {
  /** Every entry named like .git, by absolute path. */
  readonly gitEntries: ReadonlyMap<string, GitEntryState>;
  /** Git directories (.git ones, and those pointed to inside the scopes) → their control entries, by actual name. */
  readonly gitDirectories: ReadonlyMap<string, ReadonlyMap<string, GitEntryState>>;
  /** Directories inside the write scopes that a link among the control entries points to: protected like the entry. */
  readonly linkTargets: readonly string[];
  /** Config files git may read for repositories in the scopes (includes too): their texts, for the driver names. */
  readonly configTexts: ReadonlyMap<string, string>;
}

export function readSmallFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined; // gone, a link, or unreadable: callers treat it as absent
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(stats.size, MAX_CONTROL_FILE_BYTES));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function stateOf(directory: string, entry: Dirent): GitEntryState {
  if (!entry.isSymbolicLink()) return { kind: entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other' };
  try {
    return { kind: 'link', link: readlinkSync(path.join(directory, entry.name)) };
  } catch {
    return { kind: 'link', link: '' }; // replaced while scanning: compared as changed
  }
}

function listDirectory(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return []; // unreadable or vanished: nothing in it can be listed, so nothing in it can be bound either
  }
}

/** Every .git entry below the roots; below a root, `skipped` trees and links are not entered. */
function findGitEntries(roots: readonly string[], skipped: readonly string[]): Map<string, GitEntryState> {
  const found = new Map<string, GitEntryState>();
  const pending = [...roots]; // roots are always walked: the agent's data directory lies inside the skipped state directory
  let visited = 0;
  while (pending.length > 0) {
    const directory = pending.pop()!;
    if (++visited > MAX_DIRECTORIES) {
      throw new ZotboxError('ZB_CONFINEMENT_BIND_UNSAFE', `command refused: the write scopes hold more than ${MAX_DIRECTORIES} directories, too many to check for git metadata around each command. Declare a narrower write scope.`, {
        details: { roots: [...roots] },
      });
    }
    for (const entry of listDirectory(directory)) {
      const full = path.join(directory, entry.name);
      if (isGitDirectoryName(entry.name)) found.set(full, stateOf(directory, entry));
      else if (entry.isDirectory() && !skipped.some((skip) => isInsideRoot(full, skip))) pending.push(full);
    }
  }
  return found;
}

export function scanGitMetadata(roots: readonly string[], skipped: readonly string[] = []): GitInventory {
  const gitEntries = findGitEntries(roots, skipped);
  const gitDirectories = new Map<string, Map<string, GitEntryState>>();
  const linkTargets: string[] = [];
  const configTexts = new Map<string, string>();
  /** A path inside the write scopes, canonical, or undefined (outside every write scope, nothing there is the agent's to change). */
  const insideScopes = (from: string, written: string | undefined): string | undefined => {
    if (written === undefined || written === '') return undefined;
    const target = resolveCanonicalPath(path.resolve(from, written));
    return target.ok && roots.some((root) => isInsideRoot(target.path, root)) ? target.path : undefined;
  };
  const addConfig = (file: string) => {
    if (configTexts.has(file)) return;
    const text = readSmallFile(file);
    if (text === undefined) return;
    configTexts.set(file, text);
    for (const included of includedPaths(text)) {
      // "~/…" is the user's own home: walked only if a write scope holds it, and then as that scope.
      if (included.startsWith('~')) continue;
      const target = insideScopes(path.dirname(file), included);
      if (target !== undefined) addConfig(target);
    }
  };
  const addGitDirectory = (directory: string) => {
    if (gitDirectories.has(directory)) return;
    const control = new Map<string, GitEntryState>();
    gitDirectories.set(directory, control);
    for (const entry of listDirectory(directory).filter((e) => isGitControlEntry(e.name))) control.set(entry.name, stateOf(directory, entry));
    for (const [name, state] of control) {
      const full = path.join(directory, name);
      if (state.kind === 'link') {
        const target = insideScopes(directory, state.link);
        if (target !== undefined) linkTargets.push(target);
        if (target !== undefined && /^config(\.worktree)?$/iu.test(name)) addConfig(target);
      } else if (/^config(\.worktree)?$/iu.test(name)) addConfig(full);
      else if (name.toLowerCase() === 'commondir') {
        const common = insideScopes(directory, readSmallFile(full)?.trim());
        if (common !== undefined) addGitDirectory(common);
      }
    }
  };
  for (const [entry, state] of gitEntries) {
    if (state.kind === 'directory') addGitDirectory(entry);
    else if (state.kind === 'link') {
      const target = insideScopes(path.dirname(entry), state.link);
      if (target !== undefined) addGitDirectory(target);
    } else if (state.kind === 'file') {
      const target = insideScopes(path.dirname(entry), /^gitdir:\s*(.*)$/mu.exec(readSmallFile(entry) ?? '')?.[1]?.trim());
      if (target !== undefined) addGitDirectory(target);
    }
  }
  return { gitEntries, gitDirectories, linkTargets, configTexts };
}

/** Every driver any config in the inventory defines: all of them are switched off for the call. */
export function gitDriversOf(inventory: GitInventory): GitDriverNames {
  const all = [...inventory.configTexts.values()].map(configuredDrivers);
  const union = (pick: (d: ReturnType<typeof configuredDrivers>) => string[]) => [...new Set(all.flatMap(pick))];
  return { filters: union((d) => d.filters), diffs: union((d) => d.diffs), merges: union((d) => d.merges), externalDiff: all.some((d) => d.externalDiff) };
}

/** True when two states describe the same entry (same kind, same link text). */
export function sameEntry(a: GitEntryState | undefined, b: GitEntryState | undefined): boolean {
  return a !== undefined && b !== undefined && a.kind === b.kind && a.link === b.link;
}
