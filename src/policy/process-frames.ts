// The pool-process protocol (issue 26 §3): the same gate and model port messages
// a worker thread exchanges over its MessagePorts, carried between the host and a
// pool process over a pipe as length-prefixed JSON frames, each tagged with its
// run and port. Pure: no I/O. A frame is bounded before it is buffered whole, and
// the host validates every frame from a process (ChildFrameSchema) before the
// message inside reaches the port, whose own limits and schemas then apply.
import { z } from 'zod';
import { ZotboxError } from '../errors.js';
import { WireErrorSchema } from './gate-protocol.js';
import { MAX_CONVERSATION_BYTES } from './message-limits.js';

/**
 * The largest frame, in bytes: the largest port message (a conversation at its
 * limit) with room for JSON's escapes, below the longest string V8 can hold
 * (a frame is decoded as one string). A longer length prefix is a broken
 * protocol, never a message.
 */
export const MAX_FRAME_BYTES = Math.min(2 * MAX_CONVERSATION_BYTES, 500 * 1024 * 1024);
const HEADER_BYTES = 4;

const RunId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const PortNameSchema = z.enum(['gate', 'model']);
export type PortName = z.infer<typeof PortNameSchema>;

/** What a pool process may send the host. `message` is checked by the port's own handler, as from a thread. */
export const ChildFrameSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('process.ready') }),
  z.strictObject({ type: z.literal('port.message'), run: RunId, port: PortNameSchema, message: z.unknown() }),
  z.strictObject({ type: z.literal('port.close'), run: RunId, port: PortNameSchema }),
  z.strictObject({ type: z.literal('task.end'), run: RunId, result: z.unknown() }),
  z.strictObject({ type: z.literal('task.failed'), run: RunId, message: z.string().max(4096) }),
]);
export type ChildFrame = z.infer<typeof ChildFrameSchema>;

/** What the host sends a pool process: a task (its data, without ports), and the port traffic of its runs. */
export type HostFrame =
  | { readonly type: 'task.start'; readonly run: number; readonly task: Record<string, unknown>; readonly ports: readonly PortName[] }
  | { readonly type: 'port.message'; readonly run: number; readonly port: PortName; readonly message: unknown }
  | { readonly type: 'port.close'; readonly run: number; readonly port: PortName };

/** One frame: a 4-byte big-endian length, then the value as UTF-8 JSON. Throws ZB_GATE_INVALID_MESSAGE when it would pass the bound. */
export function encodeFrame(value: unknown): Buffer {
  const text = JSON.stringify(value);
  const length = Buffer.byteLength(text, 'utf8');
  if (length > MAX_FRAME_BYTES) {
    throw new ZotboxError(
      'ZB_GATE_INVALID_MESSAGE',
      `a message between the host and a pool process would be ${length} bytes as JSON, over the frame limit of ${MAX_FRAME_BYTES}. Fix: send less at once.`,
      {
        details: { limit: 'size', maxBytes: MAX_FRAME_BYTES },
      },
    );
  }
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(text, HEADER_BYTES, 'utf8');
  return frame;
}

/**
 * Splits a byte stream into frames and parses each. A length over the bound or a
 * frame that is not JSON is a broken stream: `push` throws, and the caller ends
 * the stream's process. Nothing is buffered past one frame's declared length.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The length of the frame being received, once its header is in. */
  private expected: number | undefined;

  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const values: unknown[] = [];
    for (;;) {
      if (this.expected === undefined) {
        if (this.buffered < HEADER_BYTES) return values;
        const length = this.take(HEADER_BYTES).readUInt32BE(0);
        if (length > MAX_FRAME_BYTES) throw new ZotboxError('ZB_GATE_INVALID_MESSAGE', `a pool process frame declares ${length} bytes, over the frame limit of ${MAX_FRAME_BYTES}.`);
        this.expected = length;
      }
      // Joined once, when the whole frame is in: a large frame arriving in many chunks is copied once.
      if (this.buffered < this.expected) return values;
      const body = this.take(this.expected);
      this.expected = undefined;
      try {
        values.push(JSON.parse(body.toString('utf8')));
      } catch (cause) {
        throw new ZotboxError('ZB_GATE_INVALID_MESSAGE', `a pool process frame is not JSON (${(cause as Error).message}).`, { cause });
      }
    }
  }

  /** Removes and returns the first `count` buffered bytes. */
  private take(count: number): Buffer {
    const joined = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
    const rest = joined.subarray(count);
    this.chunks = rest.length === 0 ? [] : [rest];
    this.buffered -= count;
    return joined.subarray(0, count);
  }
}

/** The agent task's result as a pool process reports it (worker/pool-task.ts AgentTaskOutcome), checked before the host believes it. */
export const TaskOutcomeSchema = z.strictObject({
  status: z.enum(['completed', 'max_turns', 'cancelled', 'failed', 'refused', 'content_filtered']),
  finalText: z.string(),
  turns: z.number().int().min(0),
  messages: z.number().int().min(0),
  error: WireErrorSchema.optional(),
});
