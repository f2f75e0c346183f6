import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TarReader, parsePaxRecords, type TarEntry } from '../../src/archive/tar-read.js';
import { buildTar, headerBlock } from '../fixtures/tar-builder.js';
import { COMPAT, readCompatDigests } from './compat-digests.js';

function readAll(tar: Buffer, chunkSize = tar.length) {
  const entries: (Omit<TarEntry, 'rawHeader'> & { data: string })[] = [];
  let metadata = 0;
  const reader = new TarReader({
    onMetadata: () => metadata++,
    onEntry: ({ rawHeader: _raw, ...entry }) => entries.push({ ...entry, data: '' }),
    onData: (chunk) => (entries[entries.length - 1]!.data += chunk.toString('latin1')),
    onEntryEnd: () => undefined,
  });
  for (let i = 0; i < tar.length; i += chunkSize) reader.push(tar.subarray(i, i + chunkSize));
  reader.end();
  return { entries, metadata };
}

test('entries, data and kinds are read in order, whatever the chunk boundaries', (t) => {
  const tar = buildTar([
    { kind: 'dir', name: 'd/' },
    { kind: 'file', name: 'd/a', data: 'hello' },
    { kind: 'link', name: 'l', target: 'd/a', typeflag: '2' },
    { kind: 'file', name: 'big', data: 'x'.repeat(1500) },
  ]);
  const whole = readAll(tar);
  t.deepEqual(
    whole.entries.map((e) => [e.name, e.kind, e.size, e.data.length]),
    [
      ['d/', 'directory', 0, 0],
      ['d/a', 'file', 5, 5],
      ['l', 'ignored', 0, 0],
      ['big', 'file', 1500, 1500],
    ],
  );
  for (const size of [1, 7, 511, 512, 513]) t.deepEqual(readAll(tar, size).entries, whole.entries, `chunks of ${size}`);
});

test('the effective name comes from the PAX path, else the GNU long name, else prefix/name', (t) => {
  const tar = buildTar([
    { kind: 'pax', records: { path: 'from/pax' } },
    { kind: 'file', name: 'ignored-name' },
    { kind: 'gnu-long-name', name: 'from/gnu/long' },
    { kind: 'file', name: 'also-ignored', magic: 'gnu' },
    { kind: 'file', name: 'name', prefix: 'pre/fix' },
  ]);
  const { entries, metadata } = readAll(tar);
  t.deepEqual(
    entries.map((e) => e.name),
    ['from/pax', 'from/gnu/long', 'pre/fix/name'],
  );
  t.is(metadata, 2);
});

test('names are decoded exactly: a leading byte-order mark is kept, in the name field, the prefix and a PAX path', (t) => {
  const tar = buildTar([
    { kind: 'file', name: '\ufeffa' },
    { kind: 'file', name: 'b', prefix: '\ufeffp' },
    { kind: 'pax', records: { path: '\ufeffc' } },
    { kind: 'file', name: 'ignored' },
  ]);
  t.deepEqual(
    readAll(tar).entries.map((e) => e.name),
    ['\ufeffa', '\ufeffp/b', '\ufeffc'],
  );
});

test('the GNU magic does not apply the USTAR prefix field', (t) => {
  const { entries } = readAll(buildTar([{ kind: 'file', name: 'name', prefix: 'not-a-prefix', magic: 'gnu' }]));
  t.is(entries[0]!.name, 'name');
});

test('a PAX size record overrides the header size', (t) => {
  const tar = buildTar([
    { kind: 'pax', records: { size: '3' } },
    { kind: 'raw', bytes: Buffer.concat([headerBlock({ name: 'f', size: 0 }), Buffer.from('abc'.padEnd(512, '\0'))]) },
  ]);
  t.deepEqual(
    readAll(tar).entries.map((e) => [e.name, e.size, e.data]),
    [['f', 3, 'abc']],
  );
});

test('numbers may be space- or NUL-terminated octal, or GNU base-256', (t) => {
  const header = headerBlock({ name: 'f', size: 0 });
  // Base-256 size 2 in the size field; fix the checksum afterwards.
  header.fill(0, 124, 136);
  header[124] = 0x80;
  header[135] = 2;
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  const tar = Buffer.concat([header, Buffer.from('hi'.padEnd(512, '\0')), Buffer.alloc(1024)]);
  t.is(readAll(tar).entries[0]!.data, 'hi');
});

test('PAX records are parsed strictly', (t) => {
  t.deepEqual(
    [...parsePaxRecords(Buffer.from('17 path=café.md\n8 a=b=c\n'))],
    [
      ['path', 'café.md'],
      ['a', 'b=c'],
    ],
  );
  for (const bad of ['17 path=café.md', '5 x=y\n', '0 x=y\n', '07 a=b\n', 'x path=y\n', '9 =value\n', '6 a=1\n6 a=2\n']) {
    t.throws(() => parsePaxRecords(Buffer.from(bad)), undefined, JSON.stringify(bad));
  }
});

test('the reference tars are read entry for entry as digests.json lists them', (t) => {
  for (const info of Object.values(readCompatDigests())) {
    const { entries } = readAll(readFileSync(path.join(COMPAT, info.canonical_tar_file)));
    t.deepEqual(
      entries.map((e) => e.name),
      info.entries,
    );
  }
});

// Zero checks: one stray byte anywhere, in any chunking, must be seen. The reader compares
// whole runs against zeros natively, so the first, a middle and the last byte are all tried.
const CHUNKINGS = [1, 7, 511, 512, 513, 4096, Number.MAX_SAFE_INTEGER];

function corruptWith(tar: Buffer, offset: number): Buffer {
  const copy = Buffer.from(tar);
  copy[offset] = 0x01;
  return copy;
}

function rejectedInEveryChunking(t: import('ava').ExecutionContext, tar: Buffer, label: string): void {
  for (const size of CHUNKINGS) {
    const error = t.throws(() => readAll(tar, size), undefined, `${label}, chunks of ${size}`);
    t.is((error as { code?: string } | undefined)?.code, 'ZB_ARCHIVE_CORRUPT', `${label}, chunks of ${size}`);
  }
}

test("one non-zero byte anywhere in an entry's padding is rejected, whatever the chunk boundaries", (t) => {
  const tar = buildTar([{ kind: 'file', name: 'f', data: 'abc' }]);
  // Header (512), data (3), padding (509): bytes 515 to 1023.
  for (const offset of [515, 700, 1023]) rejectedInEveryChunking(t, corruptWith(tar, offset), `padding byte ${offset}`);
});

test('one non-zero byte anywhere in the trailer is rejected, whatever the chunk boundaries', (t) => {
  const tar = buildTar([{ kind: 'file', name: 'f', data: 'abc' }]);
  // The trailer is bytes 1024 to 2047: in the first block the byte makes a header with a bad
  // checksum, in the second a header after a zero block.
  for (const offset of [1024, 1535, 1536, 2047]) rejectedInEveryChunking(t, corruptWith(tar, offset), `trailer byte ${offset}`);
});

test('one non-zero byte anywhere in the zero padding after the trailer is rejected, whatever the chunk boundaries', (t) => {
  const tar = buildTar([{ kind: 'file', name: 'f', data: 'abc' }], { after: Buffer.alloc(4 * 512) });
  for (const offset of [2048, 2048 + 511, 2048 + 512, tar.length - 1]) rejectedInEveryChunking(t, corruptWith(tar, offset), `byte ${offset} after the trailer`);
});

test('zero padding after the trailer is accepted up to 20 blocks, and more is rejected', (t) => {
  const file = { kind: 'file', name: 'f', data: 'abc' } as const;
  for (const size of CHUNKINGS) t.is(readAll(buildTar([file], { after: Buffer.alloc(20 * 512) }), size).entries.length, 1, `chunks of ${size}`);
  rejectedInEveryChunking(t, buildTar([file], { after: Buffer.alloc(20 * 512 + 1) }), 'one byte over');
});
