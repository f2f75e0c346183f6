// Public API entry: the archive layer (images, digests, limits, safe extraction).
// Re-exports only; src/index.ts re-exports it unchanged, and the CLI imports it
// when a command needs it, so that a command loads only what it uses (issue 11).
export {
  AgentImage,
  DEFAULT_LIMITS,
  ZstdDecompressionWorker,
  isDigest,
  loadImageFromArchive,
  loadImageFromDirectory,
  loadImageFromFile,
  unpackArchiveFile,
} from '../archive/index.js';
export type { ArchiveLimits, Digest, ImageEntry, ImageFormat, LoadOptions, UnpackResult } from '../archive/index.js';
