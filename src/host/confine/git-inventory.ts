// Finds git metadata at any depth of the write scopes (issue 9 §3), without
// following links: every entry named like ".git" (see policy/git-control.ts),
// the control entries of each .git directory, and the directories that gitfiles,
// commondir files and config includes point to inside the write scopes (git
// reads their config as if it were the repository's). Synchronous on purpose:
// a readdir walk is several times faster than its promise form (bench: confine).
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../errors.js';
import { isGitControlEntry, isGitDirectoryName } from '../../policy/git-control.js';
import { resolveCanonicalPath } from '../../policy/path-resolve.js';
import { isInsideRoot } from '../../policy/scopes.js';
import { configuredDrivers, includedPaths } from './git-config-rules.js';
import type { GitDriverNames } from '../command-environment.js';

/** Directories visited in one scan before zotbox refuses to vouch for the scopes. */
const MAX_DIRECTORIES = 250_000;
/** Largest control file read (config, gitfile, commondir). */
const MAX_CONTROL_FILE_BYTES = 1024 * 1024;

export type GitEntryKind = 'directory' | 'file' | 'link' | 'other';

export interface GitInventory {
  /** Every entry named like .git, by absolute path, with its kind. */
  readonly gitEntries: ReadonlyMap<string, GitEntryKind>;
  /** Git directories (.git ones, and those pointed to inside the scopes), each with the control entries it holds (actual names). */
  readonly gitDirectories: ReadonlyMap<string, readonly string[]>;
  /** Config files git may read for repositories in the scopes (including includes): their texts, for driver names. */
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

function kindOf(entry: Dirent): GitEntryKind {
  return entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
}

function listDirectory(directory: string): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return []; // unreadable or vanished: nothing in it can be listed, so nothing in it can be bound either
  }
}

/** Walks `roots`, never entering links or, below a root, the `skipped` trees (the masked state directory). */
export function scanGitMetadata(roots: readonly string[], skipped: readonly string[] = []): GitInventory {
  const gitEntries = new Map<string, GitEntryKind>();
  // Roots are always walked (the agent's own data directory lies inside the state directory); below them, skipped trees are not entered.
  const pending = [...roots];
  let visited = 0;
  while (pending.length > 0) {
    const directory = pending.pop()!;
    if (++visited > MAX_DIRECTORIES) {
      throw new ZotboxError('ZB_CONFINEMENT_BIND_UNSAFE', `command refused: the write scopes hold more than ${MAX_DIRECTORIES} directories, too many to check for git metadata before each command. Declare a narrower write scope.`, {
        details: { roots: [...roots] },
      });
    }
    for (const entry of listDirectory(directory)) {
      const full = path.join(directory, entry.name);
      if (isGitDirectoryName(entry.name)) gitEntries.set(full, kindOf(entry));
      else if (entry.isDirectory() && !skipped.some((skip) => isInsideRoot(full, skip))) pending.push(full);
    }
  }
  const gitDirectories = new Map<string, readonly string[]>();
  const configTexts = new Map<string, string>();
  const addGitDirectory = (directory: string) => {
    if (gitDirectories.has(directory)) return;
    const control = listDirectory(directory).filter((e) => isGitControlEntry(e.name)).map((e) => e.name);
    gitDirectories.set(directory, control);
    for (const name of control.filter((n) => /^config(\.worktree)?$/iu.test(n))) addConfig(path.join(directory, name));
    const common = control.find((n) => n.toLowerCase() === 'commondir');
    if (common !== undefined) followPointer(directory, readSmallFile(path.join(directory, common))?.trim());
  };
  const addConfig = (file: string) => {
    if (configTexts.has(file)) return;
    const text = readSmallFile(file);
    if (text === undefined) return;
    configTexts.set(file, text);
    for (const included of includedPaths(text)) {
      if (included.startsWith('~')) continue; // the user's home: outside what an agent can write unless a scope holds it, then it is walked as a scope
      const target = resolveCanonicalPath(path.resolve(path.dirname(file), included));
      if (target.ok && roots.some((root) => isInsideRoot(target.path, root))) addConfig(target.path);
    }
  };
  // A pointer (gitfile, commondir) to a directory inside the scopes makes that directory a git directory too.
  const followPointer = (from: string, written: string | undefined) => {
    if (written === undefined || written === '') return;
    const target = resolveCanonicalPath(path.resolve(from, written));
    if (target.ok && roots.some((root) => isInsideRoot(target.path, root))) addGitDirectory(target.path);
  };
  for (const [entry, kind] of gitEntries) {
    if (kind === 'directory') addGitDirectory(entry);
    else if (kind === 'file') followPointer(path.dirname(entry), /^gitdir:\s*(.*)$/mu.exec(readSmallFile(entry) ?? '')?.[1]?.trim());
  }
  return { gitEntries, gitDirectories, configTexts };
}

/** Every driver any config in the inventory defines: all of them are switched off for the call. */
export function gitDriversOf(inventory: GitInventory): GitDriverNames {
  const all = [...inventory.configTexts.values()].map(configuredDrivers);
  const union = (pick: (d: ReturnType<typeof configuredDrivers>) => string[]) => [...new Set(all.flatMap(pick))];
  return { filters: union((d) => d.filters), diffs: union((d) => d.diffs), merges: union((d) => d.merges), externalDiff: all.some((d) => d.externalDiff) };
}
