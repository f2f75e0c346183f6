// The parts of an index the user's git trusts without rereading (issue 21, second
// review: "index-cache-tree", "index-stat-data"). Beyond its entries and flags an
// index holds caches: each entry's stat data (times, device, inode, owner, size),
// which makes git take a worktree file for unchanged without reading it, and
// extensions: the cache-tree (TREE), whose tree ids `git commit` uses instead of
// hashing the entries, the resolve-undo records (REUC) `git checkout -m` writes
// back, the untracked cache (UNTR), the fsmonitor state (FSMN) and the offset
// tables (EOIE, IEOT). After a command that wrote an index, zotbox rewrites it the
// way git smudges a racily clean entry: every entry whose stat data is new or
// changed gets zero stat data (a zero size makes git compare the content), and
// every extension is dropped (git rebuilds them); in the same write the flags the
// command set are cleared (git-index-flags.ts picks them). The entries, their
// object ids and modes stay as they are. It is a closed world: an index zotbox
// cannot parse whole in the repository's object format (git-index-parse.ts), or
// larger than it reads, is not passed but reported, which stops the run. The
// rewrite takes git's own lock (index.lock), so a git of the user's running
// meanwhile is never overwritten.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { MAX_INDEX_BYTES } from './git-directory-state.js';
import { CE_SKIP_WORKTREE, CE_VALID, idLengthOf, parseIndex, STAT_BYTES, type IndexEntry, type IndexHash, type ParsedIndex } from './git-index-parse.js';

/** Where the mode lies in an entry's stat data: kept, since git compares it with the worktree file's. */
const MODE_START = 24;
const MODE_END = 28;

/**
 * The index with the stat data of every entry that `old` (the index's bytes before the command, parsed) does not
 * hold the same way zeroed, the flags set in the entries of `clear` cleared, and with no extensions; undefined when
 * nothing changes. Without names to match (either index past the name bound), every entry is smudged.
 */
export function smudgedIndex(bytes: Buffer, parsed: ParsedIndex, old: { bytes: Buffer; index: ParsedIndex } | undefined, clear: readonly IndexEntry[] = []): Buffer | undefined {
  const earlier = new Map<string, Buffer>();
  const idLength = idLengthOf(parsed.hash);
  // An entry's stat data is kept only with the object id and mode it vouched for: stat data left as it was beside a
  // new id would make git take the old file for the new object (and commit it unread).
  const head = STAT_BYTES + idLength;
  if (old !== undefined && old.index.named && parsed.named) for (const entry of old.index.entries) earlier.set(`${entry.path ?? ''}\0${entry.stage}`, old.bytes.subarray(entry.at, entry.at + head));
  const body = Buffer.from(bytes.subarray(0, parsed.entriesEnd));
  let changed = parsed.entriesEnd !== bytes.length - idLength;
  for (const entry of parsed.entries) {
    const stat = body.subarray(entry.at, entry.at + STAT_BYTES);
    if (entry.path !== undefined && earlier.get(`${entry.path}\0${entry.stage}`)?.equals(body.subarray(entry.at, entry.at + head)) === true) continue;
    const zero = (from: number, to: number) => {
      if (stat.subarray(from, to).some((byte) => byte !== 0)) changed = true;
      stat.fill(0, from, to);
    };
    zero(0, MODE_START);
    zero(MODE_END, STAT_BYTES);
  }
  for (const entry of clear) {
    // The flags sit at fixed offsets before the name: clearing a bit moves nothing (an extended entry keeps its two bytes).
    if (entry.valid) body.writeUInt16BE(body.readUInt16BE(entry.flagsAt) & ~CE_VALID, entry.flagsAt);
    if (entry.skip && entry.extendedAt !== undefined) body.writeUInt16BE(body.readUInt16BE(entry.extendedAt) & ~CE_SKIP_WORKTREE, entry.extendedAt);
    changed = true;
  }
  if (!changed) return undefined;
  return Buffer.concat([body, createHash(parsed.hash).update(body).digest()]);
}

/** Reads a file that is no link, whole, if it is at most MAX_INDEX_BYTES (a larger one is never read). */
function readNoFollow(file: string): { bytes: Buffer; mode: number } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error('it is not a regular file');
    if (stats.size > MAX_INDEX_BYTES) throw new Error(`it is larger than ${MAX_INDEX_BYTES / 1024 / 1024} MiB, more than zotbox reads`);
    const bytes = Buffer.alloc(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) throw new Error('it shrank while being read');
      read += got;
    }
    return { bytes, mode: stats.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

/** Writes `bytes` over `file` through git's lock (O_EXCL, never a link); why it could not, or undefined. */
function replaceUnderLock(file: string, bytes: Buffer, mode: number): string | undefined {
  const lock = `${file}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  } catch (error) {
    return `zotbox could not take its lock ${lock} (${(error as Error).message})`;
  }
  try {
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } finally {
      closeSync(fd);
    }
    renameSync(lock, file);
    return undefined;
  } catch (error) {
    rmSync(lock, { force: true });
    return `zotbox could not rewrite it (${(error as Error).message})`;
  }
}

export interface IndexRewrite {
  /** Why the index could not be read, parsed whole or rewritten; undefined when it was rewritten or needed nothing. */
  readonly failure?: string;
  /** The index as parsed, when it was. */
  readonly parsed?: ParsedIndex;
  /** The entries whose flags the rewrite cleared (or was to clear, when it failed). */
  readonly cleared: readonly IndexEntry[];
}

/** Picks the entries whose flags are cleared, from the index now and as it was before (undefined: not kept, or not parsed). */
export type FlagsToClear = (now: ParsedIndex, earlier: ParsedIndex | undefined) => readonly IndexEntry[];

/**
 * After a command changed the index `file` (read in the repository's object format `hash`): smudges new or changed
 * stat data, clears the flags `flagsToClear` picks and drops the extensions, in one write under git's lock. Reads
 * at most MAX_INDEX_BYTES and runs nothing. The failure, when there is one, is reported by the caller and the run stops.
 */
export function rewriteChangedIndex(file: string, before: Buffer | undefined, hash: IndexHash, flagsToClear: FlagsToClear = () => []): IndexRewrite {
  let current: { bytes: Buffer; mode: number };
  try {
    current = readNoFollow(file);
  } catch (error) {
    return {
      failure: `zotbox could not read it (${(error as Error).message}), so it cannot check its flags or drop the stat data and caches git trusts without rereading the files; review it with git status`,
      cleared: [],
    };
  }
  const parsed = parseIndex(current.bytes, hash);
  if (!parsed.ok)
    return {
      failure: `zotbox cannot read it whole as a ${hash === 'sha1' ? 'SHA-1' : 'SHA-256'} index, the repository's object format (${parsed.reason}), so it cannot check its flags or drop the stat data and caches (cache-tree, resolve-undo) the user's git would trust; remove it and run git reset to rebuild it, or turn the setting off`,
      cleared: [],
    };
  const earlier = before === undefined ? undefined : parseIndex(before, hash);
  const old = earlier?.ok === true ? { bytes: before!, index: earlier.index } : undefined;
  const cleared = flagsToClear(parsed.index, old?.index);
  const rewritten = smudgedIndex(current.bytes, parsed.index, old, cleared);
  if (rewritten === undefined) return { parsed: parsed.index, cleared };
  const failed = replaceUnderLock(file, rewritten, current.mode);
  if (failed === undefined) return { parsed: parsed.index, cleared };
  return { failure: `${failed}, to clear the flags it set and drop the stat data and caches git trusts without rereading the files; review it with git status`, parsed: parsed.index, cleared };
}
