// Worker-thread entry for decompressing large .zot files off the main thread
// (see zstd-offload.ts). For each job it reads the file once, counts and hashes
// the compressed bytes it decodes, and posts the decoded chunks, transferred
// without copying. It never runs more than MAX_IN_FLIGHT chunks ahead of the
// consumer and stops when told to, so a decompression bomb cannot grow memory
// past the lookahead.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ZotboxError, fileSystemError, toZotboxError } from '../errors.js';
import { formatDigest } from './digest.js';
import { CONTROL_IN_FLIGHT, CONTROL_STOP, MAX_IN_FLIGHT, type ZstdJob, type ZstdWorkerMessage } from './zstd-offload.js';
import { BoundedZstdDecoder } from './zstd-stream.js';

const READ_CHUNK = 1024 * 1024;
const DECODED_CHUNK = 4 * 1024 * 1024;

function runJob(job: ZstdJob, port: NonNullable<typeof parentPort>): void {
  const control = new Int32Array(job.control);
  const post = (message: ZstdWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const send = (chunk: Buffer) => {
    // Wait for the consumer while it is MAX_IN_FLIGHT chunks behind.
    for (;;) {
      if (Atomics.load(control, CONTROL_STOP) !== 0) throw new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'decompression was stopped.');
      const inFlight = Atomics.load(control, CONTROL_IN_FLIGHT);
      if (inFlight < MAX_IN_FLIGHT) break;
      Atomics.wait(control, CONTROL_IN_FLIGHT, inFlight, 1000);
    }
    Atomics.add(control, CONTROL_IN_FLIGHT, 1);
    post({ id: job.id, type: 'data', chunk: new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) }, [chunk.buffer as ArrayBuffer]);
  };
  const decoder = new BoundedZstdDecoder({ ownedChunks: true, chunkSize: DECODED_CHUNK });
  // The artifact digest is taken here, on exactly the bytes decoded, read once. One read
  // buffer serves the whole job: a fresh one per read cost a page fault per 4 KiB on
  // this VM (about 70 MB of the large bench archive), more than hashing does.
  const artifactHash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  const fd = openSync(job.file, 'r');
  let size = 0;
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      size += read;
      if (size > job.maxCompressedBytes) {
        throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the archive is larger than ${job.maxCompressedBytes} bytes compressed, the zotfile limit.`, {
          details: { limit: 'compressed', max: job.maxCompressedBytes },
        });
      }
      const view = buffer.subarray(0, read);
      artifactHash.update(view);
      decoder.decode(view, send);
    }
    decoder.finish(send);
  } finally {
    closeSync(fd);
  }
  post({ id: job.id, type: 'end', size, digest: formatDigest(artifactHash) });
}

// Only ever started by ZstdDecompressionWorker; importing this module elsewhere does nothing.
if (!isMainThread && parentPort !== null && (workerData as { kind?: unknown } | null)?.kind === 'zotbox-zstd') {
  const port = parentPort;
  port.on('message', (job: ZstdJob) => {
    try {
      runJob(job, port);
    } catch (thrown) {
      const isErrno = typeof (thrown as { code?: unknown } | null)?.code === 'string' && !(thrown instanceof ZotboxError);
      const error = isErrno ? fileSystemError('read', job.file, thrown) : toZotboxError(thrown);
      port.postMessage({ id: job.id, type: 'error', error: error.toWire() } satisfies ZstdWorkerMessage);
    }
  });
}
