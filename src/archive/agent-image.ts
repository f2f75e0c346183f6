// The in-memory, read-only agent image: entry names mapped to bytes, plus the
// digests of exactly those bytes. An agent runs from its image, so what was
// digested and consented to is what runs, with no temp directory and no window
// for the files to change. Readers get copies; the image itself never changes.
import { createHash } from 'node:crypto';
import { compareUtf8 } from './entry-name.js';
import { formatDigest, type Digest } from './digest.js';
import { TRAILER, encodeCanonicalHeader, padToBlock } from './tar-header.js';

export type ImageFormat = 'zstd' | 'gzip' | 'directory';

export interface ImageEntry {
  /** Relative name with "/" separators, no trailing "/". */
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly mode: 0o644 | 0o755;
  readonly size: number;
}

export interface AgentImageInit {
  readonly format: ImageFormat;
  readonly artifactDigest: Digest | undefined;
  readonly artifactSize: number | undefined;
  /** Known content digest (from a canonical stream or a directory walk); computed when absent. */
  readonly contentDigest: Digest | undefined;
  readonly files: ReadonlyMap<string, Buffer>;
  readonly directories: ReadonlyMap<string, true>;
  readonly modes: ReadonlyMap<string, 0o644 | 0o755>;
}

export class AgentImage {
  /** Where the bytes came from. */
  readonly format: ImageFormat;
  /** SHA-256 of the .zot (or .tar.gz) bytes as stored; undefined for a directory. */
  readonly artifactDigest: Digest | undefined;
  /** Size of the archive file in bytes; undefined for a directory. */
  readonly artifactSize: number | undefined;
  /** SHA-256 of the canonical tar of the entries: equal to the directory digest of the source tree. */
  readonly contentDigest: Digest;
  /** Every entry in canonical (UTF-8 byte) order, implied parent directories included. */
  readonly entries: readonly ImageEntry[];
  private readonly files: ReadonlyMap<string, Buffer>;

  constructor(init: AgentImageInit) {
    this.format = init.format;
    this.artifactDigest = init.artifactDigest;
    this.artifactSize = init.artifactSize;
    this.files = init.files;
    const entries: ImageEntry[] = [];
    for (const name of init.directories.keys()) entries.push({ name, type: 'directory', mode: 0o755, size: 0 });
    for (const [name, bytes] of init.files) entries.push({ name, type: 'file', mode: init.modes.get(name) ?? 0o644, size: bytes.length });
    entries.sort((a, b) => compareUtf8(a.name, b.name));
    this.entries = Object.freeze(entries.map((e) => Object.freeze(e)));
    this.contentDigest = init.contentDigest ?? digestCanonicalEntries(this.entries, this.files);
    Object.freeze(this);
  }

  /** True when `name` is a regular file in the image. */
  hasFile(name: string): boolean {
    return this.files.has(name);
  }

  /** A copy of a file's bytes, or undefined when there is no such file. */
  readFile(name: string): Buffer | undefined {
    const bytes = this.files.get(name);
    return bytes === undefined ? undefined : Buffer.from(bytes);
  }

  /** A file decoded as UTF-8, or undefined when there is no such file. */
  readText(name: string): string | undefined {
    return this.files.get(name)?.toString('utf8');
  }

  /** Number of content bytes in all files. */
  get expandedSize(): number {
    let total = 0;
    for (const bytes of this.files.values()) total += bytes.length;
    return total;
  }
}

/** The canonical tar of image entries, as chunks (headers, data views, padding, trailer). */
export function* canonicalImageTar(entries: readonly ImageEntry[], files: ReadonlyMap<string, Buffer>): Generator<Buffer> {
  for (const entry of entries) {
    const tarName = entry.type === 'directory' ? `${entry.name}/` : entry.name;
    yield encodeCanonicalHeader(tarName, entry.type, entry.mode, entry.size);
    if (entry.type !== 'file' || entry.size === 0) continue;
    yield files.get(entry.name)!;
    const padding = padToBlock(entry.size) - entry.size;
    if (padding > 0) yield Buffer.alloc(padding);
  }
  yield TRAILER;
}

function digestCanonicalEntries(entries: readonly ImageEntry[], files: ReadonlyMap<string, Buffer>): Digest {
  const hash = createHash('sha256');
  for (const chunk of canonicalImageTar(entries, files)) hash.update(chunk);
  return formatDigest(hash);
}
