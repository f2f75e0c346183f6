import test from 'ava';
import * as zstd from 'zstd-napi';
import { BoundedZstdDecoder, ZstdEncoder } from '../../src/archive/zstd-stream.js';

function decodeAll(input: Buffer, options: ConstructorParameters<typeof BoundedZstdDecoder>[0] = {}): Buffer[] {
  const decoder = new BoundedZstdDecoder(options);
  const chunks: Buffer[] = [];
  const sink = (chunk: Buffer) => chunks.push(options.ownedChunks === true ? chunk : Buffer.from(chunk));
  decoder.decode(input, sink);
  decoder.finish(sink);
  return chunks;
}

test('the encoder and decoder round-trip, in any number of pushes', (t) => {
  const input = Buffer.from('zotbox '.repeat(100_000));
  const encoder = new ZstdEncoder();
  const compressed = Buffer.concat([...encoder.push(input.subarray(0, 1000)), ...encoder.push(input.subarray(1000)), ...encoder.end()]);
  t.deepEqual(Buffer.concat(decodeAll(compressed)).equals(input), true);
  t.deepEqual(zstd.decompress(compressed).equals(input), true, 'the system library agrees');
});

test('output arrives in slices no larger than the output buffer, whatever the frame claims', (t) => {
  const input = Buffer.alloc(3 * 1024 * 1024, 1);
  const compressed = zstd.compress(input); // one-shot: the frame header declares the full content size
  const chunks = decodeAll(compressed, { chunkSize: 64 * 1024 });
  t.true(chunks.every((c) => c.length <= 64 * 1024));
  t.is(
    chunks.reduce((n, c) => n + c.length, 0),
    input.length,
  );
});

test('a sink that throws stops decoding at once', (t) => {
  const compressed = zstd.compress(Buffer.alloc(8 * 1024 * 1024));
  const decoder = new BoundedZstdDecoder({ chunkSize: 128 * 1024 });
  let seen = 0;
  t.throws(
    () =>
      decoder.decode(compressed, (chunk) => {
        seen += chunk.length;
        if (seen > 256 * 1024) throw new Error('limit');
      }),
    { message: 'limit' },
  );
  t.true(seen <= 384 * 1024);
});

test('owned chunks are fresh buffers; unowned ones reuse one buffer', (t) => {
  const compressed = zstd.compress(Buffer.alloc(300_000, 9));
  const owned: ArrayBufferLike[] = [];
  const decoder = new BoundedZstdDecoder({ ownedChunks: true, chunkSize: 64 * 1024 });
  decoder.decode(compressed, (c) => owned.push(c.buffer));
  decoder.finish((c) => owned.push(c.buffer));
  t.is(new Set(owned).size, owned.length);
  const reused: ArrayBufferLike[] = [];
  const shared = new BoundedZstdDecoder({ chunkSize: 64 * 1024 });
  shared.decode(compressed, (c) => reused.push(c.buffer));
  t.is(new Set(reused).size, 1);
});

test('concatenated frames decode as one stream', (t) => {
  const joined = Buffer.concat([zstd.compress(Buffer.from('first,')), zstd.compress(Buffer.from('second'))]);
  t.is(Buffer.concat(decodeAll(joined)).toString(), 'first,second');
});

test('a frame whose content ends exactly at an output-buffer boundary is complete (regression)', (t) => {
  for (const size of [64 * 1024, 128 * 1024, 3 * 64 * 1024]) {
    const compressed = zstd.compress(Buffer.alloc(size, 5));
    t.is(Buffer.concat(decodeAll(compressed, { chunkSize: 64 * 1024 })).length, size, `${size} bytes`);
    t.is(Buffer.concat(decodeAll(compressed, { chunkSize: 64 * 1024, ownedChunks: true })).length, size);
  }
});
