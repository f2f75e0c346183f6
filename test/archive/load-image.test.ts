import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import binding from 'zstd-napi/binding.js';
import { loadImageFromArchive, loadImageFromFile } from '../../src/archive/load-image.js';
import { DEFAULT_LIMITS, type ArchiveLimits } from '../../src/archive/limits.js';
import type { ErrorCode } from '../../src/errors.js';
import { MINIMAL_MANIFEST, buildTar, gzipCompress, headerBlock, zot, zstdCompress, type TarPiece } from '../fixtures/tar-builder.js';
import { COMPAT, compatDigest, readCompatDigests } from './compat-digests.js';

const manifest: TarPiece = { kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST };
const small: ArchiveLimits = { maxCompressedBytes: 1_000_000, maxEntryBytes: 4096, maxExpandedBytes: 10_000, maxEntries: 20 };

const rejects = test.macro(async (t, archive: Buffer, code: ErrorCode, limits?: ArchiveLimits) => {
  const error = await t.throwsAsync(loadImageFromArchive(archive, limits === undefined ? {} : { limits }));
  t.is((error as { code?: string }).code, code, error.message);
});

test("zot's reference .zot files load with both reference digests and the reference entry order", async (t) => {
  for (const info of Object.values(readCompatDigests())) {
    const image = await loadImageFromFile(path.join(COMPAT, info.zot_file));
    t.is(image.format, 'zstd');
    t.is(image.artifactDigest, `sha256:${info.zot_digest}`);
    t.is(image.contentDigest, `sha256:${info.dir_digest}`);
    t.deepEqual(
      image.entries.map((e) => (e.type === 'directory' ? `${e.name}/` : e.name)),
      info.entries,
    );
  }
});

test('the image serves copies: changing what it returned does not change the image', async (t) => {
  const image = await loadImageFromArchive(zot([manifest]));
  const bytes = image.readFile('manifest.json')!;
  bytes.fill(0);
  t.is(image.readText('manifest.json'), MINIMAL_MANIFEST);
  t.true(Object.isFrozen(image));
  t.true(Object.isFrozen(image.entries));
});

test('a gzip tar is a real fallback, detected by magic bytes', async (t) => {
  const tar = buildTar([manifest, { kind: 'dir', name: 'skills/' }]);
  const image = await loadImageFromArchive(gzipCompress(tar));
  t.is(image.format, 'gzip');
  t.is(image.readText('manifest.json'), MINIMAL_MANIFEST);
  t.is(image.contentDigest, (await loadImageFromArchive(zstdCompress(tar))).contentDigest);
});

test('a GitHub-style archive (pax_global_header, no directory entries, ./ root) loads with implied directories', async (t) => {
  const tar = buildTar([{ kind: 'pax', global: true, records: { comment: 'a'.repeat(40) } }, { kind: 'dir', name: './' }, { kind: 'file', name: './skills/x/SKILL.md', data: 'skill' }, manifest]);
  const image = await loadImageFromArchive(gzipCompress(tar));
  t.deepEqual(
    image.entries.map((e) => e.name),
    ['manifest.json', 'skills', 'skills/x', 'skills/x/SKILL.md'],
  );
});

test('the content digest of a non-canonical archive equals the digest of the canonical tar of the same entries', async (t) => {
  const canonical = await loadImageFromArchive(zot([manifest, { kind: 'dir', name: 'a/' }, { kind: 'file', name: 'a/b', data: 'x', mode: 0o755 }]));
  // Reordered, odd modes, no directory entry, extra zero padding: same content.
  const messy = await loadImageFromArchive(
    zstdCompress(
      Buffer.concat([
        buildTar([
          { kind: 'file', name: './a/b', data: 'x', mode: 0o775 },
          { kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST, mode: 0o600 },
        ]),
        Buffer.alloc(8192),
      ]),
    ),
  );
  t.is(messy.contentDigest, canonical.contentDigest);
  t.not(messy.artifactDigest, canonical.artifactDigest);
});

test('symlinks, hard links, devices and FIFOs are ignored, never becoming files', async (t) => {
  const image = await loadImageFromArchive(
    zot([
      manifest,
      { kind: 'link', name: 'escape', target: '/etc', typeflag: '2' },
      { kind: 'link', name: 'hard', target: '/etc/passwd', typeflag: '1' },
      { kind: 'special', name: 'tty', typeflag: '3' },
      { kind: 'special', name: 'disk', typeflag: '4' },
      { kind: 'special', name: 'pipe', typeflag: '6' },
    ]),
  );
  t.deepEqual(
    image.entries.map((e) => e.name),
    ['manifest.json'],
  );
});

test(
  'a symlink followed by a write through it is rejected (link-then-write)',
  rejects,
  zot([manifest, { kind: 'link', name: 'a', target: '/etc', typeflag: '2' }, { kind: 'file', name: 'a/passwd', data: 'pwned' }]),
  'ZB_ARCHIVE_ENTRY_DUPLICATE',
);
test(
  'a symlink followed by a file of the same name is rejected',
  rejects,
  zot([manifest, { kind: 'link', name: 'a', target: '/etc/passwd', typeflag: '2' }, { kind: 'file', name: 'a', data: 'x' }]),
  'ZB_ARCHIVE_ENTRY_DUPLICATE',
);
test(
  'a hard link followed by a file of the same name is rejected',
  rejects,
  zot([manifest, { kind: 'link', name: 'a', target: 'manifest.json', typeflag: '1' }, { kind: 'file', name: 'a', data: 'x' }]),
  'ZB_ARCHIVE_ENTRY_DUPLICATE',
);

// Traversal through every name source.
test('traversal in the name field is rejected', rejects, zot([manifest, { kind: 'file', name: '../escape', data: 'x' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('traversal in the middle of a name is rejected', rejects, zot([manifest, { kind: 'file', name: 'a/../../escape' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('traversal through the USTAR prefix is rejected', rejects, zot([manifest, { kind: 'file', name: 'escape', prefix: '../..' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('an absolute path through the USTAR prefix is rejected', rejects, zot([manifest, { kind: 'file', name: 'passwd', prefix: '/etc' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test(
  'traversal through a GNU long name is rejected',
  rejects,
  zot([manifest, { kind: 'gnu-long-name', name: '../../escape' }, { kind: 'file', name: 'innocent', magic: 'gnu' }]),
  'ZB_ARCHIVE_ENTRY_UNSAFE',
);
test('traversal through a PAX path is rejected', rejects, zot([manifest, { kind: 'pax', records: { path: '../escape' } }, { kind: 'file', name: 'innocent' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('an absolute PAX path is rejected', rejects, zot([manifest, { kind: 'pax', records: { path: '/etc/cron.d/x' } }, { kind: 'file', name: 'innocent' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('an absolute name is rejected', rejects, zot([manifest, { kind: 'file', name: '/etc/passwd' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('a backslash name is rejected', rejects, zot([manifest, { kind: 'file', name: '..\\..\\escape' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('a NUL inside a PAX path is rejected', rejects, zot([manifest, { kind: 'pax', records: { path: 'ok\u0000/../../x' } }, { kind: 'file', name: 'innocent' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('a control character in a name is rejected', rejects, zot([manifest, { kind: 'file', name: 'a\nb' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('a name that is not valid UTF-8 is rejected', rejects, zot([manifest, { kind: 'file', name: Buffer.from([0x61, 0xff, 0x62]) }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');
test('a symlink entry whose own name traverses is still rejected', rejects, zot([manifest, { kind: 'link', name: '../x', target: 'y', typeflag: '2' }]), 'ZB_ARCHIVE_ENTRY_UNSAFE');

test('a duplicate file is rejected', rejects, zot([manifest, manifest]), 'ZB_ARCHIVE_ENTRY_DUPLICATE');
test('a duplicate after ./ normalization is rejected', rejects, zot([manifest, { kind: 'file', name: './manifest.json', data: '{}' }]), 'ZB_ARCHIVE_ENTRY_DUPLICATE');
test('a file and a directory with the same name are rejected', rejects, zot([manifest, { kind: 'file', name: 'a' }, { kind: 'dir', name: 'a/' }]), 'ZB_ARCHIVE_ENTRY_DUPLICATE');
test('a file used as a parent directory is rejected', rejects, zot([manifest, { kind: 'file', name: 'a' }, { kind: 'file', name: 'a/b' }]), 'ZB_ARCHIVE_ENTRY_DUPLICATE');

// Framing, corruption and truncation.
test('a bad header checksum is rejected', rejects, zot([manifest, { kind: 'file', name: 'x', checksum: 1 }]), 'ZB_ARCHIVE_CORRUPT');
test('an unknown header format is rejected', rejects, zot([manifest, { kind: 'file', name: 'x', magic: 'none' }]), 'ZB_ARCHIVE_CORRUPT');
test('an unknown entry type is rejected', rejects, zot([manifest, { kind: 'file', name: 'x', typeflag: 'Z' }]), 'ZB_ARCHIVE_CORRUPT');
test('non-zero data after the trailer is rejected', rejects, zot([manifest], { after: Buffer.from('tail') }), 'ZB_ARCHIVE_CORRUPT');
test('a header after a single zero block is rejected', rejects, zot([manifest, { kind: 'raw', bytes: Buffer.alloc(512) }, { kind: 'file', name: 'hidden' }]), 'ZB_ARCHIVE_CORRUPT');
test('a tar without its trailer is rejected as truncated', rejects, zot([manifest], { trailer: false }), 'ZB_ARCHIVE_CORRUPT');
test('a tar cut inside an entry is rejected as truncated', rejects, zstdCompress(buildTar([manifest]).subarray(0, 700)), 'ZB_ARCHIVE_CORRUPT');
test('a zstd stream cut short is rejected as truncated', rejects, zot([manifest]).subarray(0, 20), 'ZB_ARCHIVE_CORRUPT');
test('a gzip stream cut short is rejected', rejects, gzipCompress(buildTar([manifest])).subarray(0, 40), 'ZB_ARCHIVE_CORRUPT');
test(
  'a PAX header with a malformed record is rejected',
  rejects,
  zot([manifest, { kind: 'raw', bytes: Buffer.concat([headerBlock({ name: 'p', typeflag: 'x', size: 10 }), Buffer.from('99 path=x\n'.padEnd(512, '\0'))]) }, { kind: 'file', name: 'y' }]),
  'ZB_ARCHIVE_CORRUPT',
);
test(
  'a PAX path and a GNU long name on one entry are ambiguous and rejected',
  rejects,
  zot([manifest, { kind: 'gnu-long-name', name: 'a' }, { kind: 'pax', records: { path: 'b' } }, { kind: 'file', name: 'c' }]),
  'ZB_ARCHIVE_CORRUPT',
);
test('a global PAX path is rejected', rejects, zot([manifest, { kind: 'pax', global: true, records: { path: 'x' } }, { kind: 'file', name: 'c' }]), 'ZB_ARCHIVE_CORRUPT');
test('GNU sparse files are rejected', rejects, zot([manifest, { kind: 'pax', records: { 'GNU.sparse.size': '10' } }, { kind: 'file', name: 'c' }]), 'ZB_ARCHIVE_CORRUPT');

test(
  'non-zero padding after entry data is rejected',
  rejects,
  zot([manifest, { kind: 'raw', bytes: Buffer.concat([headerBlock({ name: 'x', size: 3 }), Buffer.from('abc'), Buffer.alloc(508, 0x41)]) }]),
  'ZB_ARCHIVE_CORRUPT',
);
test(
  'metadata headers count towards the entry limit',
  rejects,
  zot([manifest, ...Array.from({ length: 25 }, (): TarPiece => ({ kind: 'pax', global: true, records: { comment: 'x' } })), { kind: 'file', name: 'y' }]),
  'ZB_ARCHIVE_LIMIT_EXCEEDED',
  small,
);

test('a canonical archive with PAX entries is digested in one pass and matches the recomputed digest', async (t) => {
  const edgeCases = compatDigest('agents/edge-cases');
  const tar = readFileSync(path.join(COMPAT, 'edge-cases.tar'));
  const canonical = await loadImageFromArchive(zstdCompress(tar));
  t.is(canonical.contentDigest, `sha256:${edgeCases.dir_digest}`);
  // The same entries through a non-canonical stream (extra trailer padding) take the recompute path.
  const recomputed = await loadImageFromArchive(zstdCompress(Buffer.concat([tar, Buffer.alloc(1024)])));
  t.is(recomputed.contentDigest, canonical.contentDigest);
});

test('a failed zstd content checksum is rejected', async (t) => {
  const archive = Buffer.from(zot([manifest]));
  archive[archive.length - 1]! ^= 0xff; // the last 4 bytes are the XXH64-based checksum
  const error = await t.throwsAsync(loadImageFromArchive(archive));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_CORRUPT');
});

test('garbage after the gzip member is rejected', rejects, Buffer.concat([gzipCompress(buildTar([manifest])), Buffer.from('garbage!')]), 'ZB_ARCHIVE_CORRUPT');
test(
  'a second gzip member with data after the tar trailer is rejected',
  rejects,
  Buffer.concat([gzipCompress(buildTar([manifest])), gzipCompress(Buffer.from('x'.repeat(512)))]),
  'ZB_ARCHIVE_CORRUPT',
);
test('garbage after the zstd frame is rejected', rejects, Buffer.concat([zot([manifest]), Buffer.from('garbage!')]), 'ZB_ARCHIVE_CORRUPT');

test('a zstd frame that needs a window over 8 MiB is rejected', async (t) => {
  // Streamed (no content size) with windowLog 27: the frame header asks for a 128 MiB window.
  const context = new binding.CCtx();
  context.setParameter(binding.CParameter.windowLog, 27);
  context.setParameter(binding.CParameter.checksumFlag, 1);
  const tar = buildTar([manifest, { kind: 'file', name: 'big', data: Buffer.alloc(300_000, 7) }]);
  const output = Buffer.alloc(1 << 20);
  const chunks: Buffer[] = [];
  const [, firstProduced, consumed] = context.compressStream2(output, tar, binding.EndDirective.continue);
  chunks.push(Buffer.from(output.subarray(0, firstProduced)));
  t.is(consumed, tar.length);
  let pending: number;
  let produced: number;
  do {
    [pending, produced] = context.compressStream2(output, new Uint8Array(0), binding.EndDirective.end);
    chunks.push(Buffer.from(output.subarray(0, produced)));
  } while (pending > 0);
  const archive = Buffer.concat(chunks);
  t.is(binding.getFrameContentSize(archive), null, 'a streamed frame declares no content size');
  const error = await t.throwsAsync(loadImageFromArchive(archive));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_CORRUPT');
  t.regex(error.message, /memory|window/i);
});

test('an empty file is not an archive', rejects, Buffer.alloc(0), 'ZB_ARCHIVE_FORMAT_UNKNOWN');
test('a plain tar is not a .zot', rejects, buildTar([manifest]), 'ZB_ARCHIVE_FORMAT_UNKNOWN');
test('a zip file is not a .zot', rejects, Buffer.from('PK\u0003\u0004rest-of-zip'), 'ZB_ARCHIVE_FORMAT_UNKNOWN');

// Limits, counted on bytes as they arrive.
test('an entry over the per-entry limit is rejected from its header alone', rejects, zot([manifest, { kind: 'file', name: 'x', data: Buffer.alloc(4097) }]), 'ZB_ARCHIVE_LIMIT_EXCEEDED', small);
test(
  'entries that together pass the expanded limit are rejected',
  rejects,
  zot([manifest, ...Array.from({ length: 4 }, (_, i): TarPiece => ({ kind: 'file', name: `f${i}`, data: Buffer.alloc(4000) }))]),
  'ZB_ARCHIVE_LIMIT_EXCEEDED',
  small,
);
test(
  'data of ignored entries counts towards the expanded limit',
  rejects,
  zot([manifest, ...Array.from({ length: 4 }, (_, i): TarPiece => ({ kind: 'file', name: `f${i}`, typeflag: '7', data: Buffer.alloc(4000) }))]),
  'ZB_ARCHIVE_LIMIT_EXCEEDED',
  small,
);
test(
  'too many entries are rejected, zero-size ones included',
  rejects,
  zot([manifest, ...Array.from({ length: 25 }, (_, i): TarPiece => ({ kind: 'dir', name: `d${i}/` }))]),
  'ZB_ARCHIVE_LIMIT_EXCEEDED',
  small,
);
test(
  'deep paths cannot imply more directories than the entry limit',
  rejects,
  zot([manifest, { kind: 'file', name: `${Array.from({ length: 30 }, (_, i) => `d${i}`).join('/')}/x` }]),
  'ZB_ARCHIVE_LIMIT_EXCEEDED',
  small,
);
test('an archive over the compressed limit is rejected', rejects, zstdCompress(buildTar([manifest, { kind: 'file', name: 'r', data: randomBytes(3000) }])), 'ZB_ARCHIVE_LIMIT_EXCEEDED', {
  ...small,
  maxCompressedBytes: 1000,
});

test(
  'a header that lies about a small size cannot smuggle data: the rest is parsed as headers and fails',
  rejects,
  zot([manifest, { kind: 'file', name: 'x', data: Buffer.alloc(2048, 0x41), declaredSize: 10 }]),
  'ZB_ARCHIVE_CORRUPT',
);

test('a zstd bomb stops at the limit without inflating it into memory', async (t) => {
  // 300 MiB of zeros in one entry, compressed to a few KiB; the header claims 60 MiB per entry in 5 entries.
  const entrySize = 60 * 1024 * 1024;
  const header = (i: number) => headerBlock({ name: `bomb${i}`, size: entrySize });
  const encoder = new (await import('../../src/archive/zstd-stream.js')).ZstdEncoder();
  const parts: Buffer[] = [...encoder.push(buildTar([manifest], { trailer: false }))];
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 5; i++) {
    parts.push(...encoder.push(header(i)));
    for (let mb = 0; mb < 60; mb++) parts.push(...encoder.push(zeros));
  }
  parts.push(...encoder.push(Buffer.alloc(1024)), ...encoder.end());
  const bomb = Buffer.concat(parts);
  t.true(bomb.length < 200_000, `the bomb is ${bomb.length} bytes`);
  const before = process.memoryUsage().rss;
  const error = await t.throwsAsync(loadImageFromArchive(bomb));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_LIMIT_EXCEEDED');
  t.is((error as { details?: { limit?: string } }).details?.limit, 'expanded');
  const grownMiB = (process.memoryUsage().rss - before) / 1024 / 1024;
  t.true(grownMiB < DEFAULT_LIMITS.maxExpandedBytes / 1024 / 1024 + 128, `rss grew by ${grownMiB.toFixed(0)} MiB`);
});

test("a tar whose size is a multiple of the decoder's output buffer loads (regression)", async (t) => {
  // 128 KiB of tar: header + 130,048 bytes of data + trailer = 131,072 bytes.
  const tar = buildTar([{ kind: 'file', name: 'manifest.json', data: 'x'.repeat(131_072 - 512 - 1024) }]);
  t.is(tar.length, 131_072);
  const image = await loadImageFromArchive(zstdCompress(tar));
  t.is(image.entries.length, 1);
});

test('a stream can be loaded chunk by chunk, with chunk boundaries anywhere', async (t) => {
  const archive = zot([manifest, { kind: 'dir', name: 'assets/' }, { kind: 'file', name: 'assets/a.bin', data: Buffer.alloc(5000, 3) }]);
  async function* oneByteAtATime() {
    for (let i = 0; i < archive.length; i++) yield archive.subarray(i, i + 1);
  }
  const image = await loadImageFromArchive(oneByteAtATime());
  t.deepEqual(image.readFile('assets/a.bin'), Buffer.alloc(5000, 3));
  t.is(image.contentDigest, (await loadImageFromArchive(archive)).contentDigest);
});

test('an aborted load stops with ZB_ARCHIVE_INTERRUPTED', async (t) => {
  const controller = new AbortController();
  controller.abort();
  const error = await t.throwsAsync(loadImageFromArchive(zot([manifest]), { signal: controller.signal }));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_INTERRUPTED');
});

test('one bound on decompressed bytes applies to every archive, zstd and gzip, whatever the entries are (issue 22 §8)', async (t) => {
  const tar = buildTar([manifest, { kind: 'file', name: 'a.txt', data: 'x'.repeat(3000) }]);
  const limits: ArchiveLimits = { ...DEFAULT_LIMITS, maxDecompressedBytes: 4096 };
  for (const archive of [zstdCompress(tar), gzipCompress(tar)]) {
    const error = await t.throwsAsync(loadImageFromArchive(archive, { limits }));
    t.is((error as { code?: string }).code, 'ZB_ARCHIVE_LIMIT_EXCEEDED');
    t.deepEqual((error as { details?: unknown }).details, { limit: 'decompressed', max: 4096 });
  }
  // Within the bound (the tar is 3 header blocks, 3 KiB of data and two trailer blocks), the same archive loads.
  t.is((await loadImageFromArchive(zstdCompress(tar), { limits: { ...limits, maxDecompressedBytes: tar.length } })).readText('a.txt'), 'x'.repeat(3000));
});
