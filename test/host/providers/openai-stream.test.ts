// OpenAiStreamDecoder, one behaviour per test: chunks as OpenAI and compatible
// servers send them (events handed in directly; SSE framing is sse.test.ts's),
// the turn or error code expected stated by hand.
import test from 'ava';
import type { ZotboxError } from '../../../src/errors.js';
import type { AssistantTurn, StopReason } from '../../../src/policy/model-protocol.js';
import { OpenAiStreamDecoder } from '../../../src/host/providers/openai-stream.js';
import type { ServerSentEvent } from '../../../src/host/providers/sse.js';

/** An event given as it is (a type other than "message", or data that is not a JSON chunk). */
class Raw {
  constructor(readonly event: ServerSentEvent) {}
}
const raw = (data: string, event = 'message') => new Raw({ event, data });
type Input = Raw | Record<string, unknown>;

function decoder() {
  const texts: string[] = [];
  const decoder = new OpenAiStreamDecoder({ model: 'gpt-4.1', contextWindow: 1_047_576, onText: (delta) => texts.push(delta) });
  const feed = (inputs: readonly Input[]) => {
    for (const input of inputs) decoder.push(input instanceof Raw ? input.event : { event: 'message', data: JSON.stringify(input) });
  };
  return { decoder, texts, feed };
}

function decode(inputs: readonly Input[]): AssistantTurn {
  const { decoder: d, feed } = decoder();
  feed(inputs);
  return d.finish();
}

function failure(t: import('ava').ExecutionContext, inputs: readonly Input[]): ZotboxError {
  return t.throws<ZotboxError>(() => decode(inputs));
}

const delta = (d: Record<string, unknown>, finish_reason: string | null = null) => ({ choices: [{ index: 0, delta: d, finish_reason }] });
const finish = (reason: string) => ({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });
const DONE = raw('[DONE]');
const noUsage = { input_tokens: 0, output_tokens: 0 };
const call = (entry: Record<string, unknown>) => delta({ tool_calls: [entry] });

test('text deltas reach onText as they arrive and make one text block', (t) => {
  const { decoder: d, texts, feed } = decoder();
  feed([delta({ role: 'assistant', content: '' }), delta({ content: 'Hel' }), delta({ content: 'lo' }), finish('stop'), DONE]);
  t.deepEqual(texts, ['Hel', 'lo']);
  t.true(d.complete);
  t.deepEqual(d.finish(), { content: [{ type: 'text', text: 'Hello' }], stop: 'end', usage: noUsage });
});

test('a stream that ends after a finish reason without [DONE] is complete', (t) => {
  const { decoder: d, feed } = decoder();
  feed([delta({ content: 'hi' }), finish('stop')]);
  t.false(d.complete);
  t.deepEqual(d.finish(), { content: [{ type: 'text', text: 'hi' }], stop: 'end', usage: noUsage });
});

test('a stream that ends without a finish reason is interrupted, and keeps its partial text', (t) => {
  const { decoder: d, feed } = decoder();
  feed([delta({ content: 'half an ans' })]);
  t.is(d.partialText, 'half an ans');
  t.is(t.throws<ZotboxError>(() => d.finish()).code, 'ZB_PROVIDER_INTERRUPTED');
});

test('[DONE] without any finish reason is interrupted too', (t) => {
  t.is(failure(t, [delta({ content: 'x' }), DONE]).code, 'ZB_PROVIDER_INTERRUPTED');
});

test('events after [DONE] are ignored', (t) => {
  t.deepEqual(decode([delta({ content: 'a' }, 'stop'), DONE, delta({ content: 'b' }), raw('not json')]).content, [{ type: 'text', text: 'a' }]);
});

test('choices missing, null or [] are accepted', (t) => {
  t.deepEqual(decode([{ id: 'x' }, { choices: null }, { choices: [] }, delta({ content: 'a' }, 'stop')]).content, [{ type: 'text', text: 'a' }]);
});

test('a choice whose delta is missing or null is accepted', (t) => {
  const turn = decode([{ choices: [{ index: 0 }] }, { choices: [{ index: 0, delta: null }] }, { choices: [{ index: 0, finish_reason: 'stop' }] }]);
  t.deepEqual(turn, { content: [], stop: 'end', usage: noUsage });
});

test('a choice without index (or index null) is choice 0; other indexes are ignored', (t) => {
  const turn = decode([
    { choices: [{ delta: { content: 'a' } }] },
    { choices: [{ index: null, delta: { content: 'b' } }] },
    { choices: [{ index: 1, delta: { content: 'OTHER' } }] },
    {
      choices: [
        { index: 0, delta: { content: 'c' }, finish_reason: 'stop' },
        { index: 1, delta: { content: 'OTHER' }, finish_reason: 'stop' },
      ],
    },
  ]);
  t.deepEqual(turn.content, [{ type: 'text', text: 'abc' }]);
});

test('two entries for choice 0 in one chunk are refused', (t) => {
  t.is(failure(t, [{ choices: [{ delta: { content: 'a' } }, { index: 0, delta: { content: 'b' } }] }]).code, 'ZB_PROVIDER_FAILED');
});

test('tool calls without index continue by id, and an empty id continues the last call (Gemini)', (t) => {
  const turn = decode([
    call({ id: 'function-call-1', type: 'function', function: { name: 'read', arguments: '{"path":' } }),
    call({ id: '', type: '', function: { arguments: '"a.md"}' } }),
    call({ id: 'function-call-2', function: { name: 'read', arguments: '{"path":"b.md"}' } }),
    finish('stop'),
  ]);
  t.deepEqual(turn, {
    content: [
      { type: 'tool_use', id: 'function-call-1', name: 'read', input: { path: 'a.md' } },
      { type: 'tool_use', id: 'function-call-2', name: 'read', input: { path: 'b.md' } },
    ],
    stop: 'tool_use',
    usage: noUsage,
  });
});

test('tool calls without id get call_zb_<n> ids, unique in the turn (Ollama, llama.cpp)', (t) => {
  const turn = decode([
    call({ index: 0, function: { name: 'read', arguments: '{}' } }),
    call({ index: 1, id: null, function: { name: 'bash', arguments: '{"command":"ls"}' } }),
    call({ index: 2, id: '', function: { name: 'write', arguments: '{}' } }),
    finish('tool_calls'),
  ]);
  t.deepEqual(
    turn.content.map((b) => (b.type === 'tool_use' ? b.id : b.text)),
    ['call_zb_1', 'call_zb_2', 'call_zb_3'],
  );
  for (const block of turn.content) if (block.type === 'tool_use') t.regex(block.id, /^[a-zA-Z0-9_-]{1,40}$/);
});

test('an assigned id skips ids the server gave other calls', (t) => {
  const turn = decode([call({ index: 0, id: 'call_zb_1', function: { name: 'read', arguments: '{}' } }), call({ index: 1, function: { name: 'read', arguments: '{}' } }), finish('tool_calls')]);
  t.deepEqual(
    turn.content.map((b) => (b.type === 'tool_use' ? b.id : '')),
    ['call_zb_1', 'call_zb_2'],
  );
});

test('two calls the server gave the same id keep the first and give the second an assigned id', (t) => {
  const turn = decode([call({ index: 0, id: 'same', function: { name: 'read', arguments: '{}' } }), call({ index: 1, id: 'same', function: { name: 'bash', arguments: '{}' } }), finish('tool_calls')]);
  t.deepEqual(
    turn.content.map((b) => (b.type === 'tool_use' ? [b.id, b.name] : [])),
    [
      ['same', 'read'],
      ['call_zb_1', 'bash'],
    ],
  );
});

test('a server id longer than the protocol allows (256) is replaced by an assigned one', (t) => {
  const turn = decode([call({ index: 0, id: 'x'.repeat(257), function: { name: 'read', arguments: '{}' } }), finish('tool_calls')]);
  t.like(turn.content[0], { id: 'call_zb_1' });
});

test('index 0 reused with a different id is a new call (Ollama, LiteLLM Responses bridge)', (t) => {
  const turn = decode([
    call({ index: 0, id: 'call_a', function: { name: 'read', arguments: '{"path":"a"}' } }),
    call({ index: 0, id: 'call_b', function: { name: 'read', arguments: '{"path":' } }),
    call({ index: 0, function: { arguments: '"b"}' } }),
    finish('tool_calls'),
  ]);
  t.deepEqual(turn.content, [
    { type: 'tool_use', id: 'call_a', name: 'read', input: { path: 'a' } },
    { type: 'tool_use', id: 'call_b', name: 'read', input: { path: 'b' } },
  ]);
});

test('an index-less, id-less delta without a name continues the last call', (t) => {
  const turn = decode([call({ function: { name: 'bash', arguments: '{"com' } }), call({ function: { arguments: 'mand":"ls"}' } }), finish('tool_calls')]);
  t.deepEqual(turn.content, [{ type: 'tool_use', id: 'call_zb_1', name: 'bash', input: { command: 'ls' } }]);
});

test('separate entries of one chunk that carry names are separate calls, even with the same name', (t) => {
  const turn = decode([
    delta({
      tool_calls: [{ function: { name: 'read', arguments: '{"path":"a"}' } }, { function: { name: 'read', arguments: '{"path":"b"}' } }],
    }),
    finish('tool_calls'),
  ]);
  t.deepEqual(turn.content, [
    { type: 'tool_use', id: 'call_zb_1', name: 'read', input: { path: 'a' } },
    { type: 'tool_use', id: 'call_zb_2', name: 'read', input: { path: 'b' } },
  ]);
});

test('an index-less, id-less delta with another name starts a new call', (t) => {
  const turn = decode([call({ function: { name: 'read', arguments: '{}' } }), call({ function: { name: 'bash', arguments: '{}' } }), finish('tool_calls')]);
  t.deepEqual(
    turn.content.map((b) => (b.type === 'tool_use' ? b.name : '')),
    ['read', 'bash'],
  );
});

test('a function name repeated on every chunk is one name, with or without index', (t) => {
  const withIndex = decode([call({ index: 0, id: 'c1', function: { name: 'read', arguments: '' } }), call({ index: 0, function: { name: 'read', arguments: '{}' } }), finish('tool_calls')]);
  t.deepEqual(withIndex.content, [{ type: 'tool_use', id: 'c1', name: 'read', input: {} }]);
  const bare = decode([call({ function: { name: 'read', arguments: '{"pa' } }), call({ function: { name: 'read', arguments: 'th":"x"}' } }), finish('tool_calls')]);
  t.deepEqual(bare.content, [{ type: 'tool_use', id: 'call_zb_1', name: 'read', input: { path: 'x' } }]);
});

test('one call given two names under one id is refused', (t) => {
  t.is(failure(t, [call({ index: 0, id: 'c1', function: { name: 'read' } }), call({ index: 0, id: 'c1', function: { name: 'bash' } })]).code, 'ZB_PROVIDER_FAILED');
});

test('null in id, name, arguments, tool_calls, content, refusal, finish_reason, usage and its fields is absent', (t) => {
  const turn = decode([
    { choices: [{ index: 0, delta: { role: 'assistant', content: null, refusal: null, tool_calls: null }, finish_reason: null }], usage: null },
    call({ index: 0, id: 'c1', type: 'function', function: { name: 'read', arguments: null } }),
    call({ index: 0, id: null, type: null, function: { name: null, arguments: '{}' } }),
    { choices: [{ index: 0, delta: { content: null }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 5, completion_tokens: null, prompt_tokens_details: null } },
    { choices: [], usage: { prompt_tokens: null, completion_tokens: 7, prompt_tokens_details: { cached_tokens: null } } },
  ]);
  t.deepEqual(turn, { content: [{ type: 'tool_use', id: 'c1', name: 'read', input: {} }], stop: 'tool_use', usage: { input_tokens: 5, output_tokens: 7 } });
});

test('usage: cached tokens are cache reads, and a usage-only chunk after the finish reason is read before [DONE]', (t) => {
  const turn = decode([delta({ content: 'a' }, 'stop'), { choices: [], usage: { prompt_tokens: 1200, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 1024 } } }, DONE]);
  // OpenAI's prompt_tokens includes the cached ones; input_tokens keeps that meaning (model-protocol.ts).
  t.deepEqual(turn.usage, { input_tokens: 1200, output_tokens: 9, cache_read_input_tokens: 1024 });
});

test('usage fields may be missing; each present field replaces the last (continuous usage)', (t) => {
  const turn = decode([
    { ...delta({ content: 'a' }), usage: { prompt_tokens: 3, completion_tokens: 1 } },
    { ...finish('stop'), usage: { completion_tokens: 2 } },
    { choices: [], usage: {} },
  ]);
  t.deepEqual(turn.usage, { input_tokens: 3, output_tokens: 2 });
});

test('a refusal is kept as the text, streamed, and the stop is refusal', (t) => {
  const { decoder: d, texts, feed } = decoder();
  feed([delta({ role: 'assistant', refusal: '' }), delta({ refusal: "I can't " }), delta({ refusal: 'help with that.' }), finish('stop'), DONE]);
  t.true(d.started);
  t.deepEqual(texts, ["I can't ", 'help with that.']);
  t.deepEqual(d.finish(), { content: [{ type: 'text', text: "I can't help with that." }], stop: 'refusal', usage: noUsage });
});

const finishes = test.macro((t, reason: string, withCall: boolean, stop: StopReason) => {
  const inputs = [delta({ content: 'text' }), ...(withCall ? [call({ index: 0, id: 'c', function: { name: 'read', arguments: '{}' } })] : []), finish(reason)];
  t.is(decode(inputs).stop, stop);
});
test('finish_reason stop is end', finishes, 'stop', false, 'end');
test('finish_reason stop with tool calls is tool_use (Ollama and llama.cpp say stop)', finishes, 'stop', true, 'tool_use');
test('finish_reason tool_calls is tool_use', finishes, 'tool_calls', true, 'tool_use');
test('finish_reason function_call is tool_use', finishes, 'function_call', true, 'tool_use');
test('finish_reason length is max_tokens', finishes, 'length', false, 'max_tokens');
test('finish_reason content_filter is content_filter', finishes, 'content_filter', false, 'content_filter');

test('content_filter keeps the text received', (t) => {
  t.deepEqual(decode([delta({ content: 'partial' }), finish('content_filter')]).content, [{ type: 'text', text: 'partial' }]);
});

test('an unknown finish reason is refused when it arrives', (t) => {
  const { feed } = decoder();
  t.is(t.throws<ZotboxError>(() => feed([delta({ content: 'a' }), finish('eos')])).code, 'ZB_PROVIDER_FAILED');
});

test('an empty finish reason means "not yet"', (t) => {
  t.deepEqual(decode([delta({ content: 'a' }, ''), delta({ content: 'b' }, 'stop')]).content, [{ type: 'text', text: 'ab' }]);
});

test('finish_reason tool_calls without any tool call is refused', (t) => {
  t.is(failure(t, [delta({ content: 'a' }), finish('tool_calls')]).code, 'ZB_PROVIDER_FAILED');
});

test('a tool call cut off by length is dropped, a whole one before it kept', (t) => {
  const turn = decode([
    call({ index: 0, id: 'c1', function: { name: 'read', arguments: '{"path":"a"}' } }),
    call({ index: 1, id: 'c2', function: { name: 'write', arguments: '{"path":"b","con' } }),
    call({ index: 2, id: 'c3', function: { name: 'bash' } }),
    finish('length'),
  ]);
  t.deepEqual(turn, { content: [{ type: 'tool_use', id: 'c1', name: 'read', input: { path: 'a' } }], stop: 'max_tokens', usage: noUsage });
});

test('a tool call cut off by the content filter is dropped', (t) => {
  t.deepEqual(decode([call({ index: 0, id: 'c1', function: { name: 'read', arguments: '{"pa' } }), finish('content_filter')]).content, []);
});

test('a finished tool call whose arguments are not JSON keeps them as unparsed arguments, for the gate to refuse (the run goes on)', (t) => {
  t.deepEqual(decode([call({ index: 0, id: 'c1', function: { name: 'read', arguments: '{"pa' } }), finish('tool_calls')]).content, [
    { type: 'tool_use', id: 'c1', name: 'read', input: { zotbox_unparsed_arguments: '{"pa' } },
  ]);
});

test('a stream cut mid-tool-call without a finish reason is interrupted', (t) => {
  t.is(failure(t, [call({ index: 0, id: 'c1', function: { name: 'read', arguments: '{"pa' } })]).code, 'ZB_PROVIDER_INTERRUPTED');
});

test('empty arguments under a normal stop are an empty object', (t) => {
  t.deepEqual(decode([call({ index: 0, id: 'c1', function: { name: 'list', arguments: '' } }), finish('tool_calls')]).content, [{ type: 'tool_use', id: 'c1', name: 'list', input: {} }]);
});

test('arguments that are JSON but not an object are kept as unparsed arguments', (t) => {
  for (const args of ['[1]', 'null', '"{\\"path\\": \\"a\\"}"']) {
    t.deepEqual(decode([call({ index: 0, id: 'c1', function: { name: 'read', arguments: args } }), finish('tool_calls')]).content, [
      { type: 'tool_use', id: 'c1', name: 'read', input: { zotbox_unparsed_arguments: args } },
    ]);
  }
});

test('a tool call without a name under a normal stop is refused', (t) => {
  t.is(failure(t, [call({ index: 0, id: 'c1', function: { arguments: '{}' } }), finish('tool_calls')]).code, 'ZB_PROVIDER_FAILED');
});

test('a tool name longer than 256 characters is refused; up to 256 it is kept (the gate refuses a tool it does not know)', (t) => {
  t.is(failure(t, [call({ index: 0, id: 'c1', function: { name: 'r'.repeat(257), arguments: '{}' } }), finish('tool_calls')]).code, 'ZB_PROVIDER_FAILED');
  t.is(decode([call({ index: 0, id: 'c1', function: { name: 'r'.repeat(65), arguments: '{}' } }), finish('tool_calls')]).stop, 'tool_use');
});

test('a tool call of a type other than function is refused; an empty type is accepted', (t) => {
  t.is(failure(t, [call({ index: 0, id: 'c1', type: 'custom', function: { name: 'read' } })]).code, 'ZB_PROVIDER_FAILED');
  t.is(decode([call({ index: 0, id: 'c1', type: '', function: { name: 'read', arguments: '{}' } }), finish('tool_calls')]).stop, 'tool_use');
});

test('reasoning_content and reasoning deltas are not text and do not start the output', (t) => {
  const { decoder: d, texts, feed } = decoder();
  feed([delta({ role: 'assistant', reasoning_content: 'Let me think' }), delta({ reasoning: 'hmm' })]);
  t.false(d.started);
  feed([delta({ content: 'Answer', reasoning_content: null }, 'stop')]);
  t.deepEqual(texts, ['Answer']);
  t.deepEqual(d.finish().content, [{ type: 'text', text: 'Answer' }]);
});

test('started: false for a role, usage or empty content; true once text or a tool call delta arrives', (t) => {
  const text = decoder();
  text.feed([delta({ role: 'assistant', content: '' }), { choices: [], usage: { prompt_tokens: 1 } }]);
  t.false(text.decoder.started);
  text.feed([delta({ content: 'x' })]);
  t.true(text.decoder.started);
  const tool = decoder();
  tool.feed([call({ index: 0, id: 'c1', function: { name: 'read' } })]);
  t.true(tool.decoder.started);
});

test('a tool-only turn has no text block', (t) => {
  t.deepEqual(decode([delta({ content: '' }), call({ index: 0, id: 'c1', function: { name: 'read', arguments: '{}' } }), finish('tool_calls')]).content, [
    { type: 'tool_use', id: 'c1', name: 'read', input: {} },
  ]);
});

test('an error chunk fails the turn quoting its message, type and code', (t) => {
  const { feed } = decoder();
  const error = t.throws<ZotboxError>(() => feed([delta({ content: 'a' }), { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }]));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.regex(error.message, /Rate limit reached.*type requests.*code rate_limit_exceeded/);
  t.is(error.details?.['retryable'], undefined);
});

test('a server_error chunk is retryable; so is a numeric 5xx code (OpenRouter)', (t) => {
  t.is(failure(t, [{ error: { message: 'The server had an error', type: 'server_error', code: null } }]).details?.['retryable'], true);
  t.is(failure(t, [{ error: { message: 'Upstream down', code: 502 } }]).details?.['retryable'], true);
  t.is(failure(t, [{ error: { message: 'bad', type: 'invalid_request_error', code: 400 } }]).details?.['retryable'], undefined);
});

test('context_length_exceeded is ZB_MODEL_CONTEXT_EXCEEDED naming the model and its window', (t) => {
  const error = failure(t, [{ error: { message: "This model's maximum context length is 1047576 tokens", type: 'invalid_request_error', code: 'context_length_exceeded' } }]);
  t.is(error.code, 'ZB_MODEL_CONTEXT_EXCEEDED');
  t.regex(error.message, /gpt-4\.1's context window \(1,047,576 tokens\)/);
  t.deepEqual(error.details, { model: 'gpt-4.1', contextWindow: 1_047_576 });
});

test('an error given as a bare string, and an `event: error` event, fail the turn', (t) => {
  t.regex(failure(t, [{ error: 'upstream timed out' }]).message, /upstream timed out/);
  const event = failure(t, [raw('{"error":{"message":"overloaded","type":"overloaded_error"}}', 'error')]);
  t.is(event.code, 'ZB_PROVIDER_FAILED');
  t.is(event.details?.['retryable'], true);
  t.regex(failure(t, [raw('gateway exploded', 'error')]).message, /gateway exploded/);
});

test('error: null is no error', (t) => {
  t.is(decode([{ ...delta({ content: 'a' }, 'stop'), error: null }]).stop, 'end');
});

test('Azure chunks with prompt_filter_results, content_filter_results, empty choices and no model are accepted', (t) => {
  const turn = decode([
    { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] },
    { choices: [{ content_filter_results: {}, delta: { content: '', role: 'assistant' }, finish_reason: null, index: 0, logprobs: null }], id: 'chatcmpl-1', object: 'chat.completion.chunk' },
    { choices: [{ content_filter_results: { hate: { filtered: false, severity: 'safe' } }, delta: { content: 'Hi' }, finish_reason: null, index: 0 }] },
    { choices: [{ content_filter_results: {}, delta: {}, finish_reason: 'stop', index: 0 }] },
  ]);
  t.deepEqual(turn.content, [{ type: 'text', text: 'Hi' }]);
});

test('unknown event types are ignored', (t) => {
  t.deepEqual(decode([raw('{}', 'ping'), raw('not even json', 'keepalive'), delta({ content: 'a' }, 'stop')]).content, [{ type: 'text', text: 'a' }]);
});

const refused = test.macro((t, data: string) => {
  const { feed } = decoder();
  t.is(t.throws<ZotboxError>(() => feed([raw(data)])).code, 'ZB_PROVIDER_FAILED');
});
test('a chunk that is not JSON is refused', refused, '{"choices": [');
test('a chunk that is JSON null is refused', refused, 'null');
test('a chunk that is a JSON array is refused', refused, '[]');
test('content of the wrong type is refused', refused, '{"choices":[{"index":0,"delta":{"content":5}}]}');
test('a choice index of the wrong type is refused', refused, '{"choices":[{"index":"0","delta":{}}]}');
test('tool_calls that are not an array are refused', refused, '{"choices":[{"index":0,"delta":{"tool_calls":{"index":0}}}]}');
test('a tool call index of the wrong type is refused', refused, '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":"0"}]}}]}');
test('usage fields of the wrong type are refused', refused, '{"choices":[],"usage":{"prompt_tokens":"12"}}');
test('choices that are not an array are refused', refused, '{"choices":{"index":0}}');
test('a finish_reason of the wrong type is refused', refused, '{"choices":[{"index":0,"delta":{},"finish_reason":1}]}');
