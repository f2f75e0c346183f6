// The two native dependencies must be built by `npm ci` on a fresh clone and do
// real work; npm can silently skip install scripts (see allowScripts in package.json).
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import ivm from 'isolated-vm';
import * as zstd from 'zstd-napi';

test('zstd-napi compresses and decompresses a buffer losslessly', (t) => {
  const input = Buffer.concat([Buffer.from('zotbox '.repeat(10_000)), randomBytes(4096)]);
  const compressed = zstd.compress(input, { compressionLevel: 3 });
  t.true(compressed.length < input.length / 2, 'the repetitive part compresses');
  t.deepEqual(compressed.subarray(0, 4), Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), 'zstd frame magic');
  t.deepEqual(zstd.decompress(compressed), input);
});

test('zstd-napi rejects corrupt input with an error instead of crashing', (t) => {
  const compressed = zstd.compress(Buffer.from('hello world, hello world'));
  const corrupt = Buffer.from(compressed);
  corrupt[corrupt.length - 2] = (corrupt[corrupt.length - 2] ?? 0) ^ 0xff;
  t.throws(() => zstd.decompress(Buffer.concat([Buffer.from([0, 1, 2, 3]), corrupt])));
});

test('tests run with --no-node-snapshot, which isolated-vm needs on Node 20', (t) => {
  t.true(process.execArgv.includes('--no-node-snapshot'));
});

test('isolated-vm evaluates code in an isolate with no access to the host', (t) => {
  const isolate = new ivm.Isolate({ memoryLimit: 16 });
  try {
    const context = isolate.createContextSync();
    t.is(context.evalSync('[1, 2, 3].map((n) => n * 14).reduce((a, b) => a + b)'), 84);
    t.is(context.evalSync('typeof process + "/" + typeof require + "/" + typeof fetch'), 'undefined/undefined/undefined');
  } finally {
    isolate.dispose();
  }
});

test('isolated-vm enforces the isolate memory limit without taking down the process', (t) => {
  const isolate = new ivm.Isolate({ memoryLimit: 8 });
  const context = isolate.createContextSync();
  const error = t.throws(() => {
    context.evalSync('const hog = []; for (;;) hog.push(new Array(1e5).fill(Math.random()));');
  });
  t.regex(error.message, /memory limit/);
  t.true(isolate.isDisposed);
});

test('isolated-vm works inside a worker thread, as pool workers will use it', async (t) => {
  const source = `
    const { parentPort } = require('node:worker_threads');
    const ivm = require(${JSON.stringify(createRequire(import.meta.url).resolve('isolated-vm'))});
    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    parentPort.postMessage(isolate.createContextSync().evalSync('6 * 7'));
    isolate.dispose();`;
  const worker = new Worker(source, { eval: true });
  const answer = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  t.is(answer, 42);
});
