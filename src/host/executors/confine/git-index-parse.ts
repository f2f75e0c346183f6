// zotbox's own reading of a git index (issue 21; third review, findings 6-8),
// the one place that decides what an index holds: its entries, their flags
// (assume-unchanged, skip-worktree, intent-to-add) and where its extensions
// begin. It reads the bytes as git's read-cache.c does, in the object format the
// repository declares (git-object-format.ts), never trying another: an index
// that two formats would read differently is read one way, git's. Where git
// would take a field another way than zotbox (a name length that disagrees with
// the name, an extended flag git does not know), the index is refused. Bounded:
// entries cannot run past the bytes, and names are built only while their total
// stays within MAX_INDEX_NAME_BYTES (version 4 compresses names, so 1.6 MB can
// name 312 MB); past it, entries are still located (for the rewrite) but unnamed.
// Pure: no I/O, never runs git.
import { createHash } from 'node:crypto';

export type IndexHash = 'sha1' | 'sha256';

/**
 * The most name bytes, once version 4's prefix compression is expanded, that zotbox builds for one index: the
 * names a version 2 index of the largest size zotbox keeps (64 MiB) could hold. Past it an index is not compared
 * entry by entry: every entry is smudged, every flag cleared, and the run stops (git-index-flags.ts).
 */
export const MAX_INDEX_NAME_BYTES = 64 * 1024 * 1024;

/** Extensions git rebuilds on its own, which zotbox drops; every other one is refused. */
export const DROPPED_EXTENSIONS: ReadonlySet<string> = new Set(['TREE', 'REUC', 'UNTR', 'FSMN', 'EOIE', 'IEOT']);

/** Where an entry's stat data lies in it: ctime, mtime, dev, ino (0-24), then mode (24-28), then uid, gid, size (28-40). */
export const STAT_BYTES = 40;

/** The on-disk flags (read-cache.c): assume-valid, extended, a 12-bit name length (0xfff: "as long or longer"). */
export const CE_VALID = 0x8000;
const CE_EXTENDED = 0x4000;
const CE_NAMEMASK = 0x0fff;
/** The extended flags git knows (CE_EXTENDED_FLAGS): skip-worktree and intent-to-add; any other bit makes git die. */
export const CE_SKIP_WORKTREE = 0x4000;
const CE_INTENT_TO_ADD = 0x2000;

export interface IndexEntry {
  /** Offset of the entry in the index. */
  readonly at: number;
  /** Offset of its 16-bit flags (assume-valid), and of its extended flags (skip-worktree) when it has them. */
  readonly flagsAt: number;
  readonly extendedAt: number | undefined;
  /** The path as git stores it (bytes read as latin1); undefined when the index's names are past the bound. */
  readonly path: string | undefined;
  readonly stage: number;
  /** assume-unchanged (CE_VALID): git takes the worktree file for unchanged. */
  readonly valid: boolean;
  /** skip-worktree: git never looks at the worktree file. */
  readonly skip: boolean;
}

export interface ParsedIndex {
  readonly entries: readonly IndexEntry[];
  /** Where the entries end and the extensions begin. */
  readonly entriesEnd: number;
  readonly hash: IndexHash;
  /** The entries' names, expanded, in bytes. */
  readonly nameBytes: number;
  /** Whether every entry has its path (false past MAX_INDEX_NAME_BYTES). */
  readonly named: boolean;
}

export type IndexParse = { readonly ok: true; readonly index: ParsedIndex } | { readonly ok: false; readonly reason: string };

export function idLengthOf(hash: IndexHash): number {
  return hash === 'sha1' ? 20 : 32;
}

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

/** Checks the extensions from `position` to the trailer: only those git rebuilds, each within the bytes. */
function extensionsProblem(bytes: Buffer, position: number, end: number): string | undefined {
  let at = position;
  while (at < end) {
    if (at + 8 > end) return 'an extension header runs past its end';
    const signature = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32BE(at + 4);
    if (at + 8 + size > end) return `its ${JSON.stringify(signature)} extension runs past its end`;
    if (signature === 'link') return 'it is a split index (core.splitIndex), whose shared part zotbox does not check';
    if (signature === 'sdir') return 'it is a sparse index (index.sparse), whose directory entries zotbox does not check';
    if (!DROPPED_EXTENSIONS.has(signature)) return `it holds a ${JSON.stringify(signature)} extension, which zotbox does not know`;
    at += 8 + size;
  }
  return at === end ? undefined : 'its extensions do not end where its checksum begins';
}

/**
 * Parses an index whole in the repository's object format `hash`; the reason when zotbox cannot. `nameLimit` is
 * MAX_INDEX_NAME_BYTES but for tests.
 */
export function parseIndex(bytes: Buffer, hash: IndexHash, nameLimit = MAX_INDEX_NAME_BYTES): IndexParse {
  const idLength = idLengthOf(hash);
  if (bytes.length < 12 + idLength || bytes.toString('latin1', 0, 4) !== 'DIRC') return { ok: false, reason: 'it is not an index git writes (no DIRC header)' };
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return { ok: false, reason: `it is index version ${version}, which zotbox does not read` };
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - idLength;
  const entries: IndexEntry[] = [];
  let position = 12;
  let previous = '';
  let previousLength = 0;
  let nameBytes = 0;
  let named = true;
  let nameless = false;
  for (let index = 0; index < count; index++) {
    const at = position;
    const flagsAt = at + STAT_BYTES + idLength;
    if (flagsAt + 2 > end) return { ok: false, reason: 'its entries run past its end' };
    const flags = bytes.readUInt16BE(flagsAt);
    const extendedAt = (flags & CE_EXTENDED) === 0 ? undefined : flagsAt + 2;
    if (extendedAt !== undefined && version < 3) return { ok: false, reason: 'an entry has extended flags in a version 2 index' };
    const extended = extendedAt === undefined || extendedAt + 2 > end ? 0 : bytes.readUInt16BE(extendedAt);
    if ((extended & ~(CE_SKIP_WORKTREE | CE_INTENT_TO_ADD)) !== 0) return { ok: false, reason: 'an entry has extended flags git does not know' };
    const nameAt = flagsAt + 2 + (extendedAt === undefined ? 0 : 2);
    let keep = 0;
    let suffixAt = nameAt;
    if (version === 4) {
      const strip = readVarint(bytes, nameAt);
      if (strip === undefined || strip.value > previousLength) return { ok: false, reason: 'an entry name is not prefix-compressed as git writes it' };
      keep = previousLength - strip.value;
      suffixAt = strip.next;
    }
    const nul = bytes.indexOf(0, suffixAt);
    if (nul < 0 || nul >= end) return { ok: false, reason: 'an entry name runs past its end' };
    const length = keep + (nul - suffixAt);
    // git takes the length from the flags when it is below 0xfff (and the bytes after it as the next entry): a
    // name whose NUL is elsewhere would be read as another name, and the entries after it shifted.
    if ((flags & CE_NAMEMASK) !== Math.min(length, CE_NAMEMASK)) return { ok: false, reason: "an entry's name length does not match its name, which git would read differently" };
    if (version === 4) position = nul + 1;
    else {
      // Padded with 1 to 8 NULs to a multiple of 8 from the entry's start.
      position = at + Math.floor((nul - at + 8) / 8) * 8;
      if (position > end || bytes.subarray(nul, position).some((byte) => byte !== 0)) return { ok: false, reason: 'an entry is not padded as git writes it' };
    }
    // A split index replaces entries of its shared part with nameless ones: refused below, at its "link".
    if (length === 0) nameless = true;
    nameBytes += length;
    if (named && nameBytes > nameLimit) {
      // Past the bound no name is built or kept: the entries are still located, so that the rewrite can reach them.
      named = false;
      previous = '';
      for (let e = 0; e < entries.length; e++) entries[e] = { ...entries[e]!, path: undefined };
    }
    let path: string | undefined;
    if (named) {
      path = previous.slice(0, keep) + bytes.toString('latin1', suffixAt, nul);
      previous = path;
    }
    previousLength = length;
    entries.push({ at, flagsAt, extendedAt, path, stage: (flags >> 12) & 3, valid: (flags & CE_VALID) !== 0, skip: (extended & CE_SKIP_WORKTREE) !== 0 });
  }
  const entriesEnd = position;
  const problem = extensionsProblem(bytes, position, end);
  if (problem !== undefined) return { ok: false, reason: problem };
  if (nameless) return { ok: false, reason: 'an entry has no name' };
  const trailer = bytes.subarray(end);
  // index.skipHash writes a zero checksum, which git accepts as "none"; any other must be the digest.
  if (trailer.some((byte) => byte !== 0) && !trailer.equals(createHash(hash).update(bytes.subarray(0, end)).digest())) return { ok: false, reason: 'its checksum does not match its content' };
  return { ok: true, index: { entries, entriesEnd, hash, nameBytes, named } };
}
