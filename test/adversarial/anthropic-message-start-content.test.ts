// Finding (closed world): content carried in message_start is silently dropped.
// The SDK's snapshot starts from message_start.message, content included, so a
// server (or gateway) that sends text or a tool call there gets it into the
// SDK's final message; zotbox returns an empty answer (sent back as "[no
// output]") and says nothing. Reading it or refusing it are both fine; ignoring
// data whose meaning zotbox knows is not.
import Anthropic from '@anthropic-ai/sdk';
import test from 'ava';
import { decodeAnthropicStream } from '../fixtures/streams/anthropic-decode.js';
import { holdModelServer } from '../fixtures/held-model-server.js';
import { anthropicEvent } from './harness.js';

const BODY = [
  anthropicEvent('message_start', {
    message: { id: 'm', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hello from message_start.' }], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } },
  }),
  anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } }),
  anthropicEvent('message_stop', {}),
].join('');

test('text in message_start: the SDK keeps it; zotbox keeps it too or refuses the stream, never returns an empty answer', async (t) => {
  const server = await holdModelServer(t);
  const client = new Anthropic({ baseURL: server.base, apiKey: 'k', maxRetries: 0, logLevel: 'off' });
  const final = client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
  (await server.request(0)).res.writeHead(200, { 'content-type': 'text/event-stream' }).end(BODY);
  const sdkText = (await final).content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  t.is(sdkText, 'Hello from message_start.', 'the SDK reads it');

  const zotbox = await decodeAnthropicStream([BODY]);
  const outcome = zotbox.error?.code ?? zotbox.turn?.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  t.true(outcome === sdkText || outcome === 'ZB_PROVIDER_FAILED', `zotbox: ${JSON.stringify(outcome)}`);
});
