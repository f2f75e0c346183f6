// Held: answers that break HTTP itself (not HTTP, a bad chunk, a body shorter than
// its content-length, a reset after the headers, trailing garbage after the last
// chunk) end the run as provider errors, never ZB_INTERNAL_BUG, a crash or an
// unhandled rejection (ava fails a test file on one), whether or not text had begun.
import test from 'ava';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { runAgent } from '../../src/host/run/run-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { agentFixture } from '../fixtures/model-servers.js';
import { endOf, fastEndpoints } from './harness.js';

const HEADERS = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n';
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
const TEXT = chunk('data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n');

const ANSWERS: Record<string, (socket: Socket) => void> = {
  'not HTTP at all': (s) => s.end('HELLO THERE\r\n\r\n'),
  'a chunk size that is not hex, after text': (s) => s.end(`${HEADERS}${TEXT}zz\r\nxx\r\n`),
  'a body shorter than its content-length, after text': (s) =>
    s.end('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: 500\r\n\r\ndata: {"choices":[{"delta":{"content":"a"}}]}\n\n'),
  'a reset right after the headers': (s) => {
    s.write(HEADERS);
    s.resetAndDestroy();
  },
  'garbage after the last chunk of a whole answer': (s) =>
    s.end(`${HEADERS}${TEXT}${chunk('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')}0\r\n\r\nHTTP/1.1 500 Oops\r\n\r\n`),
};

for (const [name, answer] of Object.entries(ANSWERS)) {
  test(`openai: ${name}`, async (t) => {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => answer(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { agent, ws, state } = agentFixture(t);
    const events: RunEvent[] = [];
    for await (const event of runAgent({
      reference: agent,
      cwd: ws,
      prompt: 'hi',
      yes: true,
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` },
      stateDirectory: state,
      confine: 'off',
      model: 'gpt-4.1',
      modelEndpoints: fastEndpoints(t),
    }))
      events.push(event);
    const end = endOf(events);
    t.log(end.status, end.error?.code ?? end.final_text);
    if (end.status === 'completed') t.is(end.final_text, 'Hel');
    else t.regex(end.error?.code ?? '', /^ZB_PROVIDER_(FAILED|INTERRUPTED)$/, JSON.stringify(end.error));
  });
}
