// The adaptive limit through a real provider and a loopback server (issue 26): a
// 429 halves the limit of an endpoint nobody configured and leaves a configured
// one alone, and a request that must wait for a slot says so first (run.queued's
// source). Time is a fake clock; the tests await requests at the server.
import test, { type ExecutionContext } from 'ava';
import type { EndpointWait } from '../../../src/host/providers/http.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import { OpenAiProvider } from '../../../src/host/providers/openai.js';
import type { ModelTurnRequest } from '../../../src/host/providers/provider.js';
import { FakeClock } from '../../fixtures/fake-clock.js';
import { holdModelServer } from '../../fixtures/held-model-server.js';
import { openaiStream } from '../../fixtures/model-servers.js';

const live = () => new AbortController().signal;
const turn: ModelTurnRequest = { system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };

async function world(t: ExecutionContext, maxConcurrency?: number) {
  const clock = new FakeClock();
  const endpoints = new ModelEndpoints({ clock, random: () => 0 });
  t.teardown(() => endpoints.close());
  const server = await holdModelServer(t);
  const provider = new OpenAiProvider({ apiKey: 'k', baseUrl: server.base, endpoints, model: 'gpt-4.1', ...(maxConcurrency === undefined ? {} : { maxConcurrency }) });
  const endpoint = endpoints.endpoint({ provider: 'openai', baseUrl: server.base });
  return { clock, server, provider, endpoint };
}

test('a 429 halves the limit of an endpoint nobody configured, from 256 to 128', async (t) => {
  const { clock, server, provider, endpoint } = await world(t);
  const answer = provider.complete(turn, () => {}, live());
  (await server.request(0)).res.writeHead(429, { 'retry-after': '1' }).end('slow down');
  await clock.untilSleeping(1);
  t.is(endpoint.limiter.limit, 128);
  clock.advance(1000);
  openaiStream((await server.request(1)).res, { text: 'ok' }, 1);
  await answer;
  t.is(endpoint.limiter.limit, 128, 'an answer while nothing queues does not climb');
});

test('a 429 leaves a configured limit (max_concurrency, --model-concurrency) as it was', async (t) => {
  const { clock, server, provider, endpoint } = await world(t, 6);
  const answer = provider.complete(turn, () => {}, live());
  (await server.request(0)).res.writeHead(429, { 'retry-after': '1' }).end('slow down');
  await clock.untilSleeping(1);
  t.is(endpoint.limiter.limit, 6);
  clock.advance(1000);
  openaiStream((await server.request(1)).res, { text: 'ok' }, 1);
  await answer;
});

test('a request that must wait for a slot says so before it waits: its endpoint, how many wait before it, the limit', async (t) => {
  const { server, provider } = await world(t, 1);
  const waits: EndpointWait[][] = [[], [], []];
  const answers = waits.map((seen) => provider.complete(turn, () => {}, live(), { onQueued: (wait) => seen.push(wait) }));
  const first = await server.request(0);
  const host = new URL(server.base).host;
  t.deepEqual(waits, [[], [{ endpoint: host, ahead: 0, limit: 1 }], [{ endpoint: host, ahead: 1, limit: 1 }]]);
  openaiStream(first.res, { text: 'a' }, 1);
  openaiStream((await server.request(1)).res, { text: 'b' }, 1);
  openaiStream((await server.request(2)).res, { text: 'c' }, 1);
  await Promise.all(answers);
  t.is(waits.flat().length, 2, 'told once per wait');
});
