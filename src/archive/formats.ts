// The magic numbers of the compressed formats an archive may use. Constants only:
// detecting a format must not load the zstd binding (zstd-stream.ts), so loading a
// directory or a gzip tar never pays for it (issue 11).
export const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
