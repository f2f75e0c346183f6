// The Anthropic stream decoder, event by event: what reaches onText and when,
// started/complete/partialText, and the codes and details of each failure. The
// whole-stream cases (and the SDK's view of them) are in anthropic-differential.test.ts.
import test from 'ava';
import type { ZotboxError } from '../../../src/errors.js';
import { AnthropicStreamDecoder } from '../../../src/host/providers/anthropic-stream.js';
import { AssistantTurnSchema } from '../../../src/policy/model-protocol.js';
import { ANTHROPIC_STREAM_CASES } from '../../fixtures/streams/anthropic-corpus.js';
import { decodeAnthropicStream } from '../../fixtures/streams/anthropic-decode.js';

/** A decoder for claude-sonnet-4-5 (200,000 tokens) and the text it showed, delta by delta. */
function decoder() {
  const shown: string[] = [];
  const decoder = new AnthropicStreamDecoder({ model: 'claude-sonnet-4-5', contextWindow: 200_000, onText: (delta) => shown.push(delta) });
  const push = (type: string, fields: Record<string, unknown> = {}) => decoder.push({ event: type, data: JSON.stringify({ type, ...fields }) });
  return { decoder, shown, push };
}

const START = { message: { id: 'msg_01', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 10, output_tokens: 1 } } };
const textStart = (index: number) => ({ index, content_block: { type: 'text', text: '' } });
const textDelta = (index: number, text: string) => ({ index, delta: { type: 'text_delta', text } });
const toolStart = (index: number, id = 'toolu_01', name = 'read') => ({ index, content_block: { type: 'tool_use', id, name, input: {} } });
const jsonDelta = (index: number, partial_json: string) => ({ index, delta: { type: 'input_json_delta', partial_json } });
const stopWith = (stop_reason: string | null) => ({ delta: { stop_reason }, usage: { output_tokens: 5 } });

test('text deltas reach onText as they arrive, before the stream ends', (t) => {
  const { decoder: d, shown, push } = decoder();
  push('message_start', START);
  push('content_block_start', textStart(0));
  push('content_block_delta', textDelta(0, 'Hel'));
  t.deepEqual(shown, ['Hel']);
  push('content_block_delta', textDelta(0, 'lo'));
  t.deepEqual(shown, ['Hel', 'lo']);
  t.is(d.partialText, 'Hello');
});

test('text given in content_block_start is shown too', (t) => {
  const { shown, push } = decoder();
  push('message_start', START);
  push('content_block_start', { index: 0, content_block: { type: 'text', text: 'Hi' } });
  t.deepEqual(shown, ['Hi']);
});

test('thinking text never reaches onText', (t) => {
  const { decoder: d, shown, push } = decoder();
  push('message_start', START);
  push('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: 'hmm', signature: '' } });
  push('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'private' } });
  push('content_block_stop', { index: 0 });
  t.deepEqual(shown, []);
  t.is(d.partialText, '');
});

test('started: not at message_start, yes at the first content block of any type', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  t.false(d.started);
  push('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  t.true(d.started);
});

test('started: a tool call with no text is output that began', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('content_block_start', toolStart(0));
  t.true(d.started);
});

test('complete: only once message_stop arrives', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('message_delta', stopWith('end_turn'));
  t.false(d.complete);
  push('message_stop');
  t.true(d.complete);
});

test('events after message_stop are not read', (t) => {
  const { decoder: d, shown, push } = decoder();
  push('message_start', START);
  push('message_delta', stopWith('end_turn'));
  push('message_stop');
  push('content_block_start', { index: 0, content_block: { type: 'text', text: 'late' } });
  push('message_start', START);
  t.deepEqual(shown, []);
  t.deepEqual(d.finish(), { content: [], stop: 'end', usage: { input_tokens: 10, output_tokens: 5 } });
});

test('partialText keeps the text shown when the stream then breaks', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('content_block_start', textStart(0));
  push('content_block_delta', textDelta(0, 'half an ans'));
  t.is(t.throws<ZotboxError>(() => d.finish()).code, 'ZB_PROVIDER_INTERRUPTED');
  t.is(d.partialText, 'half an ans');
});

test('a null stop_reason is "not yet": a body that ends there was interrupted', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('message_delta', stopWith(null));
  t.is(t.throws<ZotboxError>(() => d.finish()).code, 'ZB_PROVIDER_INTERRUPTED');
});

test('model_context_window_exceeded names the model and its window', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('message_delta', stopWith('model_context_window_exceeded'));
  push('message_stop');
  const error = t.throws<ZotboxError>(() => d.finish());
  t.is(error.code, 'ZB_MODEL_CONTEXT_EXCEEDED');
  t.deepEqual(error.details, { model: 'claude-sonnet-4-5', contextWindow: 200_000 });
  t.true(error.message.includes("claude-sonnet-4-5's context window (200,000 tokens)"));
});

test('an unknown stop_reason is refused when it arrives, naming it', (t) => {
  const { push } = decoder();
  push('message_start', START);
  const error = t.throws<ZotboxError>(() => push('message_delta', stopWith('overthinking')));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.deepEqual(error.details, { stopReason: 'overthinking' });
});

test('a stop_reason named like an Object.prototype member is unknown, not a lookup hit', (t) => {
  const { push } = decoder();
  push('message_start', START);
  t.is(t.throws<ZotboxError>(() => push('message_delta', stopWith('constructor'))).code, 'ZB_PROVIDER_FAILED');
});

test('an error event carries its type, and retryable for overloaded_error', (t) => {
  const { push } = decoder();
  push('message_start', START);
  const error = t.throws<ZotboxError>(() => push('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.deepEqual(error.details, { errorType: 'overloaded_error', retryable: true });
  t.true(error.message.includes('overloaded_error: Overloaded'));
});

test('an error event for a rate limit is not marked retryable (only overloaded_error and api_error are)', (t) => {
  const { push } = decoder();
  const error = t.throws<ZotboxError>(() => push('error', { error: { type: 'rate_limit_error', message: 'slow down' } }));
  t.deepEqual(error.details, { errorType: 'rate_limit_error', retryable: false });
});

test('an error event whose data is not JSON still fails the turn, quoting it', (t) => {
  const { decoder: d } = decoder();
  const error = t.throws<ZotboxError>(() => d.push({ event: 'error', data: 'upstream connect error' }));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.deepEqual(error.details, { errorType: 'unknown_error', retryable: false });
  t.true(error.message.includes('upstream connect error'));
});

test('a ping whose data is not JSON, and an event with empty data, are skipped', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  d.push({ event: 'ping', data: 'ping' });
  d.push({ event: 'message', data: '' });
  push('message_delta', stopWith('end_turn'));
  push('message_stop');
  t.is(d.finish().stop, 'end');
});

test('message_stop without a stop_reason before it is refused', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('message_stop');
  t.is(t.throws<ZotboxError>(() => d.finish()).code, 'ZB_PROVIDER_FAILED');
});

test('a tool call never stopped, in a finished answer that did not stop at max_tokens, is refused', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('content_block_start', toolStart(0));
  push('content_block_delta', jsonDelta(0, '{"path": "a"}'));
  push('message_delta', stopWith('tool_use'));
  push('message_stop');
  t.is(t.throws<ZotboxError>(() => d.finish()).code, 'ZB_PROVIDER_FAILED');
});

test('a tool call never stopped, in an answer cut off at max_tokens, is dropped', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('content_block_start', toolStart(0));
  push('content_block_delta', jsonDelta(0, '{"path": "a"}'));
  push('message_delta', stopWith('max_tokens'));
  push('message_stop');
  t.deepEqual(d.finish(), { content: [], stop: 'max_tokens', usage: { input_tokens: 10, output_tokens: 5 } });
});

test('tool input that is whole JSON but not an object is kept as unparsed arguments (for the gate to refuse), even at max_tokens', (t) => {
  const { decoder: d, push } = decoder();
  push('message_start', START);
  push('content_block_start', toolStart(0));
  push('content_block_delta', jsonDelta(0, '"a string"'));
  push('content_block_stop', { index: 0 });
  push('message_delta', stopWith('max_tokens'));
  push('message_stop');
  t.deepEqual(
    d.finish().content.map((block) => (block.type === 'tool_use' ? block.input : block.text)),
    [{ zotbox_unparsed_arguments: '"a string"' }],
  );
});

const refusedEvent = test.macro({
  exec(t, events: readonly [string, Record<string, unknown>][]) {
    const { push } = decoder();
    push('message_start', START);
    const last = events.length - 1;
    events.slice(0, last).forEach(([type, fields]) => push(type, fields));
    const [type, fields] = events[last]!;
    t.is(t.throws<ZotboxError>(() => push(type, fields)).code, 'ZB_PROVIDER_FAILED');
  },
  title: (name = '') => `refused as data the API never sends: ${name}`,
});

test('a second content_block_start for one index', refusedEvent, [
  ['content_block_start', textStart(0)],
  ['content_block_start', textStart(0)],
]);
test('a delta after the block stopped', refusedEvent, [
  ['content_block_start', textStart(0)],
  ['content_block_stop', { index: 0 }],
  ['content_block_delta', textDelta(0, 'late')],
]);
test('a second content_block_stop', refusedEvent, [
  ['content_block_start', textStart(0)],
  ['content_block_stop', { index: 0 }],
  ['content_block_stop', { index: 0 }],
]);
test('a text_delta for a tool_use block', refusedEvent, [
  ['content_block_start', toolStart(0)],
  ['content_block_delta', textDelta(0, 'x')],
]);
test('an input_json_delta for a text block', refusedEvent, [
  ['content_block_start', textStart(0)],
  ['content_block_delta', jsonDelta(0, '{}')],
]);
test('a tool_use without an id', refusedEvent, [['content_block_start', { index: 0, content_block: { type: 'tool_use', name: 'read', input: {} } }]]);
test('a tool_use whose name is longer than 256 characters', refusedEvent, [['content_block_start', toolStart(0, 'toolu_01', 'r'.repeat(257))]]);
test('a tool_use whose start input is not an object', refusedEvent, [['content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_01', name: 'read', input: '{}' } }]]);
test('a negative block index', refusedEvent, [['content_block_start', textStart(-1)]]);
test('usage counts that are not whole numbers', refusedEvent, [['message_delta', { delta: { stop_reason: null }, usage: { output_tokens: 'many' } }]]);
test('a stop_reason that is not a string', refusedEvent, [['message_delta', { delta: { stop_reason: 1 } }]]);

test('an event that is JSON null is refused', (t) => {
  const { decoder: d } = decoder();
  t.is(t.throws<ZotboxError>(() => d.push({ event: 'message', data: 'null' })).code, 'ZB_PROVIDER_FAILED');
});

test('every turn the corpus accepts is a valid turn of the model protocol', async (t) => {
  for (const streamCase of ANTHROPIC_STREAM_CASES) {
    const { turn } = await decodeAnthropicStream(streamCase.chunks);
    if (turn !== undefined) t.true(AssistantTurnSchema.safeParse(turn).success, streamCase.name);
  }
});

test('what onText showed is the text of the accepted turn, for every corpus case', async (t) => {
  for (const streamCase of ANTHROPIC_STREAM_CASES) {
    const { turn, shown } = await decodeAnthropicStream(streamCase.chunks);
    if (turn === undefined) continue;
    const text = turn.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    t.is(shown, text, streamCase.name);
  }
});
