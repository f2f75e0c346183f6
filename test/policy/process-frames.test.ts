// The pool-process frames: values round-trip in any chunking, and a stream that
// declares a frame over the bound, or sends one that is not JSON, is refused
// before anything more is buffered.
import test from 'ava';
import { constants } from 'node:buffer';
import { MAX_CONVERSATION_BYTES } from '../../src/policy/message-limits.js';
import { FrameDecoder, MAX_FRAME_BYTES, encodeFrame } from '../../src/policy/process-frames.js';

test('frames round-trip, whole or split at every byte, several in one chunk', (t) => {
  const values = [{ type: 'port.message', run: 1, port: 'gate', message: { type: 'tool.call', id: 1, tool: 'read', input: { path: 'ü 🦊' } } }, { type: 'process.ready' }, 'text', [1, null]];
  const stream = Buffer.concat(values.map((value) => encodeFrame(value)));
  t.deepEqual(new FrameDecoder().push(stream), values, 'all in one chunk');
  const decoder = new FrameDecoder();
  const seen: unknown[] = [];
  for (let at = 0; at < stream.length; at++) seen.push(...decoder.push(stream.subarray(at, at + 1)));
  t.deepEqual(seen, values, 'one byte at a time');
});

test('a frame that declares more than the bound is refused from its header, before its body is buffered', (t) => {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
  t.throws(() => new FrameDecoder().push(header), { code: 'ZB_GATE_INVALID_MESSAGE' } as never);
  header.writeUInt32BE(MAX_FRAME_BYTES, 0);
  t.deepEqual(new FrameDecoder().push(header), [], 'a frame at the bound is waited for');
});

test('a frame that is not JSON is refused', (t) => {
  const body = Buffer.from('{"type":');
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  t.throws(() => new FrameDecoder().push(Buffer.concat([header, body])), { code: 'ZB_GATE_INVALID_MESSAGE' } as never);
});

test('the bound leaves room for the largest conversation a model request may carry, in a string V8 can hold', (t) => {
  t.true(MAX_FRAME_BYTES > MAX_CONVERSATION_BYTES);
  t.true(MAX_FRAME_BYTES <= constants.MAX_STRING_LENGTH);
});
