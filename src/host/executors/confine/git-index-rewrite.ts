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
// every extension is dropped (git rebuilds them). The entries, their object ids,
// modes and flags stay as they are (git-index-flags.ts checks the flags). It is a
// closed world: an index zotbox cannot parse whole (another version, a split index
// "link", a sparse index "sdir", an extension it does not know, a bad checksum) is
// not passed but reported, which stops the run. The rewrite takes git's own lock
// (index.lock), so a git of the user's running meanwhile is never overwritten.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';

/** Where an entry's stat data lies in it: ctime, mtime, dev, ino (0-24), then mode (24-28), then uid, gid, size (28-40). */
const STAT_BYTES = 40;
const MODE_START = 24;
const MODE_END = 28;

/** Extensions git rebuilds on its own, which zotbox drops; every other one is refused. */
export const DROPPED_EXTENSIONS: ReadonlySet<string> = new Set(['TREE', 'REUC', 'UNTR', 'FSMN', 'EOIE', 'IEOT']);

interface ParsedEntry {
  /** Offset of the entry in the index. */
  readonly at: number;
  /** Path and stage ("name\0stage"), to match the entry before the command. */
  readonly key: string;
}

interface ParsedIndex {
  readonly entries: readonly ParsedEntry[];
  /** Where the entries end and the extensions begin. */
  readonly entriesEnd: number;
  readonly hash: 'sha1' | 'sha256';
}

export type IndexParse = { readonly ok: true; readonly index: ParsedIndex } | { readonly ok: false; readonly reason: string };

/** Git's offset varint (varint.c): seven bits a byte, each continuation adding one. */
function readVarint(bytes: Buffer, at: number): { value: number; next: number } | undefined {
  let position = at;
  let c = bytes[position++];
  if (c === undefined) return undefined;
  let value = c & 0x7f;
  while ((c & 0x80) !== 0) {
    c = bytes[position++];
    if (c === undefined || value > 0xffffff) return undefined;
    value = ((value + 1) << 7) | (c & 0x7f);
  }
  return { value, next: position };
}

function parseWith(bytes: Buffer, hash: 'sha1' | 'sha256'): IndexParse {
  const idLength = hash === 'sha1' ? 20 : 32;
  if (bytes.length < 12 + idLength || bytes.toString('latin1', 0, 4) !== 'DIRC') return { ok: false, reason: 'it is not an index git writes (no DIRC header)' };
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return { ok: false, reason: `it is index version ${version}, which zotbox does not read` };
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - idLength;
  const entries: ParsedEntry[] = [];
  let position = 12;
  let previous = '';
  let nameless = false;
  for (let index = 0; index < count; index++) {
    const at = position;
    const flagsAt = at + STAT_BYTES + idLength;
    if (flagsAt + 2 > end) return { ok: false, reason: 'its entries run past its end' };
    const flags = bytes.readUInt16BE(flagsAt);
    const extended = (flags & 0x4000) !== 0;
    if (extended && version < 3) return { ok: false, reason: 'an entry has extended flags in a version 2 index' };
    const name = flagsAt + 2 + (extended ? 2 : 0);
    let path: string;
    if (version === 4) {
      const strip = readVarint(bytes, name);
      if (strip === undefined || strip.value > previous.length) return { ok: false, reason: 'an entry name is not prefix-compressed as git writes it' };
      const nul = bytes.indexOf(0, strip.next);
      if (nul < 0 || nul >= end) return { ok: false, reason: 'an entry name runs past its end' };
      path = previous.slice(0, previous.length - strip.value) + bytes.toString('latin1', strip.next, nul);
      position = nul + 1;
    } else {
      const nul = bytes.indexOf(0, name);
      if (nul < 0 || nul >= end) return { ok: false, reason: 'an entry name runs past its end' };
      path = bytes.toString('latin1', name, nul);
      // Padded with 1 to 8 NULs to a multiple of 8 from the entry's start.
      position = at + Math.floor((nul - at + 8) / 8) * 8;
      if (position > end || bytes.subarray(nul, position).some((byte) => byte !== 0)) return { ok: false, reason: 'an entry is not padded as git writes it' };
    }
    // A split index replaces entries of its shared part with nameless ones: refused below, at its "link".
    if (path === '') nameless = true;
    previous = path;
    entries.push({ at, key: `${path}\0${(flags >> 12) & 3}` });
  }
  const entriesEnd = position;
  while (position < end) {
    if (position + 8 > end) return { ok: false, reason: 'an extension header runs past its end' };
    const signature = bytes.toString('latin1', position, position + 4);
    const size = bytes.readUInt32BE(position + 4);
    if (position + 8 + size > end) return { ok: false, reason: `its ${JSON.stringify(signature)} extension runs past its end` };
    if (signature === 'link') return { ok: false, reason: 'it is a split index (core.splitIndex), whose shared part zotbox does not check' };
    if (signature === 'sdir') return { ok: false, reason: 'it is a sparse index (index.sparse), whose directory entries zotbox does not check' };
    if (!DROPPED_EXTENSIONS.has(signature)) return { ok: false, reason: `it holds a ${JSON.stringify(signature)} extension, which zotbox does not know` };
    position += 8 + size;
  }
  if (position !== end) return { ok: false, reason: 'its extensions do not end where its checksum begins' };
  if (nameless) return { ok: false, reason: 'an entry has no name' };
  const trailer = bytes.subarray(end);
  const digest = createHash(hash).update(bytes.subarray(0, end)).digest();
  // index.skipHash writes a zero checksum, which git then does not verify.
  if (!trailer.equals(digest) && trailer.some((byte) => byte !== 0)) return { ok: false, reason: 'its checksum does not match its content' };
  return { ok: true, index: { entries, entriesEnd, hash } };
}

/** Parses an index whole (SHA-1 or SHA-256 object ids); the reason when zotbox cannot. */
export function parseIndex(bytes: Buffer): IndexParse {
  const sha1 = parseWith(bytes, 'sha1');
  if (sha1.ok) return sha1;
  const sha256 = parseWith(bytes, 'sha256');
  return sha256.ok ? sha256 : sha1;
}

/**
 * The index with the stat data of every entry that `before` (the index's bytes before the command, when kept)
 * does not hold with the same stat data zeroed, and with no extensions; undefined when nothing changes.
 */
export function smudgedIndex(bytes: Buffer, parsed: ParsedIndex, before: Buffer | undefined): Buffer | undefined {
  const earlier = new Map<string, Buffer>();
  const idLength = parsed.hash === 'sha1' ? 20 : 32;
  // An entry's stat data is kept only with the object id and mode it vouched for: stat data left as it was beside a
  // new id would make git take the old file for the new object (and commit it unread).
  const head = STAT_BYTES + idLength;
  const old = before === undefined ? undefined : parseIndex(before);
  if (old?.ok === true && old.index.hash === parsed.hash) for (const entry of old.index.entries) earlier.set(entry.key, before!.subarray(entry.at, entry.at + head));
  const body = Buffer.from(bytes.subarray(0, parsed.entriesEnd));
  let changed = parsed.entriesEnd !== bytes.length - idLength;
  for (const entry of parsed.entries) {
    const stat = body.subarray(entry.at, entry.at + STAT_BYTES);
    if (earlier.get(entry.key)?.equals(body.subarray(entry.at, entry.at + head)) === true) continue;
    const zero = (from: number, to: number) => {
      if (stat.subarray(from, to).some((byte) => byte !== 0)) changed = true;
      stat.fill(0, from, to);
    };
    zero(0, MODE_START);
    zero(MODE_END, STAT_BYTES);
  }
  if (!changed) return undefined;
  return Buffer.concat([body, createHash(parsed.hash).update(body).digest()]);
}

/** Reads a file that is no link, whole. */
function readNoFollow(file: string): { bytes: Buffer; mode: number } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error('it is not a regular file');
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

/**
 * After a command changed the index `file`: smudges new or changed stat data and drops the extensions,
 * under git's lock. Returns why it could not (the caller reports it and the run stops), or undefined.
 */
export function rewriteChangedIndex(file: string, before: Buffer | undefined): string | undefined {
  let current: { bytes: Buffer; mode: number };
  try {
    current = readNoFollow(file);
  } catch (error) {
    return `zotbox could not read it (${(error as Error).message}), so it cannot drop the stat data and caches git trusts without rereading the files; review it with git status`;
  }
  const parsed = parseIndex(current.bytes);
  if (!parsed.ok)
    return `zotbox cannot read it whole (${parsed.reason}), so it cannot drop the stat data and caches (cache-tree, resolve-undo) the user's git would trust; remove it and run git reset to rebuild it, or turn the setting off`;
  const rewritten = smudgedIndex(current.bytes, parsed.index, before);
  if (rewritten === undefined) return undefined;
  const lock = `${file}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, current.mode);
  } catch (error) {
    return `zotbox could not take its lock ${lock} (${(error as Error).message}) to drop the stat data and caches git trusts without rereading the files; review it with git status`;
  }
  try {
    try {
      let written = 0;
      while (written < rewritten.length) written += writeSync(fd, rewritten, written);
    } finally {
      closeSync(fd);
    }
    renameSync(lock, file);
    return undefined;
  } catch (error) {
    rmSync(lock, { force: true });
    return `zotbox could not rewrite it (${(error as Error).message}) to drop the stat data and caches git trusts without rereading the files; review it with git status`;
  }
}
