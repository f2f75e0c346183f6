// The shared backoff through real providers and a loopback server (issue 11,
// item 2): one throttled request delays the next request of every run on that
// endpoint until the deadline the server named. Time is a fake clock; the tests
// await requests arriving at the server, never the clock.
import test, { type ExecutionContext } from 'ava';
import type { ZotboxError } from '../../../src/errors.js';
import { AnthropicProvider } from '../../../src/host/providers/anthropic.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import { OpenAiProvider } from '../../../src/host/providers/openai.js';
import type { ModelProvider, ModelTurnRequest } from '../../../src/host/providers/provider.js';
import type { AssistantTurn } from '../../../src/policy/model-protocol.js';
import { FakeClock } from '../../fixtures/fake-clock.js';
import { holdModelServer, type HeldRequest } from '../../fixtures/held-model-server.js';
import { anthropicStream, openaiStream } from '../../fixtures/model-servers.js';

type Wire = 'anthropic' | 'openai';
const live = () => new AbortController().signal;
const turn = (run: string): ModelTurnRequest => ({ system: run, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] });
const textOf = (answer: AssistantTurn) => answer.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
/** The part of a request body runOf reads: Anthropic's system field, or OpenAI's first (system) message. */
type SystemPrompt = { system: string } | { messages: [{ role: 'system'; content: string }] };
/** Which run sent a request: its system prompt, as each wire format carries it. */
const runOf = (request: HeldRequest) => {
  const body = request.body as SystemPrompt;
  return 'system' in body ? body.system : body.messages[0].content;
};
const answer = (wire: Wire, request: HeldRequest) => (wire === 'anthropic' ? anthropicStream : openaiStream)(request.res, { text: `ok ${runOf(request)}` }, 1);

/**
 * Watches for a request sent during a backoff: the one with arrival index
 * `sentSoFar` must not arrive before `deadlineReached()` is called. `sleeping(n)`
 * resolves once n requests sleep on the clock, and fails at once on a violation.
 */
function watchBackoff(clock: FakeClock, server: { request(index: number): Promise<HeldRequest> }, sentSoFar: number) {
  let open = false;
  // Rejects (failing the test, awaited or not) if the request comes too early.
  const violation = server.request(sentSoFar).then((request) => {
    if (!open) throw new Error(`${runOf(request)} was sent during the backoff`);
  });
  const never = new Promise<void>(() => {});
  return {
    sleeping: (count: number) => Promise.race([clock.untilSleeping(count), violation.then(() => never)]),
    deadlineReached: () => void (open = true),
  };
}

async function world(t: ExecutionContext, wire: Wire, runs: number) {
  const clock = new FakeClock();
  const endpoints = new ModelEndpoints({ clock, random: () => 0 });
  t.teardown(() => endpoints.close());
  const server = await holdModelServer(t);
  const options = { apiKey: 'k', baseUrl: server.base, endpoints };
  const providers: ModelProvider[] = Array.from({ length: runs }, () =>
    wire === 'anthropic' ? new AnthropicProvider({ ...options, model: 'claude-sonnet-4-5' }) : new OpenAiProvider({ ...options, model: 'gpt-4.1' }),
  );
  const endpoint = endpoints.endpoint({ provider: wire, baseUrl: server.base });
  return { clock, server, providers, endpoint, ask: (index: number, run: string) => providers[index]!.complete(turn(run), () => {}, live()) };
}

test('one 429 with retry-after: 7 delays the next request of every run on the endpoint until the deadline', async (t) => {
  const { clock, server, endpoint, ask } = await world(t, 'anthropic', 3);
  const a = ask(0, 'A');
  (await server.request(0)).res.writeHead(429, { 'retry-after': '7' }).end('slow down');
  await clock.untilSleeping(1); // A waits out its own backoff
  const backoff = watchBackoff(clock, server, 1);
  const b = ask(1, 'B');
  const c = ask(2, 'C');
  await backoff.sleeping(3);
  t.deepEqual(clock.wakeTimes(), [7000, 7000, 7000], 'A, B and C all wait for the same deadline');
  t.is(server.requests.length, 1, 'neither B nor C reached the server');
  clock.advance(6999);
  t.deepEqual(clock.wakeTimes(), [1, 1, 1]);
  backoff.deadlineReached();
  clock.advance(1);
  // No thundering herd: the first to wake (A) probes; B and C wait for its answer.
  const probe = await server.request(1);
  t.is(runOf(probe), 'A');
  t.is(endpoint.gate.waiting, 2);
  t.is(server.requests.length, 2);
  answer('anthropic', probe);
  const rest = await Promise.all([server.request(2), server.request(3)]);
  t.deepEqual(rest.map(runOf).sort(), ['B', 'C']);
  for (const request of rest) answer('anthropic', request);
  t.deepEqual((await Promise.all([a, b, c])).map(textOf), ['ok A', 'ok B', 'ok C']);
});

const sharedWait = test.macro(async (t, wire: Wire, status: number, headers: Record<string, string>, expectedMs: number) => {
  const { clock, server, ask } = await world(t, wire, 2);
  const a = ask(0, 'A');
  (await server.request(0)).res.writeHead(status, headers).end('busy');
  await clock.untilSleeping(1);
  const backoff = watchBackoff(clock, server, 1);
  const b = ask(1, 'B');
  await backoff.sleeping(2);
  t.deepEqual(clock.wakeTimes(), [expectedMs, expectedMs]);
  t.is(server.requests.length, 1);
  backoff.deadlineReached();
  clock.advance(expectedMs);
  answer(wire, await server.request(1));
  answer(wire, await server.request(2));
  t.deepEqual((await Promise.all([a, b])).map(textOf), ['ok A', 'ok B']);
  t.deepEqual(server.requests.map(runOf), ['A', 'A', 'B']);
});

test('429 with retry-after-ms holds every run for those milliseconds', sharedWait, 'openai', 429, { 'retry-after-ms': '1500' }, 1500);
test('retry-after-ms wins over retry-after', sharedWait, 'openai', 429, { 'retry-after-ms': '250', 'retry-after': '30' }, 250);
test('429 with retry-after as an HTTP date holds every run until that date', sharedWait, 'anthropic', 429, { 'retry-after': 'Wed, 01 Jan 2025 00:00:09 GMT' }, 9000);
test('529 (overloaded) holds every run like a 429', sharedWait, 'anthropic', 529, { 'retry-after': '3' }, 3000);
test('503 with retry-after holds every run like a 429', sharedWait, 'openai', 503, { 'retry-after': '2' }, 2000);
// Without a header: 1000 ms × 2^0, jitter factor 0.5 (random() is 0 here).
test('429 without retry-after holds every run for the exponential backoff', sharedWait, 'openai', 429, {}, 500);

test('503 without retry-after is retried by that request alone; other runs go on sending', async (t) => {
  const { clock, server, ask } = await world(t, 'openai', 2);
  const a = ask(0, 'A');
  (await server.request(0)).res.writeHead(503).end('busy');
  await clock.untilSleeping(1);
  t.deepEqual(clock.wakeTimes(), [500]);
  const b = ask(1, 'B');
  const second = await server.request(1);
  t.is(runOf(second), 'B', 'B was not held back');
  answer('openai', second);
  t.is(textOf(await b), 'ok B');
  clock.advance(500);
  answer('openai', await server.request(2));
  t.is(textOf(await a), 'ok A');
});

test('a retry-after beyond 60 s fails the request with ZB_PROVIDER_FAILED, and the other runs fail at once without sending', async (t) => {
  const { clock, server, ask } = await world(t, 'anthropic', 2);
  const a = ask(0, 'A');
  (await server.request(0)).res.writeHead(429, { 'retry-after': '3600' }).end('daily limit');
  const error = await t.throwsAsync<ZotboxError>(a);
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.like(error.details, { status: 429, retryAfterMs: 3_600_000 });
  t.is((await t.throwsAsync<ZotboxError>(ask(1, 'B'))).code, 'ZB_PROVIDER_FAILED');
  t.is(server.requests.length, 1);
  t.deepEqual(clock.wakeTimes(), []);
});

test('a run cancelled during the shared backoff leaves; the other runs still go at the deadline', async (t) => {
  const { clock, server, providers, ask } = await world(t, 'openai', 3);
  const a = ask(0, 'A');
  (await server.request(0)).res.writeHead(429, { 'retry-after': '7' }).end('slow down');
  await clock.untilSleeping(1);
  const controller = new AbortController();
  const b = providers[1]!.complete(turn('B'), () => {}, controller.signal);
  const c = ask(2, 'C');
  await clock.untilSleeping(3);
  controller.abort();
  t.is((await t.throwsAsync<ZotboxError>(b)).code, 'ZB_GATE_CANCELLED');
  t.deepEqual(clock.wakeTimes(), [7000, 7000]);
  clock.advance(7000);
  answer('openai', await server.request(1));
  answer('openai', await server.request(2));
  t.deepEqual((await Promise.all([a, c])).map(textOf), ['ok A', 'ok C']);
  t.deepEqual(server.requests.map(runOf), ['A', 'A', 'C']);
});

test("runs on another endpoint are not held by this one's backoff", async (t) => {
  const clock = new FakeClock();
  const endpoints = new ModelEndpoints({ clock });
  t.teardown(() => endpoints.close());
  const throttled = await holdModelServer(t);
  const other = await holdModelServer(t);
  const a = new OpenAiProvider({ model: 'gpt-4.1', apiKey: 'k', baseUrl: throttled.base, endpoints }).complete(turn('A'), () => {}, live());
  (await throttled.request(0)).res.writeHead(429, { 'retry-after': '7' }).end();
  await clock.untilSleeping(1);
  const b = new OpenAiProvider({ model: 'gpt-4.1', apiKey: 'k', baseUrl: other.base, endpoints }).complete(turn('B'), () => {}, live());
  answer('openai', await other.request(0));
  t.is(textOf(await b), 'ok B');
  clock.advance(7000);
  answer('openai', await throttled.request(1));
  t.is(textOf(await a), 'ok A');
});
