// zstd through zstd-napi's low-level contexts, with fixed-size output buffers.
// Decoding never uses the one-shot decompress() (it allocates whatever size a
// frame header claims) nor DecompressStream (it ignores backpressure within a
// chunk): the caller sees output in bounded slices and can stop the moment a
// limit is passed. The decoder's window is capped at 2^23 (zot's 8 MiB).
import binding from 'zstd-napi/binding.js';
import { ZotboxError } from '../errors.js';
import { ZSTD_WINDOW_LOG_MAX } from './limits.js';

export const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** Output slice size: one zstd block plus header, the library's recommended streaming size. */
const OUTPUT_CHUNK = binding.dStreamOutSize();

/**
 * Streaming zstd encoder for packing: level 3 (zot's klauspost default is
 * roughly level 3), content checksum on, window well under the 8 MiB decoders
 * accept. `push` and `end` return compressed bytes as they become available.
 */
export class ZstdEncoder {
  private readonly context = new binding.CCtx();
  private readonly output = Buffer.allocUnsafe(binding.cStreamOutSize());

  constructor(level = 3) {
    this.context.setParameter(binding.CParameter.compressionLevel, level);
    this.context.setParameter(binding.CParameter.checksumFlag, 1);
    this.context.setParameter(binding.CParameter.windowLog, 21);
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
 * Streaming zstd decoder with a fixed output buffer. `decode` calls `sink` with
 * each decoded slice (a view valid only during the call) and stops as soon as
 * `sink` throws. Concatenated frames are accepted; at the end the last frame must
 * be complete, so a truncated stream or a failed checksum is an error.
 */
export class BoundedZstdDecoder {
  private readonly context = new binding.DCtx();
  private readonly output = Buffer.allocUnsafe(OUTPUT_CHUNK);
  private frameComplete = true;

  constructor() {
    this.context.setParameter(binding.DParameter.windowLogMax, ZSTD_WINDOW_LOG_MAX);
  }

  decode(input: Uint8Array, sink: (slice: Buffer) => void): void {
    let remaining = input;
    while (remaining.length > 0) {
      let result: [number, number, number];
      try {
        result = this.context.decompressStream(this.output, remaining);
      } catch (cause) {
        throw new ZotboxError('ZB_ARCHIVE_CORRUPT', `the zstd stream is corrupt: ${(cause as Error).message}. Re-download or re-pack the archive.`, {
          cause,
        });
      }
      const [hint, produced, consumed] = result;
      remaining = remaining.subarray(consumed);
      this.frameComplete = hint === 0;
      if (produced > 0) sink(this.output.subarray(0, produced));
      // The decoder may hold decoded bytes it could not fit in the output buffer:
      // keep draining with no new input until it produces nothing more.
      if (produced === this.output.length) {
        this.drain(sink);
      } else if (consumed === 0 && produced === 0) {
        throw new ZotboxError('ZB_ARCHIVE_CORRUPT', 'the zstd stream made no progress; it is corrupt. Re-download or re-pack the archive.');
      }
    }
  }

  private drain(sink: (slice: Buffer) => void): void {
    for (;;) {
      const [hint, produced] = this.context.decompressStream(this.output, new Uint8Array(0));
      this.frameComplete = hint === 0;
      if (produced > 0) sink(this.output.subarray(0, produced));
      if (produced < this.output.length) return;
    }
  }

  /** Call after the last input: a frame cut short is a truncated archive. */
  finish(): void {
    if (!this.frameComplete) {
      throw new ZotboxError('ZB_ARCHIVE_CORRUPT', 'the zstd stream ends in the middle of a frame: the archive is truncated. Re-download or re-pack it.');
    }
  }
}
