// zstd through zstd-napi's low-level contexts, with fixed-size output buffers.
// Decoding never uses the one-shot decompress() (it allocates whatever size a
// frame header claims) nor DecompressStream (it ignores backpressure within a
// chunk): the caller sees output in bounded slices and can stop the moment a
// limit is passed. The decoder's window is capped at 2^23 (zot's 8 MiB).
import binding from 'zstd-napi/binding.js';
import { ZotboxError } from '../errors.js';
import { ZSTD_WINDOW_LOG_MAX } from './limits.js';

export { ZSTD_MAGIC } from './formats.js';

/** Output slice size: one zstd block plus header, the library's recommended streaming size. */
const OUTPUT_CHUNK = binding.dStreamOutSize();

/**
 * Streaming zstd encoder for packing: level 3 (zot's klauspost default is
 * roughly level 3), content checksum on, window well under the 8 MiB decoders
 * accept. Compression runs on libzstd's own worker threads, so it overlaps with
 * reading and hashing; the worker count is fixed (not the machine's core count)
 * because zstd's output is identical for any nbWorkers >= 1 but differs from
 * single-threaded mode, and a .zot's bytes must not depend on the machine.
 * `push` and `end` return compressed bytes as they become available.
 */
export class ZstdEncoder {
  private readonly context = new binding.CCtx();
  private readonly output = Buffer.allocUnsafe(binding.cStreamOutSize());

  constructor(level = 3) {
    this.context.setParameter(binding.CParameter.compressionLevel, level);
    this.context.setParameter(binding.CParameter.checksumFlag, 1);
    this.context.setParameter(binding.CParameter.windowLog, 21);
    this.context.setParameter(binding.CParameter.nbWorkers, 2);
  }

  push(input: Uint8Array): Buffer[] {
    return this.run(input, binding.EndDirective.continue);
  }

  end(): Buffer[] {
    return this.run(new Uint8Array(0), binding.EndDirective.end);
  }

  private run(input: Uint8Array, directive: binding.EndDirective): Buffer[] {
    const chunks: Buffer[] = [];
    let remaining = input;
    for (;;) {
      const [pending, produced, consumed] = this.context.compressStream2(this.output, remaining, directive);
      if (produced > 0) chunks.push(Buffer.from(this.output.subarray(0, produced)));
      remaining = remaining.subarray(consumed);
      const done = directive === binding.EndDirective.end ? pending === 0 : remaining.length === 0;
      if (done) return chunks;
    }
  }
}

/**
 * Streaming zstd decoder with a fixed-size output buffer. `decode` hands each
 * full buffer to `sink` and `finish` hands over the rest, then checks that the
 * last frame was complete (a truncated stream or a failed checksum is an error).
 * Decoding stops as soon as `sink` throws, so a limit check in the sink bounds
 * memory whatever the frame headers claim. With `ownedChunks`, every buffer
 * given to `sink` is fresh and may be kept or transferred; otherwise it is a
 * view of a reused buffer, valid only during the call.
 */
export class BoundedZstdDecoder {
  private readonly context = new binding.DCtx();
  private output: Buffer;
  private filled = 0;
  private frameComplete = true;

  constructor(private readonly options: { readonly ownedChunks?: boolean; readonly chunkSize?: number } = {}) {
    this.context.setParameter(binding.DParameter.windowLogMax, ZSTD_WINDOW_LOG_MAX);
    this.output = Buffer.allocUnsafe(options.chunkSize ?? OUTPUT_CHUNK);
  }

  decode(input: Uint8Array, sink: (chunk: Buffer) => void): void {
    let remaining = input;
    for (;;) {
      let result: [number, number, number];
      try {
        result = this.context.decompressStream(this.output.subarray(this.filled), remaining);
      } catch (cause) {
        throw new ZotboxError('ZB_ARCHIVE_CORRUPT', `the zstd stream is corrupt: ${(cause as Error).message}. Re-download or re-pack the archive.`, {
          cause,
        });
      }
      const [hint, produced, consumed] = result;
      remaining = remaining.subarray(consumed);
      this.filled += produced;
      this.frameComplete = hint === 0;
      const outputFull = this.filled === this.output.length;
      if (outputFull) {
        this.emit(sink);
        // A frame that ended exactly at the buffer's end has nothing left to flush. Calling
        // again would start the next frame and report its header hint as "incomplete".
        if (remaining.length === 0 && hint === 0) return;
      }
      // With room left in the output, the decoder has flushed all it can from this input.
      else if (remaining.length === 0) return;
      else if (consumed === 0 && produced === 0) {
        throw new ZotboxError('ZB_ARCHIVE_CORRUPT', 'the zstd stream made no progress; it is corrupt. Re-download or re-pack the archive.');
      }
    }
  }

  /** Call after the last input: hands over what is left, and rejects a frame cut short. */
  finish(sink: (chunk: Buffer) => void): void {
    if (this.filled > 0) this.emit(sink);
    if (!this.frameComplete) {
      throw new ZotboxError('ZB_ARCHIVE_CORRUPT', 'the zstd stream ends in the middle of a frame: the archive is truncated. Re-download or re-pack it.');
    }
  }

  private emit(sink: (chunk: Buffer) => void): void {
    const chunk = this.output.subarray(0, this.filled);
    this.filled = 0;
    if (this.options.ownedChunks === true) this.output = Buffer.allocUnsafe(this.output.length);
    sink(chunk);
  }
}
