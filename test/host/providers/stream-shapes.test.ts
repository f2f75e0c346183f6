// What the providers do with streamed data their types do not promise: an event
// that is JSON null, and block or tool-call indexes that skip a number. These pin
// the runtime guards in anthropic.ts and openai.ts (a server may send anything).
import test, { type ExecutionContext } from 'ava';
import type { ZotboxError } from '../../../src/errors.js';
import { AnthropicProvider } from '../../../src/host/providers/anthropic.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import { OpenAiProvider } from '../../../src/host/providers/openai.js';
import type { ModelProvider, ModelTurnRequest } from '../../../src/host/providers/provider.js';
import { FakeClock } from '../../fixtures/fake-clock.js';
import { holdModelServer } from '../../fixtures/held-model-server.js';

const turn: ModelTurnRequest = { system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
const sse = (events: readonly unknown[]) => events.map((data) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');

/** Sends one turn to a provider on a loopback server that answers with `body`. */
async function answerWith(t: ExecutionContext, wire: 'anthropic' | 'openai', body: string) {
  const server = await holdModelServer(t);
  const endpoints = new ModelEndpoints({ clock: new FakeClock() });
  t.teardown(() => endpoints.close());
  const options = { model: 'm', apiKey: 'k', baseUrl: server.base, endpoints };
  const provider: ModelProvider = wire === 'anthropic' ? new AnthropicProvider(options) : new OpenAiProvider(options);
  const answer = provider.complete(turn, () => {}, new AbortController().signal);
  (await server.request(0)).res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
  return answer;
}

test('anthropic: an event that is JSON null fails the turn with ZB_PROVIDER_FAILED', async (t) => {
  const error = await t.throwsAsync<ZotboxError>(answerWith(t, 'anthropic', sse(['null'])));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
});

test('anthropic: a content block index that skips a number leaves no hole in the answer', async (t) => {
  const body = sse([
    { type: 'message_start', message: { usage: { input_tokens: 3 } } },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: 'second' } },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } },
    { type: 'message_stop' },
  ]);
  t.deepEqual(await answerWith(t, 'anthropic', body), { content: [{ type: 'text', text: 'second' }], stop: 'end', usage: { input_tokens: 3, output_tokens: 4 } });
});

test('openai: a tool call index that skips a number leaves no hole in the answer', async (t) => {
  const body = sse([
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] },
    '[DONE]',
  ]);
  t.deepEqual(await answerWith(t, 'openai', body), { content: [{ type: 'tool_use', id: 'call_1', name: 'read', input: {} }], stop: 'tool_use', usage: { input_tokens: 0, output_tokens: 0 } });
});
