// Large .zot files (>= OFFLOAD_THRESHOLD compressed) decompress in a worker
// thread. The same rules must hold there as in-thread.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unpackArchiveFile } from '../../src/archive/extract.js';
import { loadImageFromArchive, loadImageFromFile } from '../../src/archive/load-image.js';
import { OFFLOAD_THRESHOLD } from '../../src/archive/zstd-offload.js';
import { ZstdEncoder } from '../../src/archive/zstd-stream.js';
import { MINIMAL_MANIFEST, buildTar, headerBlock, zot, type TarPiece } from '../fixtures/tar-builder.js';
import { tempDir } from '../fixtures/temp.js';

const manifest: TarPiece = { kind: 'file', name: 'manifest.json', data: MINIMAL_MANIFEST };
// Random bytes do not compress: this entry alone pushes the archive over the threshold.
const noise: TarPiece = { kind: 'file', name: 'noise.bin', data: randomBytes(OFFLOAD_THRESHOLD + 100_000) };

function write(t: Parameters<typeof tempDir>[0], bytes: Buffer): string {
  const file = path.join(tempDir(t), 'big.zot');
  writeFileSync(file, bytes);
  return file;
}

test('a large archive loads through the worker with the same image and digests as in-thread', async (t) => {
  const bytes = zot([manifest, noise, { kind: 'dir', name: 'd/' }, { kind: 'file', name: 'd/x', data: 'x'.repeat(3000) }]);
  t.true(bytes.length >= OFFLOAD_THRESHOLD);
  const viaWorker = await loadImageFromFile(write(t, bytes));
  const inThread = await loadImageFromArchive(bytes);
  t.is(viaWorker.artifactDigest, inThread.artifactDigest);
  t.is(viaWorker.contentDigest, inThread.contentDigest);
  t.deepEqual(viaWorker.entries, inThread.entries);
  t.true(viaWorker.readFile('noise.bin')!.equals(inThread.readFile('noise.bin')!), 'same bytes (Buffer.equals: deepEqual is slow on MiBs)');
});

test('a truncated large archive is rejected by the worker path', async (t) => {
  const bytes = zot([manifest, noise]);
  const error = await t.throwsAsync(loadImageFromFile(write(t, bytes.subarray(0, bytes.length - 1000))));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_CORRUPT');
});

test('a failed checksum is rejected by the worker path', async (t) => {
  const bytes = Buffer.from(zot([manifest, noise]));
  bytes[bytes.length - 1]! ^= 0xff;
  const error = await t.throwsAsync(loadImageFromFile(write(t, bytes)));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_CORRUPT');
});

test('a bomb behind a large prefix stops at the expanded limit in the worker path', async (t) => {
  const encoder = new ZstdEncoder();
  const parts: Buffer[] = [...encoder.push(buildTar([manifest, noise], { trailer: false }))];
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 5; i++) {
    parts.push(...encoder.push(headerBlock({ name: `bomb${i}`, size: 60 * 1024 * 1024 })));
    for (let mb = 0; mb < 60; mb++) parts.push(...encoder.push(zeros));
  }
  parts.push(...encoder.push(Buffer.alloc(1024)), ...encoder.end());
  const error = await t.throwsAsync(loadImageFromFile(write(t, Buffer.concat(parts))));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_LIMIT_EXCEEDED');
});

test('an unsafe name in a large archive is rejected and unpack leaves nothing behind', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'big.zot');
  writeFileSync(file, zot([manifest, noise, { kind: 'file', name: 'ok.txt', data: 'fine' }, { kind: 'file', name: '../escape', data: 'x' }]));
  const error = await t.throwsAsync(unpackArchiveFile(file, path.join(dir, 'out')));
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_ENTRY_UNSAFE');
  t.deepEqual(readdirSync(dir), ['big.zot'], 'files streamed into staging before the bad entry were removed');
});

test('aborting a large load stops the worker with ZB_ARCHIVE_INTERRUPTED', async (t) => {
  const controller = new AbortController();
  const load = loadImageFromFile(write(t, zot([manifest, noise])), { signal: controller.signal });
  controller.abort();
  const error = await t.throwsAsync(load);
  t.is((error as { code?: string }).code, 'ZB_ARCHIVE_INTERRUPTED');
});

test("the worker ignores the embedding process's execArgv", async (t) => {
  const { execFileSync } = await import('node:child_process');
  const file = write(t, zot([manifest, noise]));
  const module = new URL('../../src/archive/load-image.js', import.meta.url).href;
  const script = `const m = await import(${JSON.stringify(module)}); const image = await m.loadImageFromFile(${JSON.stringify(file)}); console.log(image.entries.length);`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  t.is(output.trim(), '2');
});

test('a reused decompression worker serves several loads, including concurrent ones, and survives a failed one', async (t) => {
  const { ZstdDecompressionWorker } = await import('../../src/archive/zstd-offload.js');
  const worker = new ZstdDecompressionWorker();
  t.teardown(() => worker.close());
  const good = write(t, zot([manifest, noise]));
  const bad = write(t, zot([manifest, noise, { kind: 'file', name: '../x', data: 'x' }]));
  const first = await loadImageFromFile(good, { decompressionWorker: worker });
  const failed = await t.throwsAsync(loadImageFromFile(bad, { decompressionWorker: worker }));
  t.is((failed as { code?: string }).code, 'ZB_ARCHIVE_ENTRY_UNSAFE');
  const [second, third] = await Promise.all([loadImageFromFile(good, { decompressionWorker: worker }), loadImageFromFile(good, { decompressionWorker: worker })]);
  t.is(second.contentDigest, first.contentDigest);
  t.is(third.artifactDigest, first.artifactDigest);
});

test('an idle reused worker does not keep a process alive', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const file = write(t, zot([manifest, noise]));
  const module = new URL('../../src/archive/index.js', import.meta.url).href;
  const script = `const m = await import(${JSON.stringify(module)}); const w = new m.ZstdDecompressionWorker(); const image = await m.loadImageFromFile(${JSON.stringify(file)}, { decompressionWorker: w }); console.log(image.entries.length);`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  t.is(output.trim(), '2');
});
