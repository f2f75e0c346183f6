// Loads an agent image from a .zot (zstd tar), a gzip tar, or a source
// directory. Archives stream through: compressed bytes are hashed and counted as
// they arrive, decompressed into bounded slices, parsed, and checked, and the
// whole stream is read to its end so the zstd checksum and the trailer are
// verified. Nothing is written to disk.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ZotboxError, fileSystemError } from '../errors.js';
import { AgentImage } from './agent-image.js';
import { formatDigest } from './digest.js';
import { ImageBuilder, type ArchiveSelection, type EntryStreamedHandler } from './image-builder.js';
import { DEFAULT_LIMITS, type ArchiveLimits } from './limits.js';
import { walkSourceTree } from './source-tree.js';
import { canonicalTarParts } from './tar-pack.js';
import { TarReader } from './tar-read.js';
import type { ZstdDecompressionWorker } from './zstd-offload.js';
import { OFFLOAD_THRESHOLD, ZSTD_MAGIC } from './formats.js';

export interface LoadOptions {
  readonly limits?: ArchiveLimits;
  /** Aborting stops the load with ZB_ARCHIVE_INTERRUPTED. */
  readonly signal?: AbortSignal;
  /**
   * Called for each file and directory as soon as it has been read and its own
   * checks passed, before the archive as a whole is verified (trailer, checksum,
   * later duplicates). Only for writers into private staging that is discarded
   * when the load fails: `zotbox unpack` uses it to overlap decoding and writing.
   */
  readonly onEntryStreamed?: EntryStreamedHandler;
  /**
   * A decompression worker to reuse for large archives (a long-lived host keeps
   * one); without it, a large load starts and stops a worker of its own.
   */
  readonly decompressionWorker?: ZstdDecompressionWorker;
  /** Keep only one directory of a repository archive (see ArchiveSelection). */
  readonly select?: ArchiveSelection;
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const FILE_CHUNK = 1024 * 1024;

function interrupted(): ZotboxError {
  return new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'loading the agent was cancelled.');
}

function tooLarge(limits: ArchiveLimits): ZotboxError {
  return new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the archive is larger than ${limits.maxCompressedBytes} bytes compressed, the zotfile limit.`, {
    details: { limit: 'compressed', max: limits.maxCompressedBytes },
  });
}

/** Loads an archive given as bytes or a stream of chunks (zstd or gzip tar, detected by magic). */
export async function loadImageFromArchive(source: Uint8Array | AsyncIterable<Uint8Array>, options: LoadOptions = {}): Promise<AgentImage> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const chunks = source instanceof Uint8Array ? [source] : source;
  const artifactHash = createHash('sha256');
  let artifactSize = 0;
  const builder = new ImageBuilder(limits, {
    ...(options.onEntryStreamed === undefined ? {} : { onEntryStreamed: options.onEntryStreamed }),
    ...(options.select === undefined ? {} : { select: options.select }),
  });
  const reader = new TarReader(builder);
  const feedTar = (slice: Buffer) => {
    builder.observeTarBytes(slice);
    reader.push(slice);
  };

  // Counts and hashes every compressed byte before anything else looks at it.
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      if (options.signal?.aborted) throw interrupted();
      artifactSize += chunk.length;
      if (artifactSize > limits.maxCompressedBytes) throw tooLarge(limits);
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      artifactHash.update(buffer);
      yield buffer;
    }
  }

  const input = counted();
  const head = await readHead(input, 4);
  let format: 'zstd' | 'gzip';
  if (head.length >= 4 && head.subarray(0, 4).equals(ZSTD_MAGIC)) format = 'zstd';
  else if (head.length >= 2 && head.subarray(0, 2).equals(GZIP_MAGIC)) format = 'gzip';
  else {
    throw new ZotboxError(
      'ZB_ARCHIVE_FORMAT_UNKNOWN',
      head.length === 0
        ? "the archive is empty. A .zot file is a zstd-compressed tar; re-create it with 'zotbox pack'."
        : `the archive starts with bytes ${head.subarray(0, 4).toString('hex')}, which is neither zstd (28b52ffd) nor gzip (1f8b). A .zot file is a zstd-compressed tar; re-create it with 'zotbox pack'.`,
      { details: { magic: head.subarray(0, 4).toString('hex') } },
    );
  }

  if (format === 'zstd') {
    // The zstd binding (a native module) is loaded only when a zstd stream arrives.
    const { BoundedZstdDecoder } = await import('./zstd-stream.js');
    const decoder = new BoundedZstdDecoder();
    decoder.decode(head, feedTar);
    for await (const chunk of input) decoder.decode(chunk, feedTar);
    decoder.finish(feedTar);
  } else {
    // gzip tars are rare (zot reads them; zotbox writes zstd): their machinery loads on use.
    const [{ Readable }, { pipeline }, { createGunzip }] = await Promise.all([import('node:stream'), import('node:stream/promises'), import('node:zlib')]);
    // What the tar side refused (a limit, an unsafe entry) is the error, not the AbortError the pipeline reports for it.
    let refused: ZotboxError | undefined;
    await pipeline(Readable.from(prepend(head, input)), createGunzip(), async function (decoded: AsyncIterable<Buffer>) {
      for await (const slice of decoded) {
        try {
          feedTar(slice);
        } catch (error) {
          if (error instanceof ZotboxError) refused = error;
          throw error;
        }
      }
    }).catch((cause: unknown) => {
      if (refused !== undefined) throw refused;
      if (cause instanceof ZotboxError) throw cause;
      throw new ZotboxError('ZB_ARCHIVE_CORRUPT', `the gzip stream is corrupt or truncated: ${(cause as Error).message}. Re-download or re-create the archive.`, {
        cause,
      });
    });
  }
  reader.end();
  return builder.build(format, { digest: formatDigest(artifactHash), size: artifactSize }, reader.paddingAfterTrailer);
}

/** Loads a .zot (or gzip tar) file. */
export async function loadImageFromFile(file: string, options: LoadOptions = {}): Promise<AgentImage> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  let stats;
  try {
    stats = await stat(file);
  } catch (cause) {
    throw fileSystemError('read', file, cause);
  }
  if (!stats.isFile()) {
    throw new ZotboxError('ZB_IO_FAILED', `${file} is not a regular file. Pass a .zot file or an agent directory.`, { details: { path: file } });
  }
  // The size is checked up front for a fast answer, and again on the bytes as they arrive.
  if (stats.size > limits.maxCompressedBytes) throw tooLarge(limits);
  try {
    if (stats.size >= OFFLOAD_THRESHOLD && startsWithZstdMagic(file)) return await loadLargeZstdFile(file, limits, options);
    if (stats.size < OFFLOAD_THRESHOLD) {
      // A typical agent is a few hundred KiB: one bounded synchronous read beats stream set-up.
      const bytes = readSmallFile(file, Math.min(OFFLOAD_THRESHOLD, limits.maxCompressedBytes + 1));
      if (bytes !== undefined) return await loadImageFromArchive(bytes, options);
    }
    const stream = createReadStream(file, { highWaterMark: FILE_CHUNK });
    try {
      return await loadImageFromArchive(stream, options);
    } finally {
      stream.destroy();
    }
  } catch (cause) {
    // Archive faults are ZotboxErrors already; what is left is the file itself failing to read.
    throw fileSystemError('read', file, cause);
  }
}

/** Reads a whole file of at most `cap` bytes; undefined when it turns out larger (it grew since stat). */
function readSmallFile(file: string, cap: number): Buffer | undefined {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(cap + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return buffer.subarray(0, length);
      length += read;
      if (length > cap) return undefined;
    }
  } finally {
    closeSync(fd);
  }
}

/** Synchronous: three thread-pool round trips for four bytes would delay the worker's start. */
function startsWithZstdMagic(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.equals(ZSTD_MAGIC);
  } finally {
    closeSync(fd);
  }
}

/** A large .zot: decompression runs in a worker while this thread hashes, parses and checks. */
async function loadLargeZstdFile(file: string, limits: ArchiveLimits, options: LoadOptions): Promise<AgentImage> {
  const builder = new ImageBuilder(limits, { ownedChunks: true, ...(options.onEntryStreamed === undefined ? {} : { onEntryStreamed: options.onEntryStreamed }) });
  const reader = new TarReader(builder);
  const onChunk = (chunk: Buffer) => {
    builder.observeTarBytes(chunk);
    reader.push(chunk);
  };
  const artifact =
    options.decompressionWorker === undefined
      ? await (await import('./zstd-offload.js')).decodeFileInWorker(file, limits.maxCompressedBytes, onChunk, options.signal)
      : await options.decompressionWorker.decodeFile(file, limits.maxCompressedBytes, onChunk, options.signal);
  reader.end();
  return builder.build('zstd', artifact, reader.paddingAfterTrailer);
}

/** Loads a source directory: the image holds its files, and its content digest is the directory digest. */
export async function loadImageFromDirectory(directory: string, options: LoadOptions = {}): Promise<AgentImage> {
  // A local directory agent may be a git checkout: its .git is loaded like any directory (only pack refuses it).
  const tree = await walkSourceTree(directory, { gitMetadata: 'include', ...(options.limits === undefined ? {} : { limits: options.limits }) });
  const hash = createHash('sha256');
  const files = new Map<string, Buffer>();
  const directories = new Map<string, true>();
  const modes = new Map<string, 0o644 | 0o755>();
  const pieces = new Map<string, Buffer[]>();
  for await (const part of canonicalTarParts(tree)) {
    if (options.signal?.aborted) throw interrupted();
    hash.update(part.bytes);
    const entry = part.entry;
    if (entry === undefined || part.kind === 'padding') continue;
    if (part.kind === 'header') {
      if (entry.type === 'directory') directories.set(entry.relativePath, true);
      else {
        modes.set(entry.relativePath, entry.mode);
        files.set(entry.relativePath, Buffer.alloc(0));
        pieces.set(entry.relativePath, []);
      }
    } else {
      pieces.get(entry.relativePath)!.push(part.bytes);
    }
  }
  for (const [name, parts] of pieces) files.set(name, parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  return new AgentImage({
    format: 'directory',
    artifactDigest: undefined,
    artifactSize: undefined,
    contentDigest: formatDigest(hash),
    files,
    directories,
    modes,
  });
}

/** Reads at least `count` bytes from the front of a stream (fewer at its end), leaving the rest. */
async function readHead(input: AsyncGenerator<Buffer>, count: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  while (length < count) {
    const next = await input.next();
    if (next.done) break;
    parts.push(next.value);
    length += next.value.length;
  }
  return Buffer.concat(parts);
}

async function* prepend(head: Buffer, rest: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  yield* rest;
}
