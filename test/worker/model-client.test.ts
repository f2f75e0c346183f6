// The worker side of the model port and its depth and size limits (issue 10 §6):
// a conversation too deep or too large is never sent, and an answer that breaks
// the limits fails the request it answers at once instead of leaving it waiting.
import test, { type ExecutionContext } from 'ava';
import type { ZotboxError } from '../../src/errors.js';
import { MAX_MESSAGE_BYTES } from '../../src/policy/message-limits.js';
import type { ChatMessage } from '../../src/policy/model-protocol.js';
import { ModelClient } from '../../src/worker/model-client.js';
import { DirectPort, nestedArray, nestedObject } from '../fixtures/direct-port.js';

function client(t: ExecutionContext) {
  const port = new DirectPort();
  const model = new ModelClient(port.asPort);
  t.teardown(() => model.close());
  return { port, model };
}

const go: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };
const usage = { input_tokens: 1, output_tokens: 1 };

async function codeAndLimit(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as ZotboxError | undefined;
  return { code: error?.code, limit: error?.details?.['limit'] };
}

test('a conversation holding a 5,000-deep tool input is refused before it is sent', async (t) => {
  const { port, model } = client(t);
  const deep: ChatMessage = { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read', input: { path: nestedArray(5000) } }] };
  t.deepEqual(await codeAndLimit(model.complete('s', [go, deep], [])), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'depth' });
  t.deepEqual(port.posted, []);
});

test('an answer too deep or too large fails its request at once; one for no request of ours is ignored', async (t) => {
  const { port, model } = client(t);
  const first = model.complete('s', [go], []);
  const { id } = (await port.nextPosted()) as { id: number };
  const deepTurn = { content: [{ type: 'tool_use', id: 't', name: 'read', input: nestedObject(5000) }], stop: 'tool_use', usage };
  port.deliver({ type: 'model.response', id: id + 100, ok: true, turn: deepTurn });
  port.deliver({ type: 'model.response', id, ok: true, turn: deepTurn });
  t.deepEqual(await codeAndLimit(first), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'depth' });
  const second = model.complete('s', [go], []);
  const { id: secondId } = (await port.nextPosted()) as { id: number };
  port.deliver({ type: 'model.response', id: secondId, ok: true, turn: { content: [{ type: 'text', text: 'x'.repeat(MAX_MESSAGE_BYTES + 1) }], stop: 'end', usage } });
  t.deepEqual(await codeAndLimit(second), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'size' });
  const third = model.complete('s', [go], []);
  const { id: thirdId } = (await port.nextPosted()) as { id: number };
  port.deliver({ type: 'model.response', id: thirdId, ok: true, turn: { content: [{ type: 'text', text: 'fine' }], stop: 'end', usage } });
  t.like(await third, { content: [{ type: 'text', text: 'fine' }] });
});
