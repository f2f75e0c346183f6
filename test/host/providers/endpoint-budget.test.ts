// The concurrency budget of an endpoint against a loopback server that holds
// each request until the test answers: at most N requests in flight, admitted in
// FIFO order, the slot held until the streamed body is done and released exactly
// once whatever ends it, and one keep-alive dispatcher per endpoint.
import test, { type ExecutionContext } from 'ava';
import { createServer } from 'node:net';
import type { ErrorCode, ZotboxError } from '../../../src/errors.js';
import { postForStream } from '../../../src/host/providers/http.js';
import { ModelEndpoints, type ModelEndpoint } from '../../../src/host/providers/model-endpoints.js';
import { OpenAiProvider } from '../../../src/host/providers/openai.js';
import type { ModelTurnRequest } from '../../../src/host/providers/provider.js';
import { FakeClock } from '../../fixtures/fake-clock.js';
import { holdModelServer, type HeldRequest } from '../../fixtures/held-model-server.js';
import { openaiStream } from '../../fixtures/model-servers.js';

const live = () => new AbortController().signal;
const turn = (run: string): ModelTurnRequest => ({ system: run, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] });
/** The part of an OpenAI request body runOf reads: the system prompt, sent as the first message. */
type SystemFirst = { messages: [{ role: 'system'; content: string }] };
/** Which run sent a request: its system prompt. */
const runOf = (request: HeldRequest) => (request.body as SystemFirst).messages[0].content;

function registry(t: ExecutionContext): ModelEndpoints {
  const endpoints = new ModelEndpoints({ clock: new FakeClock() });
  t.teardown(() => endpoints.close());
  return endpoints;
}

async function oneSlotEndpoint(t: ExecutionContext) {
  const server = await holdModelServer(t);
  const endpoint = registry(t).endpoint({ provider: 'openai', baseUrl: server.base, maxConcurrency: 1 });
  const post = (signal = live()) => postForStream({ endpoint, path: '/v1/chat/completions', headers: {}, body: { n: 1 }, signal, maxRetries: 0 });
  return { server, endpoint, post };
}

/** Resolves when the stream closes, however it ends (events.once would reject on an error first). */
const closeOf = (stream: NodeJS.EventEmitter) => new Promise<void>((resolve) => stream.once('close', () => resolve()));
const slots = (endpoint: ModelEndpoint) => ({ held: endpoint.limiter.held, queued: endpoint.limiter.queued });
/** An event stream, as a model API answers; anything else is refused before its body is read. */
const SSE = { 'content-type': 'text/event-stream' };

test('with a limit of 2, five runs send two requests; each finished one lets exactly one more in, in FIFO order', async (t) => {
  const server = await holdModelServer(t);
  const endpoints = registry(t);
  const names = ['A', 'B', 'C', 'D', 'E'];
  const runs = names.map(() => new OpenAiProvider({ model: 'gpt-4.1', apiKey: 'k', baseUrl: server.base, endpoints, maxConcurrency: 2 }));
  const endpoint = endpoints.endpoint({ provider: 'openai', baseUrl: server.base });
  const answers = runs.map((run, i) => run.complete(turn(names[i]!), () => {}, live()));
  t.deepEqual(slots(endpoint), { held: 2, queued: 3 });
  const firstTwo = await Promise.all([server.request(0), server.request(1)]);
  t.deepEqual(firstTwo.map(runOf).sort(), ['A', 'B']);
  t.is(server.requests.length, 2);
  // Finish them one at a time; each admits exactly the next run in line.
  const inFlight = new Map(firstTwo.map((request) => [runOf(request), request]));
  for (const [finished, next, index] of [
    ['A', 'C', 2],
    ['B', 'D', 3],
    ['C', 'E', 4],
  ] as const) {
    openaiStream(inFlight.get(finished)!.res, { text: `ok ${finished}` }, 1);
    await answers[names.indexOf(finished)];
    const admitted = await server.request(index);
    t.is(runOf(admitted), next);
    inFlight.set(next, admitted);
    t.is(server.requests.length, index + 1);
    t.deepEqual(slots(endpoint), { held: 2, queued: 4 - index });
  }
  for (const name of ['D', 'E']) openaiStream(inFlight.get(name)!.res, { text: `ok ${name}` }, 1);
  await Promise.all(answers);
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
  t.deepEqual(server.requests.map(runOf).slice(2), ['C', 'D', 'E']);
});

test('the slot is released when the body has been read to its end, without close()', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const response = post();
  (await server.request(0)).res.writeHead(200, SSE).end('data: [DONE]\n\n');
  const { body } = await response;
  const closed = closeOf(body);
  t.is(await body.text(), 'data: [DONE]\n\n');
  await closed;
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('close() after the end, and twice, releases the slot only once', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const response = post();
  (await server.request(0)).res.writeHead(200, SSE).end('x');
  const { body, close } = await response;
  await body.text();
  await close();
  await close();
  const second = post();
  const third = post();
  t.deepEqual(slots(endpoint), { held: 1, queued: 1 }, 'the third still waits for the one slot');
  (await server.request(1)).res.writeHead(200, SSE).end('x');
  await (await second).close();
  (await server.request(2)).res.writeHead(200, SSE).end('x');
  await (await third).close();
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('a body abandoned after its first chunk releases the slot', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const response = post();
  const held = await server.request(0);
  held.res.writeHead(200, SSE).write('data: first\n\n'); // and never ends
  const { body } = await response;
  const closed = closeOf(body);
  for await (const chunk of body) {
    t.truthy(chunk);
    break; // the reader gives up: the iterator destroys the body
  }
  await closed;
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('close() on a body never read releases the slot', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const response = post();
  (await server.request(0)).res.writeHead(200, SSE).write('data: first\n\n');
  await (await response).close();
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('a body that fails mid-stream (the connection drops) releases the slot', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const response = post();
  const held = await server.request(0);
  held.res.writeHead(200, SSE).write('data: first\n\n');
  const { body } = await response;
  const closed = closeOf(body);
  held.res.socket!.destroy();
  await t.throwsAsync(body.text());
  await closed;
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('cancelling while the body streams releases the slot', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const controller = new AbortController();
  const response = post(controller.signal);
  (await server.request(0)).res.writeHead(200, SSE).write('data: first\n\n');
  const { body } = await response;
  const closed = closeOf(body);
  controller.abort();
  await closed;
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('cancelling before the answer arrives rejects with ZB_GATE_CANCELLED and releases the slot', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const controller = new AbortController();
  const response = post(controller.signal);
  await server.request(0);
  controller.abort();
  t.is((await t.throwsAsync<ZotboxError>(response)).code, 'ZB_GATE_CANCELLED');
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('cancelling a queued request removes it from the queue and leaves the one in flight alone', async (t) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const first = post();
  const controller = new AbortController();
  const queued = post(controller.signal);
  t.deepEqual(slots(endpoint), { held: 1, queued: 1 });
  controller.abort();
  t.is((await t.throwsAsync<ZotboxError>(queued)).code, 'ZB_GATE_CANCELLED');
  t.deepEqual(slots(endpoint), { held: 1, queued: 0 });
  (await server.request(0)).res.writeHead(200, SSE).end('ok');
  const { body } = await first;
  t.is(await body.text(), 'ok');
  t.is(server.requests.length, 1, 'the cancelled request was never sent');
});

const failureReleases = test.macro(async (t, status: number, code: ErrorCode) => {
  const { server, endpoint, post } = await oneSlotEndpoint(t);
  const response = post();
  (await server.request(0)).res.writeHead(status).end('{"error":"no"}');
  t.is((await t.throwsAsync<ZotboxError>(response)).code, code);
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('an HTTP 400 fails with ZB_PROVIDER_FAILED and releases the slot', failureReleases, 400, 'ZB_PROVIDER_FAILED');
test('an HTTP 401 fails with ZB_PROVIDER_AUTH and releases the slot', failureReleases, 401, 'ZB_PROVIDER_AUTH');
test('a 429 with no retries left fails with ZB_PROVIDER_FAILED and releases the slot', failureReleases, 429, 'ZB_PROVIDER_FAILED');

test('a server that cannot be reached fails with ZB_PROVIDER_FAILED and releases the slot', async (t) => {
  const closedPort = createServer();
  await new Promise<void>((resolve) => closedPort.listen(0, '127.0.0.1', resolve));
  const { port } = closedPort.address() as { port: number };
  await new Promise<void>((resolve) => closedPort.close(() => resolve()));
  const endpoint = registry(t).endpoint({ provider: 'openai', baseUrl: `http://127.0.0.1:${port}`, maxConcurrency: 1 });
  const error = await t.throwsAsync<ZotboxError>(postForStream({ endpoint, path: '/v1/x', headers: {}, body: {}, signal: live(), maxRetries: 0 }));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.deepEqual(slots(endpoint), { held: 0, queued: 0 });
});

test('a provider turn whose stream is malformed fails and releases the slot', async (t) => {
  const server = await holdModelServer(t);
  const endpoints = registry(t);
  const provider = new OpenAiProvider({ model: 'gpt-4.1', apiKey: 'k', baseUrl: server.base, endpoints, maxConcurrency: 1 });
  const answer = provider.complete(turn('A'), () => {}, live());
  (await server.request(0)).res.writeHead(200, SSE).end('data: {not json\n\n');
  t.is((await t.throwsAsync<ZotboxError>(answer)).code, 'ZB_PROVIDER_FAILED');
  t.deepEqual(slots(endpoints.endpoint({ provider: 'openai', baseUrl: server.base })), { held: 0, queued: 0 });
});

test('sequential requests on one endpoint reuse one connection; another endpoint has its own dispatcher and connection', async (t) => {
  const server = await holdModelServer(t);
  const endpoints = registry(t);
  const a = endpoints.endpoint({ provider: 'openai', baseUrl: `${server.base}/a` });
  const b = endpoints.endpoint({ provider: 'openai', baseUrl: `${server.base}/b` });
  const roundTrip = async (endpoint: ModelEndpoint, index: number) => {
    const response = postForStream({ endpoint, path: '/v1/x', headers: {}, body: { index }, signal: live() });
    (await server.request(index)).res.writeHead(200, SSE).end('done');
    const { body, close } = await response;
    t.is(await body.text(), 'done');
    await close(); // as providers do when a turn ends
  };
  await roundTrip(a, 0);
  await roundTrip(a, 1);
  await roundTrip(a, 2);
  t.is(server.connections(), 1, 'three requests, one keep-alive connection');
  await roundTrip(b, 3);
  t.is(server.connections(), 2, 'the second endpoint opened its own');
  t.not(a.dispatcher, b.dispatcher);
  t.deepEqual(
    server.requests.map((r) => r.url),
    ['/a/v1/x', '/a/v1/x', '/a/v1/x', '/b/v1/x'],
  );
});
