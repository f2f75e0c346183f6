// Decompresses large .zot files in a worker thread while the caller parses and
// hashes the tar on its own thread, so the two halves of a load overlap; the
// worker reports the artifact digest of the bytes it decoded. Chunks arrive
// owned (transferred), so the consumer may keep views of them without copying.
// A ZstdDecompressionWorker is reusable: a long-lived host keeps one and saves
// the thread's start-up (about 30 ms) on every load; jobs run one at a time.
import { Worker } from 'node:worker_threads';
import { ZotboxError, fromWireError, toZotboxError } from '../errors.js';
import { isDigest, type Digest } from './digest.js';

/** How many decoded chunks (4 MiB each) the worker may run ahead of the consumer: 32 MiB of lookahead at most. */
export const MAX_IN_FLIGHT = 8;
export const CONTROL_IN_FLIGHT = 0;
export const CONTROL_STOP = 1;

export { OFFLOAD_THRESHOLD } from './formats.js';

export interface ZstdJob {
  readonly id: number;
  readonly file: string;
  readonly maxCompressedBytes: number;
  readonly control: SharedArrayBuffer;
}

export type ZstdWorkerMessage =
  | { readonly id: number; readonly type: 'data'; readonly chunk: Uint8Array }
  | { readonly id: number; readonly type: 'end'; readonly size: number; readonly digest: Digest }
  | { readonly id: number; readonly type: 'error'; readonly error: { code: string; message: string; details?: unknown } };

interface ActiveJob {
  readonly id: number;
  readonly onMessage: (message: ZstdWorkerMessage) => void;
  readonly onFailure: (error: ZotboxError) => void;
}

export class ZstdDecompressionWorker {
  private worker: Worker | undefined;
  private active: ActiveJob | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;

  /** Decodes `file`, calling `onChunk` with each owned decoded chunk, in order. Jobs queue behind each other. */
  decodeFile(file: string, maxCompressedBytes: number, onChunk: (chunk: Buffer) => void, signal?: AbortSignal): Promise<{ digest: Digest; size: number }> {
    const run = this.queue.then(() => this.runJob(file, maxCompressedBytes, onChunk, signal));
    this.queue = run.catch(() => undefined); // one job's failure does not fail the next
    return run;
  }

  /** Stops the thread. Pending jobs fail; the object cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.active?.onFailure(new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'the decompression worker was closed.'));
    if (worker !== undefined) await worker.terminate();
  }

  private startWorker(): Worker {
    const worker = new Worker(new URL('./zstd-worker.js', import.meta.url), {
      workerData: { kind: 'zotbox-zstd' },
      // The embedding process's flags (--input-type, --eval, loaders) must not leak into this worker.
      execArgv: [],
    });
    worker.unref(); // an idle worker must not keep the process alive
    worker.on('message', (message: ZstdWorkerMessage) => {
      if (this.active?.id === message.id) this.active.onMessage(message);
    });
    const died = (reason: string) => {
      if (this.worker === worker) this.worker = undefined;
      this.active?.onFailure(new ZotboxError('ZB_INTERNAL_BUG', `the decompression worker ${reason}. This is a bug in zotbox; please report it.`));
    };
    worker.on('error', (error) => died(`failed: ${error.message}`));
    worker.on('exit', (code) => died(`exited (status ${code})`));
    return worker;
  }

  private async runJob(file: string, maxCompressedBytes: number, onChunk: (chunk: Buffer) => void, signal: AbortSignal | undefined): Promise<{ digest: Digest; size: number }> {
    if (this.closed) throw new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'the decompression worker was closed.');
    const worker = (this.worker ??= this.startWorker());
    const control = new SharedArrayBuffer(8);
    const flags = new Int32Array(control);
    const stop = () => {
      Atomics.store(flags, CONTROL_STOP, 1);
      Atomics.notify(flags, CONTROL_IN_FLIGHT);
    };
    const id = this.nextId++;
    worker.ref(); // a job in progress keeps the process alive
    try {
      return await new Promise((resolve, reject) => {
        let settled = false;
        const fail = (error: unknown) => {
          stop();
          // onChunk is the caller's code and may throw a non-Error; the promise still rejects with an Error.
          if (!settled) reject(error instanceof Error ? error : toZotboxError(error));
          settled = true;
        };
        const cancelled = () => fail(new ZotboxError('ZB_ARCHIVE_INTERRUPTED', 'loading the agent was cancelled.'));
        // A job cancelled before it starts never reaches the worker.
        if (signal?.aborted === true) {
          cancelled();
          return;
        }
        signal?.addEventListener('abort', cancelled, { once: true });
        // After a failure the worker may still finish posting this job's messages; they are ignored.
        this.active = {
          id,
          onFailure: fail,
          onMessage: (message) => {
            if (settled) return;
            if (message.type === 'data') {
              try {
                onChunk(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
              } catch (error) {
                fail(error);
                return;
              }
              Atomics.sub(flags, CONTROL_IN_FLIGHT, 1);
              Atomics.notify(flags, CONTROL_IN_FLIGHT);
            } else if (message.type === 'end') {
              if (!isDigest(message.digest)) {
                fail(new ZotboxError('ZB_INTERNAL_BUG', 'the decompression worker reported a malformed artifact digest. This is a bug in zotbox; please report it.'));
                return;
              }
              settled = true;
              resolve({ digest: message.digest, size: message.size });
            } else fail(fromWireError(message.error));
          },
        };
        worker.postMessage({ id, file, maxCompressedBytes, control } satisfies ZstdJob);
      });
    } finally {
      stop();
      this.active = undefined;
      worker.unref();
      // A job that failed mid-stream leaves the worker busy until it sees the stop flag; the
      // next job waits in the worker's message queue, and stale messages carry the old id.
    }
  }
}

/** Decodes one file in a worker started for it, for one-shot callers such as the CLI. */
export async function decodeFileInWorker(file: string, maxCompressedBytes: number, onChunk: (chunk: Buffer) => void, signal: AbortSignal | undefined): Promise<{ digest: Digest; size: number }> {
  const worker = new ZstdDecompressionWorker();
  try {
    return await worker.decodeFile(file, maxCompressedBytes, onChunk, signal);
  } finally {
    // The result does not depend on the thread's exit (10-20 ms here), so the caller does not wait for it.
    // terminate() only ever resolves with the exit code: there is nothing to report.
    worker.close().catch(() => undefined);
  }
}
