// Walks a zotfile source directory into the canonical entry list: every file and
// directory below the root (the root itself excluded), sorted by the UTF-8 bytes
// of the relative path, modes normalized (spec Part A). Symlinks, FIFOs, sockets
// and devices are an error naming the path: a digest is never computed from a
// partial walk. Nothing here follows a symlink. Git metadata (".git" and its
// aliases) is refused unless the caller includes it on purpose: a zotfile never
// carries it, but a local directory agent may be a git checkout.
import { lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../errors.js';
import { CooperativeSlicer } from './cooperative.js';
import { checkEntryName, compareUtf8, findGitMetadataComponent } from './entry-name.js';
import { DEFAULT_LIMITS, type ArchiveLimits } from './limits.js';

export interface SourceEntry {
  /** Relative path with "/" separators, without a trailing "/". */
  readonly relativePath: string;
  readonly type: 'file' | 'directory';
  /** Normalized: 0o755 for directories and owner-executable files, else 0o644. */
  readonly mode: 0o644 | 0o755;
  readonly size: number;
  readonly absolutePath: string;
  /** Identity seen by the walk, re-checked when the file is opened. */
  readonly dev: number;
  readonly ino: number;
}

export interface WalkOptions {
  /** Canonical absolute paths to leave out (pack's own output and temp file). */
  readonly exclude?: ReadonlySet<string>;
  readonly limits?: ArchiveLimits;
  /**
   * "refuse" (the default, what pack uses): a path component naming git metadata
   * is ZB_ARCHIVE_ENTRY_UNSAFE. "include": walk it like any directory, for loading
   * a local directory agent that is a git checkout.
   */
  readonly gitMetadata?: 'refuse' | 'include';
}

export interface SourceTree {
  /** The canonical (realpath) root. */
  readonly root: string;
  readonly entries: readonly SourceEntry[];
}

export function normalizeMode(isDirectory: boolean, statMode: number): 0o644 | 0o755 {
  return isDirectory || (statMode & 0o100) !== 0 ? 0o755 : 0o644;
}

function describeType(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symlink';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file or directory';
}

function refuseGitMetadata(relativePath: string, absolutePath: string): void {
  const component = findGitMetadataComponent(relativePath);
  if (component === undefined) return;
  throw new ZotboxError(
    'ZB_ARCHIVE_ENTRY_UNSAFE',
    `cannot pack ${absolutePath}: ${JSON.stringify(component)} is git metadata (".git" or a name git treats as one), which a zotfile never carries: git run where the agent is unpacked would obey the hooks, fsmonitor and filters it names. Fix: pack a copy of the agent without it, or keep the agent in a subdirectory of the repository and pack that.`,
    { details: { path: absolutePath, component } },
  );
}

/** Walks `root` and returns its canonical entries, or throws naming the first offending path. */
export async function walkSourceTree(root: string, options: WalkOptions = {}): Promise<SourceTree> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  let rootStats;
  try {
    rootStats = lstatSync(root);
  } catch (cause) {
    throw fileSystemError('read the agent directory', root, cause);
  }
  if (rootStats.isSymbolicLink()) {
    throw new ZotboxError('ZB_ARCHIVE_SOURCE_UNSUPPORTED', `the agent directory ${root} is a symlink. Pass the directory it points to instead.`, { details: { path: root } });
  }
  if (!rootStats.isDirectory()) {
    throw new ZotboxError('ZB_IO_FAILED', `${root} is not a directory. Pass a zotfile directory (with manifest.json at its root).`, {
      details: { path: root },
    });
  }
  let canonicalRoot: string;
  try {
    canonicalRoot = realpathSync.native(root);
  } catch (cause) {
    throw fileSystemError('resolve', root, cause);
  }
  const slicer = new CooperativeSlicer();

  const entries: SourceEntry[] = [];
  let expandedBytes = 0;
  const pending: string[] = [''];
  while (pending.length > 0) {
    const relativeDir = pending.pop()!;
    const absoluteDir = relativeDir === '' ? canonicalRoot : path.join(canonicalRoot, relativeDir);
    let names: string[];
    try {
      names = readdirSync(absoluteDir);
    } catch (cause) {
      throw fileSystemError('list', absoluteDir, cause);
    }
    for (const name of names) {
      const relativePath = relativeDir === '' ? name : `${relativeDir}/${name}`;
      const absolutePath = path.join(canonicalRoot, relativePath);
      if (options.exclude?.has(absolutePath)) continue;
      if (options.gitMetadata !== 'include') refuseGitMetadata(relativePath, absolutePath);
      let stats;
      try {
        stats = lstatSync(absolutePath);
      } catch (cause) {
        throw fileSystemError('read', absolutePath, cause);
      }
      await slicer.tick();
      if (!stats.isFile() && !stats.isDirectory()) {
        throw new ZotboxError(
          'ZB_ARCHIVE_SOURCE_UNSUPPORTED',
          `${absolutePath} is ${describeType(stats)}; zotfiles may contain only regular files and directories. Replace it with a copy of what it points to, or remove it.`,
          { details: { path: absolutePath } },
        );
      }
      const nameCheck = checkEntryName(relativePath);
      if (!nameCheck.ok) {
        throw new ZotboxError('ZB_ARCHIVE_ENTRY_UNSAFE', `cannot pack ${absolutePath}: ${nameCheck.reason}. Rename it.`, {
          details: { path: absolutePath },
        });
      }
      const isDirectory = stats.isDirectory();
      entries.push({
        relativePath,
        type: isDirectory ? 'directory' : 'file',
        mode: normalizeMode(isDirectory, stats.mode),
        size: isDirectory ? 0 : stats.size,
        absolutePath,
        dev: stats.dev,
        ino: stats.ino,
      });
      expandedBytes += isDirectory ? 0 : stats.size;
      if (!isDirectory && stats.size > limits.maxEntryBytes) {
        throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `${absolutePath} is ${stats.size} bytes, over the ${limits.maxEntryBytes}-byte limit for one zotfile entry. Leave it out of the agent.`, {
          details: { limit: 'entry', max: limits.maxEntryBytes, path: absolutePath },
        });
      }
      if (expandedBytes > limits.maxExpandedBytes) {
        throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `${root} holds more than ${limits.maxExpandedBytes} bytes of files, over the zotfile limit. Remove what the agent does not need.`, {
          details: { limit: 'expanded', max: limits.maxExpandedBytes },
        });
      }
      if (entries.length > limits.maxEntries) {
        throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `${root} has more than ${limits.maxEntries} files and directories, more than a zotfile may hold. Remove what the agent does not need.`, {
          details: { limit: 'entries', max: limits.maxEntries },
        });
      }
      if (isDirectory) pending.push(relativePath);
    }
  }
  entries.sort((a, b) => compareUtf8(a.relativePath, b.relativePath));
  return { root: canonicalRoot, entries };
}
