// Finding: a tool call the output limit cut off before any of its input arrived
// is executed with input {} (Anthropic), though the OpenAI decoder drops the same
// call. The API opens every tool_use with input {} and a first input_json_delta
// of "" (SDK corpus case "a tool without arguments"), so at max_tokens "no input
// yet" and "no parameters" look alike: the only safe reading is "cut off".
import test from 'ava';
import { AnthropicStreamDecoder } from '../../src/host/providers/anthropic-stream.js';
import { readServerSentEvents } from '../../src/host/providers/sse.js';
import { anthropicEvent, anthropicText, endOf, openaiChunk, openaiText, runAgainst } from './harness.js';

/** An answer: some text, then a tool_use the limit cut right after it opened (one empty delta, as the API sends first). */
function cutAfterOpening(partialJson: readonly string[]): string {
  return [
    anthropicEvent('message_start', { message: { id: 'm1', usage: { input_tokens: 10, output_tokens: 1 } } }),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Now I will list the files.' } }),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_cut', name: 'bash', input: {} } }),
    ...partialJson.map((piece) => anthropicEvent('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: piece } })),
    anthropicEvent('content_block_stop', { index: 1 }),
    anthropicEvent('message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 8192 } }),
    anthropicEvent('message_stop', {}),
  ].join('');
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

for (const [label, pieces] of [
  ['no input_json_delta at all', []],
  ['one empty input_json_delta', ['']],
] as const) {
  test(`anthropic decoder: at max_tokens, a tool_use cut off with ${label} is dropped, not completed as {}`, async (t) => {
    const decoder = new AnthropicStreamDecoder({ model: 'claude-sonnet-4-5', contextWindow: 200_000, onText: () => undefined });
    for await (const event of readServerSentEvents(once(cutAfterOpening(pieces)))) decoder.push(event);
    const turn = decoder.finish();
    t.is(turn.stop, 'max_tokens');
    t.deepEqual(
      turn.content.filter((block) => block.type === 'tool_use'),
      [],
      'the cut-off call must not be in the turn',
    );
  });
}

test('a max_tokens answer holding a finished call and a cut-off one: the model is told it was cut off (docs/models.md), not only given the one result', async (t) => {
  const cut = [
    anthropicEvent('message_start', { message: { id: 'm1', usage: { input_tokens: 10, output_tokens: 1 } } }),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_whole', name: 'write', input: {} } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"a.txt","content":"a"}' } }),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_cut', name: 'write', input: {} } }),
    anthropicEvent('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"b.txt","content":"bbb' } }),
    anthropicEvent('content_block_stop', { index: 1 }),
    anthropicEvent('message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 8192 } }),
    anthropicEvent('message_stop', {}),
  ].join('');
  const { events, requests } = await runAgainst(t, 'anthropic', (n, res) => {
    if (n > 0) return anthropicText(res, 'Done.');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(cut);
  });
  t.like(endOf(events), { status: 'completed' });
  t.regex(JSON.stringify(requests[1]?.body.messages.at(-1)), /cut off at the output token limit/, 'the model only got the result of a.txt');
});

test('anthropic run: a tool call cut off by max_tokens before its input never reaches the gate, and the model is told it was cut off', async (t) => {
  const { events, requests } = await runAgainst(t, 'anthropic', (n, res) => {
    if (n > 0) return anthropicText(res, 'Done.');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(cutAfterOpening(['']));
  });
  t.like(endOf(events), { status: 'completed', final_text: 'Done.' });
  t.deepEqual(
    events.filter((e) => e.type === 'tool.call'),
    [],
    'no tool.call: the call was never finished',
  );
  t.regex(JSON.stringify(requests[1]?.body.messages.at(-1)), /cut off at the output token limit/);
});

test('openai run: a call that opens after the finish reason and is cut by the end of the body (no [DONE]) never reaches the gate', async (t) => {
  const { events } = await runAgainst(t, 'openai', (n, res) => {
    if (n > 0) return openaiText(res, 'Done.');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(openaiChunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'write', arguments: '{"path":"a.txt","content":"a"}' } }] }, 'tool_calls'));
    // The body ends as the next call opens: [DONE] is optional after a finish reason, so zotbox reads the call as finished with {}.
    res.end(openaiChunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'bash', arguments: '' } }] }));
  });
  // Resolved as a refusal of the whole answer (more answer after its finish reason contradicts it), so no call of
  // it reaches the gate: the review accepted either this or running only the call sent before the finish reason.
  t.deepEqual(
    events.filter((e) => e.type === 'tool.call'),
    [],
    'no call of a self-contradicting answer is run',
  );
  t.like(endOf(events), { status: 'failed', error: { code: 'ZB_PROVIDER_FAILED' } });
});
