// The files a run added, modified or deleted in its case workspace, compared with
// the snapshot of the fresh copy, for graders (grader-input.ts). The walk lstat's
// and never descends into or opens a link, FIFO, socket or device: those are
// reported by kind, never read. Reads and the walk itself are bounded.
import { readdirSync, type Stats, lstatSync } from 'node:fs';
import { compareUtf8 } from '../../archive/entry-name.js';
import { digestFileAtMost, errnoOf, readFileAtMost } from './bounded-read.js';
import type { WorkspaceSnapshot } from './fixture-copy.js';
import type { ChangedFile } from './grader-input.js';
import { describeEntry, type EntryKind } from './no-link-path.js';

export interface ChangeLimits {
  /** Content larger than this is omitted as too_large (never read). */
  readonly maxFileBytes: number;
  /** Content over all files; past it, contents are omitted as too_large. */
  readonly maxTotalBytes: number;
  /** Entries the walk looks at; past it, the walk stops and says so. */
  readonly maxEntries: number;
}

export const DEFAULT_CHANGE_LIMITS: ChangeLimits = { maxFileBytes: 256 * 1024, maxTotalBytes: 4 * 1024 * 1024, maxEntries: 20_000 };

export interface WorkspaceChanges {
  /** Sorted by path (UTF-8 bytes). */
  readonly files: readonly ChangedFile[];
  /** The walk reached maxEntries and stopped: files may be missing, and no deletion is reported (none can be told). */
  readonly truncated: boolean;
  /** Entries the host could not look at (a chmod 000 folder or file); nothing below them is reported deleted. */
  readonly unreadable: readonly { readonly path: string; readonly errno: string }[];
}

interface Walk {
  readonly entries: Map<string, Stats>;
  readonly unreadable: { path: string; errno: string }[];
  truncated: boolean;
}

/** Every entry below `root` (canonical), by lstat; directories are descended, nothing else is. */
function walkWorkspace(root: string, maxEntries: number): Walk {
  const walk: Walk = { entries: new Map(), unreadable: [], truncated: false };
  const pending: string[] = [''];
  for (let relative = pending.pop(); relative !== undefined && !walk.truncated; relative = pending.pop()) {
    let names: string[];
    try {
      names = readdirSync(relative === '' ? root : `${root}/${relative}`);
    } catch (cause) {
      walk.unreadable.push({ path: relative, errno: (cause as NodeJS.ErrnoException).code ?? 'error' });
      continue;
    }
    for (const name of names.sort(compareUtf8)) {
      if (walk.entries.size >= maxEntries) {
        walk.truncated = true;
        break;
      }
      const child = relative === '' ? name : `${relative}/${name}`;
      try {
        const stats = lstatSync(`${root}/${child}`);
        walk.entries.set(child, stats);
        if (stats.isDirectory()) pending.push(child);
      } catch (cause) {
        walk.unreadable.push({ path: child, errno: (cause as NodeJS.ErrnoException).code ?? 'error' });
      }
    }
  }
  return walk;
}

/** A path below one that could not be listed: its absence from the walk says nothing. */
function isBelowAny(relative: string, prefixes: readonly { path: string }[]): boolean {
  return prefixes.some(({ path }) => path === '' || relative === path || relative.startsWith(`${path}/`));
}

/**
 * Compares the workspace at `root` with `snapshot`. Reading a regular file here
 * reads it by its name in the workspace, opened O_NOFOLLOW: a hard link the
 * agent made names a file the agent could already write to or read (creating a
 * hard link to another user's file needs access to it, fs.protected_hardlinks),
 * so it shows the grader nothing the agent could not have copied in.
 */
export function detectChanges(root: string, snapshot: WorkspaceSnapshot, limits: ChangeLimits = DEFAULT_CHANGE_LIMITS): WorkspaceChanges {
  const walk = walkWorkspace(root, limits.maxEntries);
  const files: ChangedFile[] = [];
  const budget = { remaining: limits.maxTotalBytes };
  for (const [relative, stats] of walk.entries) {
    if (stats.isDirectory()) continue; // directories are structure; their files are reported one by one
    const before = snapshot.get(relative);
    const change = before === undefined ? 'added' : 'modified';
    if (!stats.isFile()) {
      const kind = describeEntry(stats) as Exclude<EntryKind, 'file' | 'directory'>; // both ruled out just above
      files.push({ path: relative, change, size: stats.size, content: null, omitted: 'not_a_regular_file', kind });
      continue;
    }
    try {
      if (before !== undefined && isUnchanged(`${root}/${relative}`, stats, before)) continue;
      files.push(describeRegularFile(`${root}/${relative}`, relative, change, stats, limits, budget));
    } catch (cause) {
      walk.unreadable.push({ path: relative, errno: errnoOf(cause) });
    }
  }
  if (!walk.truncated) {
    for (const [relative] of snapshot) {
      if (walk.entries.get(relative)?.isDirectory() === false) continue; // still there (as a file or something else), reported above
      if (isBelowAny(relative, walk.unreadable)) continue;
      files.push({ path: relative, change: 'deleted', size: 0, content: null, omitted: 'deleted' });
    }
  }
  files.sort((a, b) => compareUtf8(a.path, b.path));
  return { files, truncated: walk.truncated, unreadable: walk.unreadable.sort((a, b) => compareUtf8(a.path, b.path)) };
}

/** Same size and the same sha256; hashing is bounded by the snapshot's size, which the fixture limits bound. */
function isUnchanged(absolute: string, stats: Stats, before: { size: number; sha256: string }): boolean {
  if (stats.size !== before.size) return false;
  return digestFileAtMost(absolute, before.size)?.sha256 === before.sha256;
}

function describeRegularFile(absolute: string, relative: string, change: 'added' | 'modified', stats: Stats, limits: ChangeLimits, budget: { remaining: number }): ChangedFile {
  const omitted = (why: 'too_large' | 'binary', size = stats.size): ChangedFile => ({ path: relative, change, size, content: null, omitted: why });
  // Decided from lstat's size before any read: a 1 GiB sparse file is never read.
  if (stats.size > limits.maxFileBytes || stats.size > budget.remaining) return omitted('too_large');
  const bytes = readFileAtMost(absolute, Math.min(limits.maxFileBytes, budget.remaining));
  if (bytes === undefined) return omitted('too_large'); // it grew since the lstat
  let content: string;
  try {
    content = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // Not valid UTF-8: the grader gets its size, not its bytes.
    return omitted('binary', bytes.length);
  }
  budget.remaining -= bytes.length;
  return { path: relative, change, size: bytes.length, content };
}
