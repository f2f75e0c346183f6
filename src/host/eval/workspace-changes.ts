// The files a run added, modified or deleted in its case workspace, compared with
// the snapshot of the fresh copy, for file expectations, graders and the judge.
// The fixture's own files are checked first, each by its name (issue 22 §2): a
// change to one, or its deletion, is found from the list the host kept, whatever
// the run added around it. Then the walk for new entries, breadth first, bounded in
// entries and in path bytes; past a bound it stops and says `truncated`. Nothing
// here follows a link or opens what is not a regular file; reads are bounded.
import { opendirSync, lstatSync, type Dir, type Stats } from 'node:fs';
import { compareUtf8 } from '../../archive/entry-name.js';
import { digestFileAtMost, errnoOf, readFileAtMost } from './bounded-read.js';
import type { WorkspaceSnapshot } from './fixture-copy.js';
import type { ChangedFile } from './grader-input.js';
import { describeEntry, walkComponents, type EntryKind } from './no-link-path.js';

export interface ChangeLimits {
  /** Content larger than this is omitted as too_large (never read). */
  readonly maxFileBytes: number;
  /** Content over all files; past it, contents are omitted as too_large. */
  readonly maxTotalBytes: number;
  /** Entries the walk for new files looks at, other than the fixture's own files; past it, the walk stops: truncated. */
  readonly maxEntries: number;
  /** Bytes of path names (UTF-8) over all the files listed; past it, the list stops: truncated. */
  readonly maxPathBytes: number;
}

export const DEFAULT_CHANGE_LIMITS: ChangeLimits = { maxFileBytes: 256 * 1024, maxTotalBytes: 4 * 1024 * 1024, maxEntries: 20_000, maxPathBytes: 1024 * 1024 };

export interface UnreadableEntry {
  readonly path: string;
  readonly errno: string;
}

export interface WorkspaceChanges {
  /** Sorted by path (UTF-8 bytes). */
  readonly files: readonly ChangedFile[];
  /**
   * A bound was reached (maxEntries or maxPathBytes): added files may be missing.
   * Changes to the fixture's files are listed first, so only past maxPathBytes can one be missing.
   */
  readonly truncated: boolean;
  /** Entries the host could not look at (a chmod 000 folder or file): what is below them is not known, never "unchanged". */
  readonly unreadable: readonly UnreadableEntry[];
}

/** The list as it is built: files past the path-byte bound are left out, and the list says truncated. */
class ChangeList {
  readonly files: ChangedFile[] = [];
  readonly unreadable = new Map<string, string>();
  truncated = false;
  private pathBytes = 0;
  readonly contentBudget: { remaining: number };

  constructor(readonly limits: ChangeLimits) {
    this.contentBudget = { remaining: limits.maxTotalBytes };
  }

  add(file: ChangedFile): void {
    if (this.truncated) return;
    this.pathBytes += Buffer.byteLength(file.path, 'utf8');
    if (this.pathBytes > this.limits.maxPathBytes) {
      this.truncated = true;
      return;
    }
    this.files.push(file);
  }

  cannotRead(path: string, errno: string): void {
    this.unreadable.set(path, errno);
  }
}

/**
 * Compares the workspace at `root` (canonical) with `snapshot`. Reading a regular
 * file here reads it by its name in the workspace, opened O_NOFOLLOW: a hard link
 * the agent made names a file the agent could already write to or read (creating a
 * hard link to another user's file needs access to it, fs.protected_hardlinks), so
 * it shows the grader nothing the agent could not have copied in.
 */
export function detectChanges(root: string, snapshot: WorkspaceSnapshot, limits: ChangeLimits = DEFAULT_CHANGE_LIMITS): WorkspaceChanges {
  const list = new ChangeList(limits);
  checkFixtureFiles(root, snapshot, list);
  if (!list.truncated) walkNewEntries(root, snapshot, list);
  const files = list.files.sort((a, b) => compareUtf8(a.path, b.path));
  const unreadable = [...list.unreadable].map(([path, errno]) => ({ path, errno })).sort((a, b) => compareUtf8(a.path, b.path));
  return { files, truncated: list.truncated, unreadable };
}

/** Each fixture file, by its own name, component by component without following a link: unchanged, modified, deleted, or unreadable. */
function checkFixtureFiles(root: string, snapshot: WorkspaceSnapshot, list: ChangeList): void {
  const names = [...snapshot.keys()].sort(compareUtf8);
  for (const relative of names) {
    const before = snapshot.get(relative) as { size: number; sha256: string }; // a key of the snapshot just listed
    const walk = walkComponents(root, relative.split('/'));
    if (!walk.found) {
      // A parent that is a link, FIFO or device now: the fixture's file is no longer there (the link itself is listed as added).
      if (walk.absent || !('errno' in walk)) list.add(deleted(relative));
      else list.cannotRead(walk.at, walk.errno);
      continue;
    }
    const { stats } = walk;
    if (stats.isDirectory()) {
      list.add(deleted(relative)); // a folder in its place: its files are listed as added by the walk
      continue;
    }
    if (!stats.isFile()) {
      list.add(notRegular(relative, 'modified', stats));
      continue;
    }
    try {
      if (isUnchanged(walk.path, stats, before)) continue;
      list.add(describeRegularFile(walk.path, relative, 'modified', stats, list));
    } catch (cause) {
      list.cannotRead(relative, errnoOf(cause));
    }
  }
}

/**
 * Every entry that is not a fixture file, breadth first (a deep chain of folders
 * cannot come before a shallow name), each folder's names in UTF-8 order. A folder
 * is read one name at a time, never more than the bound has room for (a folder of a
 * million names is never listed whole). Stops past maxEntries.
 */
function walkNewEntries(root: string, snapshot: WorkspaceSnapshot, list: ChangeList): void {
  const walk = { seen: 0 };
  const pending: string[] = [''];
  for (let index = 0; index < pending.length && !list.truncated; index++) {
    const relative = pending[index] as string; // index < length
    pending[index] = ''; // let the walked name go
    const names = listNames(root, relative, list.limits.maxEntries - walk.seen + snapshot.size + 1, list);
    for (const name of names.sort(compareUtf8)) {
      const child = relative === '' ? name : `${relative}/${name}`;
      const next = lookAt(root, child, snapshot, list, walk);
      if (next === 'stop') break;
      if (next === 'descend') pending.push(child);
    }
  }
}

/** Up to `most` names in the folder (more than the bound has room for says truncated once counted); none when it cannot be read. */
function listNames(root: string, relative: string, most: number, list: ChangeList): string[] {
  const names: string[] = [];
  let directory: Dir;
  try {
    directory = opendirSync(relative === '' ? root : `${root}/${relative}`);
  } catch (cause) {
    list.cannotRead(relative, errnoOf(cause));
    return names;
  }
  try {
    for (let entry = directory.readSync(); entry !== null && names.length < most; entry = directory.readSync()) names.push(entry.name);
  } catch (cause) {
    list.cannotRead(relative, errnoOf(cause));
  } finally {
    directory.closeSync();
  }
  return names;
}

/** Lists one entry the walk found: a folder to descend into, or the list is past a bound (stop), or neither. */
function lookAt(root: string, child: string, snapshot: WorkspaceSnapshot, list: ChangeList, walk: { seen: number }): 'descend' | 'stop' | 'next' {
  let stats: Stats;
  try {
    stats = lstatSync(`${root}/${child}`);
  } catch (cause) {
    list.cannotRead(child, errnoOf(cause));
    return 'next';
  }
  if (!stats.isDirectory() && snapshot.has(child)) return 'next'; // checked by its name already
  walk.seen += 1;
  if (walk.seen > list.limits.maxEntries) {
    list.truncated = true;
    return 'stop';
  }
  if (stats.isDirectory()) return 'descend';
  if (!stats.isFile()) list.add(notRegular(child, 'added', stats));
  else {
    try {
      list.add(describeRegularFile(`${root}/${child}`, child, 'added', stats, list));
    } catch (cause) {
      list.cannotRead(child, errnoOf(cause));
    }
  }
  return list.truncated ? 'stop' : 'next';
}

function deleted(relative: string): ChangedFile {
  return { path: relative, change: 'deleted', size: 0, content: null, omitted: 'deleted' };
}

function notRegular(relative: string, change: 'added' | 'modified', stats: Stats): ChangedFile {
  const kind = describeEntry(stats) as Exclude<EntryKind, 'file' | 'directory'>; // callers rule both out
  return { path: relative, change, size: stats.size, content: null, omitted: 'not_a_regular_file', kind };
}

/** Same size and the same sha256; hashing is bounded by the snapshot's size, which the fixture limits bound. */
function isUnchanged(absolute: string, stats: Stats, before: { size: number; sha256: string }): boolean {
  if (stats.size !== before.size) return false;
  return digestFileAtMost(absolute, before.size)?.sha256 === before.sha256;
}

function describeRegularFile(absolute: string, relative: string, change: 'added' | 'modified', stats: Stats, list: ChangeList): ChangedFile {
  const { limits, contentBudget: budget } = list;
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

/**
 * Why a change list cannot vouch for what it leaves out, or undefined when it is
 * complete: a bound was reached, or something could not be read (issue 22 §2).
 * Verdicts that rest on the list (file_absent, graders, the judge) cannot pass then.
 */
export function describeIncompleteChanges(changes: Pick<WorkspaceChanges, 'truncated' | 'unreadable'>): string | undefined {
  const why: string[] = [];
  if (changes.truncated) {
    const { maxEntries, maxPathBytes } = DEFAULT_CHANGE_LIMITS;
    why.push(`the list of changed files is truncated (the run left more than ${maxEntries} entries beyond its fixture, or more than ${maxPathBytes} bytes of path names)`);
  }
  if (changes.unreadable.length > 0) {
    const shown = changes.unreadable.slice(0, 5).map((entry) => `${entry.path} (${entry.errno})`);
    const more = changes.unreadable.length > shown.length ? ` and ${changes.unreadable.length - shown.length} more` : '';
    why.push(`zotbox cannot read ${shown.join(', ')}${more} in the workspace, so what is below is unknown`);
  }
  return why.length === 0 ? undefined : `ZB_EVAL_CHANGES_INCOMPLETE: ${why.join('; ')}`;
}
