// A model server is untrusted: what zotbox reads from it is bounded. An endless
// stream line or event ends the stream with ZB_PROVIDER_FAILED; an error answer's
// body is read only as far as its message needs, and the connection is dropped.
import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ZotboxError } from '../../../src/errors.js';
import { MAX_EVENT_CHARS, readServerSentEvents } from '../../../src/host/providers/sse.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import { OpenAiProvider } from '../../../src/host/providers/openai.js';

async function* chunks(pieces: Iterable<string>): AsyncGenerator<string> {
  for (const piece of pieces) yield piece;
}

async function drain(events: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of events) count++;
  return count;
}

const MiB = 'x'.repeat(1024 * 1024);

test('a stream line that never ends is refused once it passes the limit', async (t) => {
  const endless = function* () {
    yield 'data: ';
    for (let i = 0; i <= MAX_EVENT_CHARS / MiB.length; i++) yield MiB;
  };
  const error = await t.throwsAsync<ZotboxError>(drain(readServerSentEvents(chunks(endless()))));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
});

test('an event of many data lines is refused once its data passes the limit', async (t) => {
  const lines = function* () {
    for (let i = 0; i <= MAX_EVENT_CHARS / MiB.length; i++) yield `data: ${MiB}\n`;
  };
  const error = await t.throwsAsync<ZotboxError>(drain(readServerSentEvents(chunks(lines()))));
  t.is(error.code, 'ZB_PROVIDER_FAILED');
});

test('events under the limit, however many, are read', async (t) => {
  const many = function* () {
    for (let i = 0; i < 40; i++) yield `data: ${MiB}\n\n`;
  };
  t.is(await drain(readServerSentEvents(chunks(many()))), 40);
});

test('a 400 with a 32 MiB body fails with its status, and the rest of the body is never read', async (t) => {
  let closedEarly: Promise<boolean> = Promise.resolve(false);
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'text/plain' });
    closedEarly = new Promise((resolve) => {
      res.on('close', () => resolve(!res.writableFinished));
    });
    let sent = 0;
    const pump = () => {
      while (sent < 32 && res.write(`bad request ${MiB}`)) sent++;
      if (sent >= 32) res.end();
      else res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const endpoints = new ModelEndpoints();
  t.teardown(() => endpoints.close());
  const provider = new OpenAiProvider({ model: 'gpt-4.1', apiKey: 'k', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, endpoints });
  const error = await t.throwsAsync<ZotboxError>(
    provider.complete({ system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] }, () => undefined, new AbortController().signal),
  );
  t.is(error.code, 'ZB_PROVIDER_FAILED');
  t.regex(error.message, /HTTP 400.*bad request x/);
  t.true(await closedEarly, 'the connection was dropped before the server finished sending');
});
