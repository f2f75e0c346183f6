// Facts about the formats an archive may use: magic numbers, and the size from
// which a .zot decodes in a worker thread. Constants only: telling formats apart
// must not load the zstd binding (zstd-stream.ts) or start the worker machinery
// (zstd-offload.ts), so loading a directory pays for neither (issue 11).
export const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** Compressed size from which a worker pays for itself. */
export const OFFLOAD_THRESHOLD = 4 * 1024 * 1024;
