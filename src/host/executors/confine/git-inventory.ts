// Finds git metadata at any depth of the write scopes (issue 9 §3), without
// following links: every entry named like ".git" (see policy/git-control.ts),
// every directory shaped like a git directory whatever its name (HEAD, objects/
// and refs/: git opens such a directory as a bare repository), the control
// entries of each, and what .git links, gitfiles, commondir files and config
// includes point to inside the write scopes (git obeys those as the repository's
// own). Synchronous on purpose: a readdir walk is several times faster than its
// promise form, and it runs before and after every command.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';
import { isInsideToolData, responseFileReason, unsafeNameReason } from '../../../policy/agent-file-names.js';
import { isGitControlEntry, isGitDirectoryName } from '../../../policy/git-control.js';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { protectedToolName } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import type { GitDriverNames } from '../command-environment.js';
import { configuredDrivers, includedPaths } from './git-config-rules.js';
import { recordGitDirectory, type GitDirectoryRecord } from './git-directory-state.js';
import { commondirDirectory, gitfileDirectory, isUnspellable, linkTextOf, spelled } from './git-pointer-text.js';
import { DirectoryWatch } from './directory-watch.js';
import { ScopeWalker, type UndecodableEntry } from './scope-walk.js';
import { expandUserPath } from './user-path-expansion.js';

/** Directories visited in one scan before zotbox refuses to vouch for the scopes. */
const MAX_DIRECTORIES = 250_000;
/** Largest control file read (config, gitfile, commondir, todo lists). */
const MAX_CONTROL_FILE_BYTES = 1024 * 1024;
/** Files in which git keeps commands it will run when the user continues (a rebase's `exec` lines). */
export const GIT_TODO_FILES: readonly string[] = ['rebase-merge/git-rebase-todo', 'sequencer/todo'];

export type GitEntryKind = 'directory' | 'file' | 'link' | 'other';

/** One entry as found: its kind, its inode (a replaced entry is a new one), and for a link what it says. */
export interface GitEntryState {
  readonly kind: GitEntryKind;
  readonly ino?: number;
  readonly link?: string;
  /** For a .git link or gitfile: the device and inode of the directory it names, if one is there (git-moved-entries.ts). */
  readonly names?: string;
  /** For a .git link or gitfile: the canonical path it names, when that lies in a write scope (links on the way followed as they stand). */
  readonly target?: string;
}

export interface GitInventory {
  /** Every entry named like .git, by absolute path. */
  readonly gitEntries: ReadonlyMap<string, GitEntryState>;
  /** Git directories (named like .git, or opened by git: a valid HEAD, or pointed to by a .git link, gitfile or commondir) → their inode and control entries by actual name. */
  readonly gitDirectories: ReadonlyMap<string, { readonly ino: number | undefined; readonly control: ReadonlyMap<string, GitEntryState> }>;
  /** Directories and files inside the write scopes that a link among the control entries, or an include, points to. */
  readonly linkTargets: readonly string[];
  /** Config files git may read for repositories in the scopes (includes too), with their texts. */
  readonly configTexts: ReadonlyMap<string, string>;
  /** The inode of each of those config files (a config moved with its parent is found by it: git-moved-entries.ts). */
  readonly configInodes: ReadonlyMap<string, number>;
  /** The todo lists of rebases and sequences in progress, with their texts. */
  readonly todoTexts: ReadonlyMap<string, string>;
  /** Each git directory's every path, with the bytes of what is not plain data (git-directory-state.ts); also of every directory holding a HEAD entry that git does not open (yet). */
  readonly records: ReadonlyMap<string, GitDirectoryRecord>;
  /**
   * Directories in the write scopes that exist but could not be listed (a command can chmod 000 one): git
   * metadata in them can be neither protected nor checked, so callers refuse to go on.
   */
  readonly unreadable: readonly string[];
  /** Entries named like a file other tools run (policy/protected-files.ts: .envrc, .vscode, ...), by absolute path. */
  readonly toolEntries: readonly string[];
  /** Entries named like an option or shell code (policy/agent-file-names.ts), outside .git and package directories, by absolute path. */
  readonly unsafeNames: readonly string[];
  /** Entries whose names are not UTF-8 (raw bytes, the whole path): nothing in them was looked at (scope-walk.ts). */
  readonly undecodable: readonly UndecodableEntry[];
}

/** Text that stands for a control file too large to read whole: it fails every check, so nothing past the cap is trusted. */
export const OVERSIZED = '\u0000zotbox: larger than the control file cap\u0000';

/** A control file's text; OVERSIZED when it is larger than zotbox reads (checks never see half a file). */
export function readSmallFile(file: string, encoding: 'utf8' | 'latin1' = 'utf8'): string | undefined {
  const bytes = readSmallBytes(file);
  return bytes === undefined || bytes === OVERSIZED ? bytes : bytes.toString(encoding);
}

/** A control file's bytes (readSmallFile, undecoded: a pointer's text is taken as git takes it, by bytes). */
function readSmallBytes(file: string): Buffer | typeof OVERSIZED | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined; // gone, a link, or unreadable: callers treat it as absent
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    if (stats.size > MAX_CONTROL_FILE_BYTES) return OVERSIZED;
    const buffer = Buffer.alloc(stats.size);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** The inode of `full`, or undefined when gone; a path that cannot be looked at (ENAMETOOLONG, ELOOP, EACCES) goes to `unreadable`. */
function inodeOf(full: string, unreadable: string[]): number | undefined {
  try {
    return lstatSync(full, { throwIfNoEntry: false })?.ino;
  } catch {
    unreadable.push(full);
    return undefined;
  }
}

function stateOf(full: string, entry: Dirent, unreadable: string[]): GitEntryState {
  if (entry.isSymbolicLink()) {
    try {
      return { kind: 'link', link: linkTextOf(full) };
    } catch {
      return { kind: 'link', link: '' }; // replaced while scanning: compared as changed
    }
  }
  const ino = inodeOf(full, unreadable);
  const kind = entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
  return ino === undefined ? { kind } : { kind, ino };
}

/** Lists a directory; one that exists but cannot be read is recorded in `unreadable` (what is in it cannot be vouched for). */
function listDirectory(directory: string, unreadable?: string[]): Dirent[] {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadable?.push(directory);
    return []; // vanished meanwhile: nothing in it to bind or check
  }
}

/**
 * Git opens a directory as a repository (a bare one, whatever its name) when it
 * holds a valid HEAD and objects/ and refs/, either its own or, through a
 * commondir file, another's. Every directory holding an entry named HEAD, in any
 * case (a case-folding directory opens `head` as HEAD) and of any kind, is a candidate: recorded before and after each command, so
 * that one a command makes into a repository is checked as a new one; it is a git
 * directory only when git opens it (addGitDirectory).
 */
export function isShapedLikeGitDirectory(entries: readonly Dirent[]): boolean {
  return entries.some((e) => e.name.toLowerCase() === 'head');
}

interface Found {
  readonly gitEntries: Map<string, GitEntryState>;
  readonly shaped: string[];
  readonly unreadable: string[];
  readonly toolEntries: string[];
  readonly unsafeNames: string[];
  readonly undecodable: readonly UndecodableEntry[];
}

/**
 * The process's walker for the git checks, with its cache of listings (scope-walk.ts: reused only while a
 * directory is provably unchanged). Another list to collect is one more predicate here.
 */
const gitMetadataWalker = new ScopeWalker(
  {
    entries: {
      git: (entry) => isGitDirectoryName(entry.name),
      tool: (entry) => protectedToolName(entry.name, path.basename(entry.parentPath)) !== undefined,
      // Every `@` name too: whether it stands at a top (a response file) is told where the roots are known.
      name: (entry) => unsafeNameReason(entry.name) !== undefined || responseFileReason(entry.name) !== undefined,
    },
    directories: { shaped: isShapedLikeGitDirectory },
  },
  {},
  new DirectoryWatch(),
);

/**
 * Every .git entry and git-shaped directory at or below the roots; below a root,
 * links and `skipped` trees are not entered. `limit` false walks however large
 * the scopes are (the aftercare: what a command made must all be checked).
 */
function findGitMetadata(roots: readonly string[], skipped: readonly string[], limit: boolean): Found {
  const walk = gitMetadataWalker.walk({ roots, skipped, ...(limit ? { maxDirectories: MAX_DIRECTORIES } : {}) });
  if (walk.exceeded) {
    throw new ZotboxError(
      'ZB_CONFINEMENT_BIND_UNSAFE',
      `command refused: the write scopes hold more than ${MAX_DIRECTORIES} directories, too many to check for git metadata around each command. Declare a narrower write scope.`,
      {
        details: { roots: [...roots] },
      },
    );
  }
  const gitEntries = new Map<string, GitEntryState>();
  const unreadable = [...walk.unreadable];
  for (const found of walk.entries.git) gitEntries.set(found.path, stateOf(found.path, found.entry, unreadable));
  // A name below .git is git's data, wherever the write roots lie.
  // Every `@` name is kept, at a top or not: one the user had stays theirs even where a command makes a `.git` beside it
  // (agent-name-checks.ts tells which new ones stand at a top).
  const unsafeNames = walk.entries.name.map((found) => found.path).filter((found) => !isInsideToolData(found));
  return { gitEntries, shaped: [...walk.directories.shaped], unreadable, toolEntries: walk.entries.tool.map((found) => found.path), unsafeNames, undecodable: walk.undecodable };
}

/** `limit`: refuse scopes of more than MAX_DIRECTORIES (before a command); the aftercare walks everything. */
/** `home`: the user's home, where git finds an include's `~/` (none known: such an include is not followed here). */
export function scanGitMetadata(roots: readonly string[], skipped: readonly string[] = [], limit = true, home?: string): GitInventory {
  const { gitEntries, shaped, unreadable, toolEntries, unsafeNames, undecodable } = findGitMetadata(roots, skipped, limit);
  const gitDirectories = new Map<string, { ino: number | undefined; control: Map<string, GitEntryState> }>();
  const linkTargets: string[] = [];
  const configTexts = new Map<string, string>();
  const configInodes = new Map<string, number>();
  const todoTexts = new Map<string, string>();
  const records = new Map<string, GitDirectoryRecord>();
  /** A path inside the write scopes, canonical, or undefined (outside every write scope, nothing there is the agent's to change). */
  const insideScopes = (from: string, written: string | undefined): string | undefined => {
    if (written === undefined || written === '' || isUnspellable(written)) return undefined;
    const target = resolveCanonicalPath(path.resolve(from, written));
    return target.ok && roots.some((root) => isInsideRoot(target.path, root)) ? target.path : undefined;
  };
  const addConfig = (file: string) => {
    if (configTexts.has(file)) return;
    const text = readSmallFile(file);
    if (text === undefined) return;
    configTexts.set(file, text);
    const ino = inodeOf(file, unreadable);
    if (ino !== undefined) configInodes.set(file, ino);
    for (const included of includedPaths(text)) {
      // "~/…" and "~NAME/…" as git expands them; one that cannot be (no home given, an account zotbox cannot find) is
      // not followed here: control-locations.ts refuses every writer on it.
      const expanded = home === undefined && included.startsWith('~') ? undefined : expandUserPath(included, home ?? '');
      if (expanded === undefined || 'problem' in expanded) continue;
      const target = insideScopes(path.dirname(file), expanded.path);
      if (target === undefined) continue;
      linkTargets.push(target);
      addConfig(target);
    }
  };
  const addGitDirectory = (directory: string, pointedTo: boolean) => {
    const known = records.get(directory);
    if (known !== undefined && pointedTo && !known.pointedTo) records.set(directory, { ...known, pointedTo, usable: true });
    if (known === undefined) {
      const record = recordGitDirectory(directory, pointedTo);
      records.set(directory, record);
      // A path in it zotbox cannot look at may be anything git runs: the run stops on it, whatever the directory is.
      for (const relative of record.unreachable ?? []) unreadable.push(path.join(directory, relative));
    }
    // Only a directory git opens (git-directory-state.ts opensAsRepository, or one a .git link, gitfile or commondir
    // names) or one named like .git (the user's `git init` there adopts its config and hooks) is a git directory: the
    // aftercare holds it to git's data. Any other directory holding a HEAD entry (a component folder `Head/`, an empty
    // HEAD a command made) is an ordinary one, its files protected, named and written like any other; its record is
    // kept, so a command that makes it one git opens is checked as a new repository.
    if (gitDirectories.has(directory) || (records.get(directory)?.usable !== true && !isGitDirectoryName(path.basename(directory)))) return;
    const control = new Map<string, GitEntryState>();
    gitDirectories.set(directory, { ino: inodeOf(directory, unreadable), control });
    for (const entry of listDirectory(directory).filter((e) => isGitControlEntry(e.name))) control.set(entry.name, stateOf(path.join(directory, entry.name), entry, unreadable));
    for (const todo of GIT_TODO_FILES) {
      const text = readSmallFile(path.join(directory, todo));
      if (text !== undefined) todoTexts.set(path.join(directory, todo), text);
    }
    for (const [name, state] of control) {
      const full = path.join(directory, name);
      if (state.kind === 'link') {
        const target = insideScopes(directory, state.link);
        if (target !== undefined) linkTargets.push(target);
        if (target !== undefined && /^config(\.worktree)?$/iu.test(name)) addConfig(target);
      } else if (/^config(\.worktree)?$/iu.test(name)) addConfig(full);
      else if (name.toLowerCase() === 'commondir') {
        const text = readSmallFile(full);
        const common = insideScopes(directory, text === undefined || text === OVERSIZED ? undefined : commondirDirectory(text));
        if (common !== undefined) addGitDirectory(common, true);
      }
    }
  };
  for (const directory of shaped) addGitDirectory(directory, false);
  for (const [entry, state] of gitEntries) {
    if (state.kind === 'directory') addGitDirectory(entry, false);
    if (state.kind !== 'link' && state.kind !== 'file') continue;
    const written = pointerText(entry, state);
    // A gitfile a `.git` link leads to is a pointer git reads: bound read-only like a control entry's link target.
    const gitfile = state.kind === 'link' ? insideScopes(path.dirname(entry), linkedGitfile(entry, state.link)) : undefined;
    if (gitfile !== undefined) linkTargets.push(gitfile);
    // A link's inode too, and what each pointer names: one moved with its parent is found by them (git-moved-entries.ts).
    const ino = state.kind === 'link' ? inodeOf(entry, unreadable) : state.ino;
    const names = namedDirectory(entry, written);
    const target = insideScopes(path.dirname(entry), written);
    gitEntries.set(entry, { ...state, ...(ino === undefined ? {} : { ino }), ...(names === undefined ? {} : { names }), ...(target === undefined ? {} : { target }) });
    if (target !== undefined) addGitDirectory(target, true);
  }
  return { gitEntries, gitDirectories, linkTargets, configTexts, configInodes, todoTexts, records, unreadable, toolEntries, unsafeNames, undecodable };
}

/** The device and inode of the directory a pointer at `entry` names (`written`, relative to the entry's directory), if it names one. */
function namedDirectory(entry: string, written: string | undefined): string | undefined {
  if (written === undefined || written === '') return undefined;
  if (isUnspellable(written)) return written; // never what a user's pointer named before (one such refuses the call)
  try {
    // Joined, not resolved: the kernel walks `a/cache/../main.git` through `cache` (a link, perhaps), as git does.
    const stats = statSync(path.isAbsolute(written) ? written : `${path.dirname(entry)}/${written}`);
    return stats.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined;
  } catch {
    return undefined; // names nothing (or nothing zotbox can look at): a moved pointer is then kept only if it names nothing still
  }
}

/** What a gitfile says git's directory is, read as git reads it (git-pointer-text.ts), or undefined. */
export function gitfileTarget(file: string): string | undefined {
  const bytes = readSmallBytes(file);
  if (bytes === undefined || bytes === OVERSIZED) return undefined;
  const written = gitfileDirectory(bytes.toString('latin1'));
  // Taken by bytes (latin1 keeps each byte as one character), then spelled: git opens the directory its bytes name.
  return written === undefined ? undefined : spelled(Buffer.from(written, 'latin1'));
}

/**
 * The regular file a `.git` link with this text leads to (through every link), which git reads as a gitfile (setup.c
 * read_gitfile_gently stats `.git` through its links); undefined when it leads to anything else or nowhere.
 */
export function linkedGitfile(entry: string, link: string | undefined): string | undefined {
  if (link === undefined || link === '' || isUnspellable(link)) return undefined;
  const reached = resolveCanonicalPath(path.resolve(path.dirname(entry), link));
  if (!reached.ok) return undefined;
  try {
    return statSync(reached.path).isFile() ? reached.path : undefined;
  } catch {
    return undefined; // leads nowhere: git finds no repository there either
  }
}

/**
 * Where a `.git` pointer at `entry` says git's directory is, as written (relative to the entry's folder), as git reads
 * it: a gitfile's text; a link's text, unless the link leads to a regular file, which git reads as a gitfile (a
 * relative path in it taken from the link's folder, not the file's).
 */
export function pointerText(entry: string, state: GitEntryState): string | undefined {
  if (state.kind === 'file') return gitfileTarget(entry);
  if (state.kind !== 'link') return undefined;
  const gitfile = linkedGitfile(entry, state.link);
  return gitfile === undefined ? state.link : gitfileTarget(gitfile);
}

/** What a .git link or gitfile at `entry` names now (device and inode of the directory), read afresh; undefined when nothing. */
export function pointerNamesNow(entry: string, state: GitEntryState): string | undefined {
  const now = state.kind === 'link' ? { kind: 'link' as const, link: readLinkText(entry) } : state;
  return namedDirectory(entry, pointerText(entry, now));
}

function readLinkText(entry: string): string | undefined {
  try {
    return linkTextOf(entry);
  } catch {
    return undefined; // gone or replaced: names nothing zotbox can follow
  }
}

/** Every driver any config in the inventory defines: all of them are switched off for the call. */
export function gitDriversOf(inventory: GitInventory): GitDriverNames {
  const all = [...inventory.configTexts.values()].map(configuredDrivers);
  const union = (pick: (d: ReturnType<typeof configuredDrivers>) => string[]) => [...new Set(all.flatMap(pick))];
  return { filters: union((d) => d.filters), diffs: union((d) => d.diffs), merges: union((d) => d.merges), externalDiff: all.some((d) => d.externalDiff) };
}

/** True when two states describe the same entry: same kind, same inode, same link text. */
export function sameEntry(a: GitEntryState | undefined, b: GitEntryState | undefined): boolean {
  return a !== undefined && b !== undefined && a.kind === b.kind && a.link === b.link && a.ino === b.ino;
}
