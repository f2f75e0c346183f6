// Finding: a turn has no bound in time. The idle limit restarts on every byte, so
// a server that sends a keep-alive (an Anthropic ping, an SSE comment, an empty
// delta) just inside the limit, and nothing else, holds the run, its concurrency
// slot and its worker forever; `zotbox run` has no default --timeout. Here the
// idle limit is 0.2 s and the server pings every 0.05 s: after 40 pings (10 idle
// limits without a word of answer) it gives up and sends a real answer, which
// zotbox takes. A bound on time without progress (or per turn) would have ended it.
import test from 'ava';
import type { ServerResponse } from 'node:http';
import { isZotboxError } from '../../src/errors.js';
import { AnthropicProvider } from '../../src/host/providers/anthropic.js';
import { OpenAiProvider } from '../../src/host/providers/openai.js';
import type { ModelProvider } from '../../src/host/providers/provider.js';
import { serve } from '../fixtures/model-servers.js';
import { anthropicEvent, fastEndpoints, openaiChunk, type Provider } from './harness.js';

const IDLE_MS = 200;
const PINGS = 40;

function keepAliveThenAnswer(provider: Provider, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (provider === 'anthropic') res.write(anthropicEvent('message_start', { message: { id: 'm', usage: { input_tokens: 1, output_tokens: 1 } } }));
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    if (++sent <= PINGS) {
      res.write(provider === 'anthropic' ? anthropicEvent('ping', {}) : ': keep-alive\n\n');
      return;
    }
    clearInterval(timer);
    if (provider === 'anthropic') {
      res.write(anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: 'late' } }));
      res.write(anthropicEvent('content_block_stop', { index: 0 }));
      res.write(anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' } }));
      res.end(anthropicEvent('message_stop', {}));
    } else res.end(`${openaiChunk({ content: 'late' }, 'stop')}data: [DONE]\n\n`);
  }, IDLE_MS / 4);
  res.on('close', () => clearInterval(timer));
}

for (const provider of ['anthropic', 'openai'] as const) {
  test(`${provider}: a server that sends only keep-alives for ${PINGS / 4} idle limits fails the turn with ZB_PROVIDER_TIMEOUT`, async (t) => {
    const loopback = await serve(t, (_body, _req, res) => keepAliveThenAnswer(provider, res));
    const endpoints = fastEndpoints(t);
    const timeouts = { firstByteMs: IDLE_MS, idleMs: IDLE_MS };
    const model: ModelProvider =
      provider === 'anthropic'
        ? new AnthropicProvider({ model: 'claude-sonnet-4-5', apiKey: 'k', baseUrl: loopback.base, endpoints, timeouts })
        : new OpenAiProvider({ model: 'gpt-4.1', apiKey: 'k', baseUrl: `${loopback.base}/v1`, endpoints, timeouts });
    const outcome = await model
      .complete({ system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] }, () => undefined, new AbortController().signal)
      .then(
        (turn) => `answered ${JSON.stringify(turn.content)}`,
        (error: unknown) => (isZotboxError(error) ? error.code : 'not a ZotboxError'),
      );
    t.is(outcome, 'ZB_PROVIDER_TIMEOUT');
  });
}
