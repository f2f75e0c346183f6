// Extraction limits (spec Part A, from zot's B §4, plus the entry cap). They are
// enforced on bytes as they stream in, never taken on trust from headers, and
// pack refuses to write an archive that these limits would reject.
export interface ArchiveLimits {
  /** Compressed bytes of a .zot (or of a downloaded archive). */
  readonly maxCompressedBytes: number;
  /** Content bytes of one entry. */
  readonly maxEntryBytes: number;
  /** Content bytes of all entries together. */
  readonly maxExpandedBytes: number;
  /** Entries of any type, directories and ignored types included. */
  readonly maxEntries: number;
  /**
   * Entries of the whole archive stream, kept or not: a GitHub archive is a whole repository, of which only
   * the agent's folder is kept, and every entry outside it still costs a header to read.
   */
  readonly maxArchiveEntries?: number;
  /** Bytes the decompressor yields for the whole archive (headers, padding and entries outside the kept folder included). */
  readonly maxDecompressedBytes?: number;
}

export const DEFAULT_LIMITS: ArchiveLimits = Object.freeze({
  maxCompressedBytes: 100 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
  maxExpandedBytes: 256 * 1024 * 1024,
  maxEntries: 10_000,
  maxArchiveEntries: 200_000,
  maxDecompressedBytes: 1024 * 1024 * 1024,
});

/** zstd window accepted when decoding: 2^23 = 8 MiB, zot's encoder window (spec B §3.7). */
export const ZSTD_WINDOW_LOG_MAX = 23;
