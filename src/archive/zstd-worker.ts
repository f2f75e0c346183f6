// Worker-thread entry for decompressing a large .zot off the main thread (see
// zstd-offload.ts). It reads the file once, counts the compressed bytes, and
// posts both the decoded 1 MiB chunks and the compressed chunks it decoded
// (for the consumer to hash), all transferred without copying. It never runs
// more than MAX_IN_FLIGHT chunks ahead of the consumer, and stops when told to,
// so a decompression bomb cannot grow memory past the lookahead.
import { closeSync, openSync, readSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { toZotboxError, ZotboxError } from '../errors.js';
import { CONTROL_IN_FLIGHT, CONTROL_STOP, MAX_IN_FLIGHT, type ZstdWorkerInput, type ZstdWorkerMessage } from './zstd-offload.js';
import { BoundedZstdDecoder } from './zstd-stream.js';

const READ_CHUNK = 1024 * 1024;

function run(input: ZstdWorkerInput): void {
  const control = new Int32Array(input.control);
  const port = parentPort!;
  const send = (chunk: Buffer) => {
    // Wait for the consumer while it is MAX_IN_FLIGHT chunks behind.
    for (;;) {
      if (Atomics.load(control, CONTROL_STOP) !== 0) throw new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'decompression was stopped.');
      const inFlight = Atomics.load(control, CONTROL_IN_FLIGHT);
      if (inFlight < MAX_IN_FLIGHT) break;
      Atomics.wait(control, CONTROL_IN_FLIGHT, inFlight, 1000);
    }
    Atomics.add(control, CONTROL_IN_FLIGHT, 1);
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    port.postMessage({ type: 'data', chunk: bytes } satisfies ZstdWorkerMessage, [chunk.buffer as ArrayBuffer]);
  };
  const decoder = new BoundedZstdDecoder({ ownedChunks: true, chunkSize: 4 * 1024 * 1024 });
  const fd = openSync(input.file, 'r');
  let size = 0;
  try {
    for (;;) {
      // A fresh buffer per read: it is transferred to the consumer, which hashes it
      // (the artifact digest covers exactly the bytes decoded here, read once).
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      size += read;
      if (size > input.maxCompressedBytes) {
        throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the archive is larger than ${input.maxCompressedBytes} bytes compressed, the zotfile limit.`, {
          details: { limit: 'compressed', max: input.maxCompressedBytes },
        });
      }
      const view = buffer.subarray(0, read);
      decoder.decode(view, send);
      port.postMessage({ type: 'compressed', chunk: view } satisfies ZstdWorkerMessage, [buffer.buffer as ArrayBuffer]);
    }
    decoder.finish(send);
  } finally {
    closeSync(fd);
  }
  port.postMessage({ type: 'end', size } satisfies ZstdWorkerMessage);
}

// Only ever started by decodeFileInWorker; importing this module elsewhere does nothing.
if (!isMainThread && parentPort !== null && (workerData as { kind?: unknown } | null)?.kind === 'zotbox-zstd') {
  try {
    run(workerData as ZstdWorkerInput);
  } catch (thrown) {
    parentPort.postMessage({ type: 'error', error: toZotboxError(thrown).toWire() } satisfies ZstdWorkerMessage);
  }
}
