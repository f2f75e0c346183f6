// The host side of the model port and its depth and size limits (issue 10 §6):
// a model turn or a worker message too deep or too large is refused as an
// invalid message before it reaches the worker, the session or a transcript.
import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../src/errors.js';
import { serveModel } from '../../../src/host/models/model-server.js';
import type { ModelProvider } from '../../../src/host/providers/provider.js';
import { RecordingProvider } from '../../../src/host/providers/recording.js';
import { MAX_MESSAGE_BYTES } from '../../../src/policy/message-limits.js';
import type { AssistantTurn, ChatMessage } from '../../../src/policy/model-protocol.js';
import { DirectPort, nestedArray, nestedObject } from '../../fixtures/direct-port.js';
import { tempDir } from '../../fixtures/temp.js';

const usage = { input_tokens: 1, output_tokens: 1 };
const toolTurn = (input: unknown): AssistantTurn => ({ content: [{ type: 'tool_use', id: 't1', name: 'read', input: input as Record<string, unknown> }], stop: 'tool_use', usage });
const request = (id: number, messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }]) => ({ type: 'model.request', id, system: 's', messages, tools: [] });

/** A provider that answers with the given turns in order. */
function scripted(turns: AssistantTurn[]): ModelProvider & { calls: number } {
  return {
    model: 'scripted',
    calls: 0,
    async complete() {
      this.calls++;
      const turn = turns.shift();
      if (turn === undefined) throw new Error('the script ran out');
      return turn;
    },
  };
}

function serve(t: ExecutionContext, provider: ModelProvider) {
  const port = new DirectPort();
  const recorded: AssistantTurn[] = [];
  const server = serveModel(port.asPort, provider, { onText: () => {}, onTurn: (turn) => recorded.push(turn) }, new AbortController().signal);
  t.teardown(() => server.close());
  return { port, recorded };
}

const refusedFor = (limit: 'depth' | 'size') => ({ type: 'model.response', ok: false, error: { code: 'ZB_GATE_INVALID_MESSAGE', details: { limit } } });

test('a model turn whose tool input is 5,000 deep is refused as an invalid message, and reaches neither the worker nor the session', async (t) => {
  const provider = scripted([toolTurn({ path: nestedArray(5000) }), toolTurn(nestedObject(5000)), toolTurn({ path: 'a.txt' })]);
  const { port, recorded } = serve(t, provider);
  port.deliver(request(1));
  t.like(await port.nextPosted(), { id: 1, ...refusedFor('depth') });
  port.deliver(request(2));
  t.like(await port.nextPosted(), { id: 2, ...refusedFor('depth') });
  port.deliver(request(3));
  t.like(await port.nextPosted(), { id: 3, ok: true, turn: toolTurn({ path: 'a.txt' }) });
  t.deepEqual(recorded, [toolTurn({ path: 'a.txt' })], 'only the turn within the limits was recorded');
});

test('a model turn past the size limit is refused by size', async (t) => {
  const { port, recorded } = serve(t, scripted([{ content: [{ type: 'text', text: 'x'.repeat(MAX_MESSAGE_BYTES + 1) }], stop: 'end', usage }]));
  port.deliver(request(1));
  t.like(await port.nextPosted(), { id: 1, ...refusedFor('size') });
  t.deepEqual(recorded, []);
});

test('a request from the worker too deep for the port is refused before the provider is asked', async (t) => {
  const provider = scripted([]);
  const { port } = serve(t, provider);
  const deepTurn: ChatMessage = { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read', input: { path: nestedObject(5000) } }] };
  port.deliver(request(1, [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, deepTurn]));
  t.like(await port.nextPosted(), { id: 1, ...refusedFor('depth') });
  t.is(provider.calls, 0);
});

test('--record refuses the same turns: nothing is recorded, and no transcript is written', async (t) => {
  const recorder = new RecordingProvider(scripted([toolTurn({ path: nestedArray(5000) })]));
  const error = await t.throwsAsync(recorder.complete({ system: 's', messages: [], tools: [] }, () => {}, new AbortController().signal));
  t.like(error, { code: 'ZB_GATE_INVALID_MESSAGE', details: { limit: 'depth' } });
  t.deepEqual(recorder.turns, []);
  const file = path.join(tempDir(t, 'zb-record-'), 'transcript.json');
  recorder.write(file);
  t.false(existsSync(file));
});

test('an answer that broke off after its text began: the worker gets the error, the session gets the partial text as the last assistant message', async (t) => {
  const port = new DirectPort();
  const partials: (readonly ChatMessage[])[] = [];
  const broken: ModelProvider = {
    model: 'broken',
    complete: async () => {
      throw new ZotboxError('ZB_PROVIDER_INTERRUPTED', 'the connection broke.', { details: { partialText: 'Half of it' } });
    },
  };
  const server = serveModel(port.asPort, broken, { onText: () => {}, onTurn: () => {}, onPartial: (conversation) => partials.push(conversation) }, new AbortController().signal);
  t.teardown(() => server.close());
  port.deliver(request(1));
  t.like(await port.nextPosted(), { type: 'model.response', id: 1, ok: false, error: { code: 'ZB_PROVIDER_INTERRUPTED', details: { partialText: 'Half of it' } } });
  t.deepEqual(partials, [
    [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Half of it' }] },
    ],
  ]);
});

test('an error without partial text records nothing', async (t) => {
  const port = new DirectPort();
  let partials = 0;
  const failing: ModelProvider = {
    model: 'failing',
    complete: async () => {
      throw new ZotboxError('ZB_PROVIDER_FAILED', 'HTTP 500.', { details: { status: 500 } });
    },
  };
  const server = serveModel(port.asPort, failing, { onText: () => {}, onTurn: () => {}, onPartial: () => partials++ }, new AbortController().signal);
  t.teardown(() => server.close());
  port.deliver(request(1));
  t.like(await port.nextPosted(), { ok: false, error: { code: 'ZB_PROVIDER_FAILED' } });
  t.is(partials, 0);
});
