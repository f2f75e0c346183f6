// The depth and size limits of port messages (docs/permissions.md, "Message
// limits"): stated by hand, measured on hand-built values, including values too
// deep for any recursive walk.
import test from 'ava';
import { MAX_MESSAGE_BYTES, MAX_WRITE_CONTENT_BYTES, MESSAGE_LIMITS, checkMessageLimits, findLimitViolation } from '../../src/policy/message-limits.js';
import { nestedArray, nestedObject } from '../fixtures/direct-port.js';

const toolCall = (input: unknown) => ({ type: 'tool.call', id: 1, tool: 'read', input });
const gate = MESSAGE_LIMITS.gate;

test('a tool input may nest 64 arrays and objects, itself included; 65 is refused', (t) => {
  // The input object is level 1, so its value may nest 63 more.
  t.is(findLimitViolation(toolCall({ path: nestedArray(63) }), gate), undefined);
  t.is(findLimitViolation(toolCall({ path: nestedObject(63) }), gate), undefined);
  t.like(findLimitViolation(toolCall({ path: nestedArray(64) }), gate), { limit: 'depth', maxDepth: 65 });
  t.like(findLimitViolation(toolCall({ path: nestedObject(64) }), gate), { limit: 'depth', maxDepth: 65 });
  // Scalars add no level.
  t.is(findLimitViolation(toolCall(nestedObject(64)), gate), undefined);
});

test('the same input depth is allowed in every message that carries a tool input', (t) => {
  const input = nestedObject(64);
  const block = { type: 'tool_use', id: 't', name: 'read', input };
  const turn = { content: [block], stop: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } };
  t.is(findLimitViolation(turn, MESSAGE_LIMITS.modelTurn), undefined);
  t.is(findLimitViolation({ type: 'model.response', id: 1, ok: true, turn }, MESSAGE_LIMITS.modelResponse), undefined);
  t.is(findLimitViolation({ type: 'message', message: { role: 'assistant', content: [block] } }, MESSAGE_LIMITS.sessionLine), undefined);
  const request = { type: 'model.request', id: 1, system: 's', messages: [{ role: 'assistant', content: [block] }], tools: [] };
  t.is(findLimitViolation(request, MESSAGE_LIMITS.modelRequest), undefined);
  const deeper = { ...block, input: { a: input } };
  t.like(findLimitViolation({ ...turn, content: [deeper] }, MESSAGE_LIMITS.modelTurn), { limit: 'depth' });
  t.like(findLimitViolation({ ...request, messages: [{ role: 'assistant', content: [deeper] }] }, MESSAGE_LIMITS.modelRequest), { limit: 'depth' });
});

test('5,000-deep arrays and objects are refused without overflowing the stack, and the error names the limit and the place', (t) => {
  for (const deep of [nestedArray(5000), nestedObject(5000)]) {
    const error = checkMessageLimits(toolCall(deep), gate, 'the read call');
    t.is(error?.code, 'ZB_GATE_INVALID_MESSAGE');
    t.deepEqual(error?.details, { limit: 'depth', maxDepth: 64, at: 'input' });
    t.regex(error!.message, /more than 64 levels deep \(at input\)/);
  }
  const turn = { content: [{ type: 'tool_use', id: 't', name: 'read', input: { x: nestedArray(5000) } }], stop: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } };
  t.like(checkMessageLimits(turn, MESSAGE_LIMITS.modelTurn, "the model's turn")?.details, { limit: 'depth', at: 'content.0.input' });
});

test('a cycle is refused by the depth limit instead of looping', (t) => {
  const loop: Record<string, unknown> = {};
  loop['self'] = loop;
  t.like(findLimitViolation(toolCall(loop), gate), { limit: 'depth' });
});

test('a wide, shallow object within the size limit passes; its keys count towards the size', (t) => {
  const wide: Record<string, number> = {};
  for (let i = 0; i < 200_000; i++) wide[`k${i}`] = i;
  t.is(findLimitViolation(toolCall(wide), gate), undefined);
  // Each 1,000-byte key and its number cost 1,008 bytes: 64 of them pass a 65,000-byte limit, 65 do not.
  const keyed = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [String(i).padStart(1000, 'k'), 0]));
  const small = { envelopeDepth: 1, maxBytes: 65_000 };
  t.is(findLimitViolation(keyed(64), small), undefined);
  t.like(findLimitViolation(keyed(65), small), { limit: 'size', maxBytes: 65_000 });
});

test('a wide array past the size limit is refused', (t) => {
  // 8 bytes per number: this many numbers alone exceed the limit.
  const numbers = new Array(Math.floor(MAX_MESSAGE_BYTES / 8) + 1).fill(0);
  t.like(checkMessageLimits(toolCall({ path: 'a', numbers }), gate, 'the read call')?.details, { limit: 'size', maxBytes: MAX_MESSAGE_BYTES });
});

test('the largest write passes; a string past the message size is refused', (t) => {
  const largestWrite = { type: 'tool.call', id: 1, tool: 'write', input: { path: 'p'.repeat(4096), content: 'x'.repeat(MAX_WRITE_CONTENT_BYTES) } };
  t.is(findLimitViolation(largestWrite, gate), undefined);
  const error = checkMessageLimits(toolCall({ path: 'x'.repeat(MAX_MESSAGE_BYTES + 1) }), gate, 'the read call');
  t.deepEqual(error?.details, { limit: 'size', maxBytes: 65 * 1024 * 1024 });
  t.regex(error!.message, /larger than the message size limit of 68157440 bytes/);
});

test('strings count their UTF-8 bytes, not their UTF-16 length', (t) => {
  const small = { envelopeDepth: 1, maxBytes: 1000 };
  // "é" is one UTF-16 unit and two UTF-8 bytes; the object and its key cost 8 + 1 more.
  t.is(findLimitViolation({ k: 'é'.repeat(495) }, small), undefined);
  t.like(findLimitViolation({ k: 'é'.repeat(496) }, small), { limit: 'size' });
  t.like(findLimitViolation({ k: '😀'.repeat(250) }, small), { limit: 'size' }, 'four bytes per surrogate pair');
  // Short strings, which are counted without Buffer, count the same.
  const exact = (text: string, maxBytes: number) => [
    findLimitViolation({ k: text }, { envelopeDepth: 1, maxBytes }),
    findLimitViolation({ k: text }, { envelopeDepth: 1, maxBytes: maxBytes - 1 })?.limit,
  ];
  t.deepEqual(exact('é'.repeat(10), 9 + 20), [undefined, 'size']);
  t.deepEqual(exact('€'.repeat(10), 9 + 30), [undefined, 'size'], 'three bytes from U+0800');
  t.deepEqual(exact('😀'.repeat(5), 9 + 20), [undefined, 'size']);
  t.deepEqual(exact('a\ud800b', 9 + 5), [undefined, 'size'], 'a lone surrogate as the three bytes of U+FFFD');
  t.deepEqual(exact('é'.repeat(1000), 9 + 2000), [undefined, 'size']);
});

test('a shared value counts every time it appears, as it would when written out', (t) => {
  let value: unknown = 'x'.repeat(100);
  for (let i = 0; i < 30; i++) value = [value, value]; // 31 levels, 2^30 copies of the string
  t.like(findLimitViolation(toolCall(value), gate), { limit: 'size' });
});

test('maps, sets and binary data are measured like the arrays they resemble', (t) => {
  const small = { envelopeDepth: 1, maxBytes: 1000 };
  t.like(findLimitViolation({ m: new Map([['k', 'x'.repeat(1000)]]) }, small), { limit: 'size' });
  t.like(findLimitViolation({ s: new Set(['x'.repeat(1000)]) }, small), { limit: 'size' });
  t.like(findLimitViolation({ b: new Uint8Array(1000) }, small), { limit: 'size' });
  t.like(findLimitViolation({ m: new Map([['k', nestedArray(100)]]) }, small), { limit: 'depth' });
  t.is(findLimitViolation({ m: new Map([['k', 'v']]), s: new Set([1]), b: new Uint8Array(10) }, small), undefined);
});
