// The streaming driver on a loopback server, with a tiny decoder of its own
// (data "t:<text>" is text, "end" finishes): a stream broken before any output
// is sent again; one broken after output fails with the text kept; silent
// servers fail with ZB_PROVIDER_TIMEOUT; a 400 for a full window has its own
// code; a 404 suggests the base URL fix; every request names zotbox.
import test, { type ExecutionContext } from 'ava';
import { ZotboxError } from '../../../src/errors.js';
import { USER_AGENT } from '../../../src/host/providers/http.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import type { StreamDecoder } from '../../../src/host/providers/stream-decoder.js';
import { streamTurn, type TurnStreamOptions } from '../../../src/host/providers/turn-stream.js';
import type { AssistantTurn } from '../../../src/policy/model-protocol.js';
import { ZOTBOX_VERSION } from '../../../src/version.js';
import { FakeClock } from '../../fixtures/fake-clock.js';
import { holdModelServer, type HeldModelServer } from '../../fixtures/held-model-server.js';

class TinyDecoder implements StreamDecoder {
  complete = false;
  started = false;
  partialText = '';
  progress = 0;
  constructor(private readonly onText: (text: string) => void) {}
  push(event: { data: string }): void {
    if (event.data !== 'ping') this.progress++;
    if (event.data === 'ping') return;
    if (event.data === 'end') this.complete = true;
    else if (event.data.startsWith('t:')) {
      this.started = true;
      this.partialText += event.data.slice(2);
      this.onText(event.data.slice(2));
    } else throw new ZotboxError('ZB_PROVIDER_FAILED', `unexpected ${event.data}`, event.data === 'overloaded' ? { details: { retryable: true } } : {});
  }
  finish(): AssistantTurn {
    if (!this.complete) throw new ZotboxError('ZB_PROVIDER_INTERRUPTED', 'the stream ended before the answer did.');
    return { content: [{ type: 'text', text: this.partialText }], stop: 'end', usage: { input_tokens: 0, output_tokens: 0 } };
  }
}

interface Setup {
  readonly server: HeldModelServer;
  readonly clock: FakeClock;
  readonly texts: string[];
  readonly turn: (overrides?: Partial<TurnStreamOptions>) => Promise<AssistantTurn>;
}

async function setup(t: ExecutionContext, provider = 'openai', basePath = '/v1'): Promise<Setup> {
  const server = await holdModelServer(t);
  const clock = new FakeClock();
  const endpoints = new ModelEndpoints({ clock, random: () => 0.5 });
  t.teardown(() => endpoints.close());
  const endpoint = endpoints.endpoint({ provider, baseUrl: `${server.base}${basePath}` });
  const texts: string[] = [];
  const turn = (overrides: Partial<TurnStreamOptions> = {}) =>
    streamTurn({
      endpoint,
      path: '/chat/completions',
      headers: {},
      body: { hello: 1 },
      signal: new AbortController().signal,
      decoder: () => new TinyDecoder((text) => texts.push(text)),
      isContextOverflow: (_status, body) => body.includes('context_length_exceeded'),
      model: 'gpt-test',
      contextWindow: 128_000,
      ...overrides,
    });
  return { server, clock, texts, turn };
}

const SSE = { 'content-type': 'text/event-stream' };

test('every request carries user-agent zotbox/<version>', async (t) => {
  const { server, turn } = await setup(t);
  const answer = turn();
  const held = await server.request(0);
  held.res.writeHead(200, SSE).end('data: t:hi\n\ndata: end\n\n');
  t.like(await answer, { content: [{ type: 'text', text: 'hi' }] });
  t.is(held.headers['user-agent'], `zotbox/${ZOTBOX_VERSION}`);
  t.is(USER_AGENT, `zotbox/${ZOTBOX_VERSION}`);
});

test('a connection dropped before any output is sent again, after a backoff, and the answer is whole', async (t) => {
  const { server, clock, texts, turn } = await setup(t);
  const answer = turn();
  const first = await server.request(0);
  first.res.writeHead(200, SSE);
  first.res.write(': keep-alive\n\n', () => first.res.socket?.destroy());
  await clock.untilSleeping(1);
  clock.advance(60_000);
  (await server.request(1)).res.writeHead(200, SSE).end('data: t:whole\n\ndata: end\n\n');
  t.like(await answer, { content: [{ type: 'text', text: 'whole' }] });
  t.deepEqual(texts, ['whole']);
});

test('a body that has ended is read to its end after the turn, and nothing after the end of the turn is decoded', async (t) => {
  const { server, turn } = await setup(t);
  const answer = turn();
  // "junk" after "end" would fail the turn were it decoded (the tiny decoder refuses it).
  (await server.request(0)).res.writeHead(200, SSE).end('data: t:hi\n\ndata: end\n\ndata: junk\n\n: more\n\n');
  t.like(await answer, { content: [{ type: 'text', text: 'hi' }] });
});

test('a body still open after the end of the turn is not waited for: the answer comes at once', async (t) => {
  const { server, turn } = await setup(t);
  // An idle limit far longer than ava's timeout (60 s): waiting for the body would fail the test, not pass it late.
  const answer = turn({ timeouts: { firstByteMs: 60_000, idleMs: 600_000 } });
  const held = await server.request(0);
  held.res.writeHead(200, SSE);
  held.res.write('data: t:hi\n\ndata: end\n\n');
  t.like(await answer, { content: [{ type: 'text', text: 'hi' }] });
});

test('a stream that ends cleanly but early, before any output, is sent again too', async (t) => {
  const { server, clock, turn } = await setup(t);
  const answer = turn();
  (await server.request(0)).res.writeHead(200, SSE).end(': nothing yet\n\n');
  await clock.untilSleeping(1);
  clock.advance(60_000);
  (await server.request(1)).res.writeHead(200, SSE).end('data: t:ok\n\ndata: end\n\n');
  t.like(await answer, { content: [{ type: 'text', text: 'ok' }] });
});

test('an error event the server may not repeat (retryable), before output, is sent again', async (t) => {
  const { server, clock, turn } = await setup(t);
  const answer = turn();
  (await server.request(0)).res.writeHead(200, SSE).end('data: overloaded\n\n');
  await clock.untilSleeping(1);
  clock.advance(60_000);
  (await server.request(1)).res.writeHead(200, SSE).end('data: t:ok\n\ndata: end\n\n');
  t.like(await answer, { content: [{ type: 'text', text: 'ok' }] });
});

test('a stream that keeps breaking before output fails as ZB_PROVIDER_FAILED after the retries, never as a bug', async (t) => {
  const { server, clock, turn } = await setup(t);
  const answer = turn({ maxRetries: 2 });
  for (let index = 0; index < 3; index++) {
    const held = await server.request(index);
    held.res.writeHead(200, SSE);
    // Destroyed once the headers and a comment are out: the break is in the body.
    held.res.write(': hm\n\n', () => held.res.socket?.destroy());
    if (index < 2) {
      await clock.untilSleeping(1);
      clock.advance(60_000);
    }
  }
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.regex(error.message, /broke while it was answering.*sent again and kept breaking/);
  t.is(server.requests.length, 3);
});

test('a connection dropped after output began is ZB_PROVIDER_INTERRUPTED with the partial text, and is not sent again', async (t) => {
  const { server, texts, turn } = await setup(t);
  const answer = turn();
  const held = await server.request(0);
  held.res.writeHead(200, SSE);
  held.res.write('data: t:Half an ans\n\n', () => held.res.socket?.destroy());
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_PROVIDER_INTERRUPTED');
  t.is(error.details?.partialText, 'Half an ans');
  t.regex(error.message, /kept in the session/);
  t.deepEqual(texts, ['Half an ans']);
  t.is(server.requests.length, 1);
});

test('a server that never sends headers fails with ZB_PROVIDER_TIMEOUT (first byte), once, not retried', async (t) => {
  const { server, turn } = await setup(t);
  const error = await t.throwsAsync<ZotboxError>(turn({ timeouts: { firstByteMs: 300, idleMs: 60_000 } }));
  t.is(error.code, 'ZB_PROVIDER_TIMEOUT');
  t.like(error.details, { timeout: 'first_byte', timeoutMs: 300 });
  t.regex(error.message, /ZOTBOX_MODEL_FIRST_BYTE_TIMEOUT/);
  t.is(server.requests.length, 1);
});

test('a server that sends headers and then nothing fails with ZB_PROVIDER_TIMEOUT (idle)', async (t) => {
  const { server, turn } = await setup(t);
  const answer = turn({ timeouts: { firstByteMs: 60_000, idleMs: 300 } });
  const held = await server.request(0);
  held.res.writeHead(200, SSE);
  held.res.flushHeaders();
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_PROVIDER_TIMEOUT');
  t.like(error.details, { timeout: 'idle', timeoutMs: 300 });
  t.is(error.details?.partialText, undefined);
  t.is(server.requests.length, 1);
});

test('silence after output began is a timeout that keeps the partial text', async (t) => {
  const { server, turn } = await setup(t);
  const answer = turn({ timeouts: { firstByteMs: 60_000, idleMs: 300 } });
  const held = await server.request(0);
  held.res.writeHead(200, SSE);
  held.res.write('data: t:so far\n\n');
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_PROVIDER_TIMEOUT');
  t.is(error.details?.partialText, 'so far');
});

test('HTTP 400 for a conversation too long for the model is ZB_MODEL_CONTEXT_EXCEEDED naming the window', async (t) => {
  const { server, turn } = await setup(t);
  const answer = turn();
  (await server.request(0)).res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'context_length_exceeded', message: 'too long' } }));
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_MODEL_CONTEXT_EXCEEDED');
  t.regex(error.message, /gpt-test's context window \(128,000 tokens\)/);
  t.like(error.details, { model: 'gpt-test', contextWindow: 128_000 });
});

test('another HTTP 400 stays ZB_PROVIDER_FAILED with the status', async (t) => {
  const { server, turn } = await setup(t);
  const answer = turn();
  (await server.request(0)).res.writeHead(400).end('{"error":{"message":"bad tools"}}');
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.is(error.details?.status, 400);
});

test('a 404 from an OpenAI-format base URL without a version suggests adding /v1', async (t) => {
  const { server, turn } = await setup(t, 'openai', '');
  const answer = turn();
  (await server.request(0)).res.writeHead(404).end('not found');
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.true(error.message.includes(`try ${server.base}/v1 `), error.message);
});

test('a 404 from an Anthropic base URL ending in /v1 suggests dropping it', async (t) => {
  const { server, turn } = await setup(t, 'anthropic', '/v1');
  const answer = turn();
  (await server.request(0)).res.writeHead(404).end('not found');
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.true(error.message.includes(`do not include /v1 (zotbox appends /v1/messages): try ${server.base}.`), error.message);
});

test('a connection dropped after output began without text (a tool call under way) is still interrupted, not sent again', async (t) => {
  const { server, turn } = await setup(t);
  const startsWithoutText = (text: string) => {
    throw new Error(`no text expected, got ${text}`);
  };
  const answer = turn({
    decoder: () => {
      const decoder = new TinyDecoder(startsWithoutText);
      // Output begins with the first event (as a tool call's start would), with no text.
      const push = decoder.push.bind(decoder);
      decoder.push = (event) => {
        if (event.data === 'tool') decoder.started = true;
        else push(event);
      };
      return decoder;
    },
  });
  const held = await server.request(0);
  held.res.writeHead(200, SSE);
  held.res.write('data: tool\n\n', () => held.res.socket?.destroy());
  const error = await t.throwsAsync<ZotboxError>(answer);
  t.is(error.code, 'ZB_PROVIDER_INTERRUPTED');
  t.is(error.details?.partialText, undefined);
  t.regex(error.message, /an unfinished tool call is never run/);
  t.is(server.requests.length, 1);
});
