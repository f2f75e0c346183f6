// Streams the canonical tar of a walked source tree (spec B §3.2–3.4): for each
// entry its header, its bytes and NUL padding, then two zero blocks. File bytes
// are read in bounded chunks, so a large tree is never held in memory. Each file
// is opened without following symlinks and must still be the file the walk saw,
// with the size the walk saw.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { ZotboxError, fileSystemError } from '../errors.js';
import { CooperativeSlicer } from './cooperative.js';
import { formatDigest, type Digest } from './digest.js';
import type { SourceEntry, SourceTree } from './source-tree.js';
import { TRAILER, encodeCanonicalHeader, padToBlock } from './tar-header.js';

const READ_CHUNK = 1024 * 1024;

function changedError(entry: SourceEntry, what: string): ZotboxError {
  return new ZotboxError('ZB_ARCHIVE_SOURCE_CHANGED', `${entry.absolutePath} ${what} while it was being packed. Stop whatever is changing the agent directory and try again.`, {
    details: { path: entry.absolutePath },
  });
}

/** The bytes of one walked file, in chunks; it must still be the same regular file, with the same size. */
function* fileChunks(entry: SourceEntry): Generator<Buffer> {
  let fd: number;
  try {
    fd = openSync(entry.absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ELOOP') throw changedError(entry, 'was replaced by a symlink');
    throw fileSystemError('read', entry.absolutePath, cause);
  }
  try {
    const stats = fstatOrThrow(fd, entry);
    if (!stats.isFile() || stats.dev !== entry.dev || stats.ino !== entry.ino) throw changedError(entry, 'was replaced');
    let remaining = entry.size;
    while (remaining > 0) {
      const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK, remaining));
      const bytesRead = readOrThrow(fd, buffer, entry);
      if (bytesRead === 0) throw changedError(entry, 'shrank');
      remaining -= bytesRead;
      yield bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    }
    if (readOrThrow(fd, Buffer.allocUnsafe(1), entry) !== 0) throw changedError(entry, 'grew');
  } finally {
    closeSync(fd);
  }
}

function fstatOrThrow(fd: number, entry: SourceEntry) {
  try {
    return fstatSync(fd);
  } catch (cause) {
    throw fileSystemError('read', entry.absolutePath, cause);
  }
}

function readOrThrow(fd: number, buffer: Buffer, entry: SourceEntry): number {
  try {
    return readSync(fd, buffer, 0, buffer.length, null);
  } catch (cause) {
    throw fileSystemError('read', entry.absolutePath, cause);
  }
}

/** One piece of the canonical tar: a header, a slice of an entry's data, padding, or the trailer. */
export interface CanonicalTarPart {
  readonly kind: 'header' | 'data' | 'padding' | 'trailer';
  readonly entry: SourceEntry | undefined;
  readonly bytes: Buffer;
}

/** The canonical tar of `tree`, in parts. The SHA-256 of all parts' bytes is the directory digest. */
export async function* canonicalTarParts(tree: SourceTree): AsyncGenerator<CanonicalTarPart> {
  const slicer = new CooperativeSlicer();
  for (const entry of tree.entries) {
    await slicer.tick(entry.size);
    const name = entry.type === 'directory' ? `${entry.relativePath}/` : entry.relativePath;
    yield { kind: 'header', entry, bytes: encodeCanonicalHeader(name, entry.type, entry.mode, entry.size) };
    if (entry.type !== 'file' || entry.size === 0) continue;
    for (const bytes of fileChunks(entry)) yield { kind: 'data', entry, bytes };
    const padding = padToBlock(entry.size) - entry.size;
    if (padding > 0) yield { kind: 'padding', entry, bytes: Buffer.alloc(padding) };
  }
  yield { kind: 'trailer', entry: undefined, bytes: TRAILER };
}

/** The directory digest of `tree`: SHA-256 of its canonical tar, streamed (files are never held whole). */
export async function digestSourceTree(tree: SourceTree): Promise<Digest> {
  const hash = createHash('sha256');
  for await (const part of canonicalTarParts(tree)) hash.update(part.bytes);
  return formatDigest(hash);
}
