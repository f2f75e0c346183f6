// Finding: the answer's content type is never looked at, and a turn that broke
// before any output keeps the code of one that broke after it. A server or proxy
// that ignores stream: true answers 200 application/json with the whole answer:
// zotbox reads it as an event stream without events, sends the request four more
// times (each a full, billed generation), then reports ZB_PROVIDER_INTERRUPTED,
// which docs/events.md reserves for "the connection broke after the answer had
// started". Closed world: a body that is not text/event-stream is not understood,
// and says so. And after retries of a stream that never started, the code is
// ZB_PROVIDER_FAILED ("a connection that kept breaking before any output").
import test from 'ava';
import { endOf, runAgainst, type Provider } from './harness.js';

const WHOLE_ANSWER: Record<Provider, object> = {
  openai: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 2 },
  },
  anthropic: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: 'Hello.' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 5, output_tokens: 2 },
  },
};

for (const provider of ['anthropic', 'openai'] as const) {
  test(`${provider}: a 200 answer that is JSON, not an event stream, is refused as such and not sent again`, async (t) => {
    const { events, requests } = await runAgainst(t, provider, (_n, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(WHOLE_ANSWER[provider])));
    t.is(requests.length, 1, 'each attempt was a whole generation');
    t.like(endOf(events), { status: 'failed', error: { code: 'ZB_PROVIDER_FAILED' } });
  });

  test(`${provider}: a stream that keeps ending before any output fails ZB_PROVIDER_FAILED, not INTERRUPTED, after its retries`, async (t) => {
    const { events, requests } = await runAgainst(t, provider, (_n, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(': nothing yet\n\n'));
    t.is(requests.length, 5, 'sent again like a 5xx (documented)');
    t.like(endOf(events), { status: 'failed', error: { code: 'ZB_PROVIDER_FAILED' } });
  });
}
