// Finding: whole tool calls in an answer that ends refused, content-filtered or
// paused are dropped without a tool.call event, though docs/events.md says every
// tool call the model makes is reported (refused ones included). The run's events
// then say the model made no call, while the session file holds it. Not running
// them is right; not saying so is not. (A call cut off by the output limit is not
// whole, so it is rightly neither run nor reported.)
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { anthropicEvent, anthropicText, endOf, openaiChunk, runAgainst } from './harness.js';

const WRITE = { path: 'owned.txt', content: 'x' };

/** An Anthropic answer: text, a whole write call, then the given stop reason. */
function anthropicWithCall(stop: string): string {
  return [
    anthropicEvent('message_start', { message: { id: 'm', usage: { input_tokens: 5, output_tokens: 1 } } }),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Writing.' } }),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_w', name: 'write', input: {} } }),
    anthropicEvent('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: JSON.stringify(WRITE) } }),
    anthropicEvent('content_block_stop', { index: 1 }),
    anthropicEvent('message_delta', { delta: { stop_reason: stop }, usage: { output_tokens: 9 } }),
    anthropicEvent('message_stop', {}),
  ].join('');
}

for (const stop of ['refusal', 'pause_turn'] as const) {
  test(`anthropic: a whole tool call in an answer that stops ${stop} is reported as a tool.call, and not run`, async (t) => {
    const { events, ws } = await runAgainst(t, 'anthropic', (n, res) => {
      if (n > 0) return anthropicText(res, 'Done.');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(anthropicWithCall(stop));
    });
    t.false(existsSync(path.join(ws, WRITE.path)), 'not run');
    t.true(
      events.some((e) => e.type === 'tool.call' && e.tool === 'write'),
      `the model's write call appears in no event (run ended ${endOf(events).status})`,
    );
  });
}

test('openai: a whole tool call in an answer stopped by content_filter is reported as a tool.call, and not run', async (t) => {
  const { events, ws } = await runAgainst(t, 'openai', (_n, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(openaiChunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'write', arguments: JSON.stringify(WRITE) } }] }));
    res.end(`${openaiChunk({}, 'content_filter')}data: [DONE]\n\n`);
  });
  t.like(endOf(events), { status: 'content_filtered' });
  t.false(existsSync(path.join(ws, WRITE.path)), 'not run');
  t.true(
    events.some((e) => e.type === 'tool.call' && e.tool === 'write'),
    "the model's write call appears in no event",
  );
});
