// The archive layer's public surface: what host and the library API use.
export { AgentImage, type ImageEntry, type ImageFormat } from './agent-image.js';
export { formatDigest, isDigest, sha256, type Digest } from './digest.js';
export { DEFAULT_LIMITS, type ArchiveLimits } from './limits.js';
export { loadImageFromArchive, loadImageFromDirectory, loadImageFromFile, type LoadOptions } from './load-image.js';
export { walkSourceTree, type SourceEntry, type SourceTree } from './source-tree.js';
export { canonicalTarParts, digestSourceTree } from './tar-pack.js';
export { ZstdEncoder } from './zstd-stream.js';
export { ZstdDecompressionWorker } from './zstd-offload.js';
export type { ArchiveSelection } from './image-builder.js';
export { unpackArchiveFile, type UnpackResult } from './extract.js';
