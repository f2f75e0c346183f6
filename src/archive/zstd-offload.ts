// Decompresses a large .zot in a worker thread while the caller parses and
// hashes on its own thread: the two halves of a load overlap. Chunks arrive
// owned (transferred), so the consumer may keep views of them without copying.
// Small archives are not worth a thread's start-up time; see OFFLOAD_THRESHOLD.
import { Worker } from 'node:worker_threads';
import { ZotboxError, fromWireError } from '../errors.js';
import { createHash } from 'node:crypto';
import { formatDigest, type Digest } from './digest.js';

/** How many decoded chunks (4 MiB each) the worker may run ahead of the consumer: 32 MiB of lookahead at most. */
export const MAX_IN_FLIGHT = 8;
export const CONTROL_IN_FLIGHT = 0;
export const CONTROL_STOP = 1;

export interface ZstdWorkerInput {
  readonly kind: 'zotbox-zstd';
  readonly file: string;
  readonly maxCompressedBytes: number;
  readonly control: SharedArrayBuffer;
}

export type ZstdWorkerMessage =
  | { readonly type: 'data'; readonly chunk: Uint8Array }
  | { readonly type: 'compressed'; readonly chunk: Uint8Array }
  | { readonly type: 'end'; readonly size: number }
  | { readonly type: 'error'; readonly error: { code: string; message: string; details?: unknown } };

/** Compressed size from which a worker pays for itself (its start-up costs a few milliseconds). */
export const OFFLOAD_THRESHOLD = 4 * 1024 * 1024;

export async function decodeFileInWorker(
  file: string,
  maxCompressedBytes: number,
  onChunk: (chunk: Buffer) => void,
  signal: AbortSignal | undefined,
): Promise<{ digest: Digest; size: number }> {
  const artifactHash = createHash('sha256');
  const control = new SharedArrayBuffer(8);
  const flags = new Int32Array(control);
  const worker = new Worker(new URL('./zstd-worker.js', import.meta.url), {
    workerData: { kind: 'zotbox-zstd', file, maxCompressedBytes, control } satisfies ZstdWorkerInput,
    // The embedding process's flags (--input-type, --eval, loaders) must not leak into this worker.
    execArgv: [],
  });
  const stop = () => {
    Atomics.store(flags, CONTROL_STOP, 1);
    Atomics.notify(flags, CONTROL_IN_FLIGHT);
  };
  try {
    return await new Promise((resolve, reject) => {
      const fail = (error: unknown) => {
        stop();
        reject(error);
      };
      const cancelled = () => fail(new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'loading the agent was cancelled.'));
      if (signal?.aborted === true) cancelled();
      signal?.addEventListener('abort', cancelled, { once: true });
      worker.on('message', (message: ZstdWorkerMessage) => {
        if (message.type === 'data') {
          try {
            onChunk(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
          } catch (error) {
            fail(error);
            return;
          }
          Atomics.sub(flags, CONTROL_IN_FLIGHT, 1);
          Atomics.notify(flags, CONTROL_IN_FLIGHT);
        } else if (message.type === 'compressed') artifactHash.update(message.chunk);
        else if (message.type === 'end') resolve({ digest: formatDigest(artifactHash), size: message.size });
        else fail(fromWireError(message.error));
      });
      worker.on('error', (error) => fail(new ZotboxError('ZB_INTERNAL_BUG', `the decompression worker failed: ${error.message}`, { cause: error })));
      worker.on('exit', (code) => fail(new ZotboxError('ZB_INTERNAL_BUG', `the decompression worker exited early (status ${code}).`)));
    });
  } finally {
    stop();
    await worker.terminate();
  }
}
