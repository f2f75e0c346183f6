// The gate's depth and size limits on both sides of its port (issue 10 §6):
// the server refuses a message too deep or too large as an invalid message,
// audited, and goes on serving; the client never sends one and refuses an
// answer that breaks them. Never ZB_INTERNAL_BUG, never a stack overflow.
import test, { type ExecutionContext } from 'ava';
import { MessageChannel } from 'node:worker_threads';
import { ZotboxError } from '../../src/errors.js';
import { GateClient } from '../../src/policy/gate-client.js';
import type { GateAuditEvent, ToolCall } from '../../src/policy/gate-protocol.js';
import { serveGate, type ApprovedCall, type GateVerdict } from '../../src/policy/gate-server.js';
import { MAX_MESSAGE_BYTES, MAX_WRITE_CONTENT_BYTES } from '../../src/policy/message-limits.js';
import { DirectPort, nestedArray, nestedObject } from '../fixtures/direct-port.js';

/** Allows every read and write of any path: these tests are about messages, not paths. */
function allowAll(call: ToolCall): GateVerdict {
  if (call.tool !== 'read' && call.tool !== 'write') return { allow: false, code: 'ZB_POLICY_NO_PERMISSION', reason: 'only read and write here.', audit: {} };
  return { allow: true, approved: { tool: call.tool, call, decision: { allow: true, canonicalPath: `/ws/${call.input.path}` } } as ApprovedCall, audit: {} };
}

function directServer(t: ExecutionContext, execute: (approved: ApprovedCall) => Promise<unknown> = async (approved) => approved.tool) {
  const port = new DirectPort();
  const audits: GateAuditEvent[] = [];
  const decided: ToolCall[] = [];
  const server = serveGate(port.asPort, {
    decide: (call) => (decided.push(call), allowAll(call)),
    execute,
    onAudit: (event) => audits.push(event),
    timeoutMs: 60_000,
  });
  t.teardown(() => server.close());
  return { port, audits, decided };
}

interface WireAnswer {
  readonly id: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: { code: string; details?: Record<string, unknown> };
}

const refusedFor = (limit: 'depth' | 'size') => ({ ok: false, error: { code: 'ZB_GATE_INVALID_MESSAGE', details: { limit } } });

test('server: 5,000-deep arrays and objects are refused as invalid messages, audited, never decided; the server goes on', async (t) => {
  const { port, audits, decided } = directServer(t);
  port.deliver({ type: 'tool.call', id: 1, tool: 'read', input: { path: nestedArray(5000) } });
  t.like(await port.nextPosted(), { type: 'tool.result', id: 1, ...refusedFor('depth') });
  port.deliver({ type: 'tool.call', id: 2, tool: 'read', input: nestedObject(5000) });
  t.like(await port.nextPosted(), { id: 2, ...refusedFor('depth') });
  port.deliver({ type: 'tool.call', id: 3, tool: 'read', input: { path: 'a.txt' } });
  t.like(await port.nextPosted(), { id: 3, ok: true, result: 'read' });
  t.deepEqual(
    decided.map((call) => call.id),
    [3],
  );
  t.like(audits[0], { id: 1, tool: 'read', allowed: false, code: 'ZB_GATE_INVALID_MESSAGE' });
  t.like(audits[1], { id: 2, allowed: false, code: 'ZB_GATE_INVALID_MESSAGE' });
});

test('server: a message that is only deep where no input is expected is refused too', async (t) => {
  const { port } = directServer(t);
  port.deliver({ type: 'tool.call', id: 4, tool: 'read', input: { path: 'a.txt' }, extra: nestedArray(5000) });
  t.like(await port.nextPosted(), { id: 4, ...refusedFor('depth') });
});

test('server: a wide, shallow input within the limits reaches the schema, which refuses its unknown keys', async (t) => {
  const { port } = directServer(t);
  const input: Record<string, string> = { path: 'a.txt' };
  for (let i = 0; i < 100_000; i++) input[`k${i}`] = 'v';
  port.deliver({ type: 'tool.call', id: 5, tool: 'read', input });
  const answer = (await port.nextPosted()) as WireAnswer;
  t.like(answer, { id: 5, ok: false, error: { code: 'ZB_GATE_INVALID_MESSAGE' } });
  t.is(answer.error?.details, undefined, 'a schema refusal, not a limit');
});

test('server: a huge string and a wide array past the size limit are refused by size', async (t) => {
  const { port, decided } = directServer(t);
  port.deliver({ type: 'tool.call', id: 6, tool: 'write', input: { path: 'a.txt', content: 'x'.repeat(MAX_MESSAGE_BYTES + 1) } });
  t.like(await port.nextPosted(), { id: 6, ...refusedFor('size') });
  port.deliver({ type: 'tool.call', id: 7, tool: 'read', input: { path: 'a.txt', wide: new Array(MAX_MESSAGE_BYTES / 8).fill(0) } });
  t.like(await port.nextPosted(), { id: 7, ...refusedFor('size') });
  t.deepEqual(decided, []);
});

test('server: an executor result too deep or too large is answered with the limit error, not an internal bug', async (t) => {
  const results = [nestedArray(5000), { text: 'x'.repeat(MAX_MESSAGE_BYTES + 1) }];
  const { port } = directServer(t, async () => results.shift());
  port.deliver({ type: 'tool.call', id: 8, tool: 'read', input: { path: 'a.txt' } });
  t.like(await port.nextPosted(), { id: 8, ...refusedFor('depth') });
  port.deliver({ type: 'tool.call', id: 9, tool: 'read', input: { path: 'a.txt' } });
  t.like(await port.nextPosted(), { id: 9, ...refusedFor('size') });
});

function directClient(t: ExecutionContext) {
  const port = new DirectPort();
  // The time limit is far away: every answer here must come from an event, not a timeout.
  const client = new GateClient(port.asPort, 600_000);
  t.teardown(() => client.close());
  return { port, client };
}

async function codeAndLimit(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as ZotboxError | undefined;
  return { code: error?.code, limit: error?.details?.['limit'] };
}

test('client: 5,000-deep inputs and huge strings never travel; the gate is told each call was refused, and why', async (t) => {
  const { port, client } = directClient(t);
  t.deepEqual(await codeAndLimit(client.call('read', { path: nestedArray(5000) })), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'depth' });
  t.deepEqual(await codeAndLimit(client.call('read', nestedObject(5000) as Record<string, unknown>)), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'depth' });
  t.deepEqual(await codeAndLimit(client.call('write', { path: 'a', content: 'x'.repeat(MAX_MESSAGE_BYTES + 1) })), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'size' });
  t.deepEqual(
    port.posted.map((m) => ({ ...(m as Record<string, unknown>), reason: typeof (m as { reason?: unknown }).reason })),
    [
      { type: 'tool.refused', id: 1, tool: 'read', code: 'ZB_GATE_INVALID_MESSAGE', reason: 'string' },
      { type: 'tool.refused', id: 2, tool: 'read', code: 'ZB_GATE_INVALID_MESSAGE', reason: 'string' },
      { type: 'tool.refused', id: 3, tool: 'write', code: 'ZB_GATE_INVALID_MESSAGE', reason: 'string' },
    ],
  );
});

test('server: a refused-call notice is reported and audited as a denial, answered with it, never decided or run', async (t) => {
  const port = new DirectPort();
  const audits: GateAuditEvent[] = [];
  const announced: unknown[] = [];
  let decided = 0;
  const server = serveGate(port.asPort, {
    onCall: (call) => announced.push(call),
    decide: (call) => (decided++, allowAll(call)),
    execute: async () => 'ran',
    onAudit: (event) => audits.push(event),
    timeoutMs: 60_000,
  });
  t.teardown(() => server.close());
  port.deliver({ type: 'tool.refused', id: 4, tool: 'write', code: 'ZB_GATE_INVALID_MESSAGE', reason: 'the write call is too large.' });
  // Answered with the refusal itself, so the worker knows it was reported; never executed.
  t.like(await port.nextPosted(), { id: 4, ok: false, error: { code: 'ZB_GATE_INVALID_MESSAGE', message: 'the write call is too large.' } });
  port.deliver({ type: 'tool.call', id: 5, tool: 'read', input: { path: 'a.txt' } });
  t.like(await port.nextPosted(), { id: 5, ok: true });
  t.deepEqual(announced, [
    { id: 4, tool: 'write', input: {} },
    { id: 5, tool: 'read', input: { path: 'a.txt' } },
  ]);
  t.like(audits[0], { id: 4, allowed: false, code: 'ZB_GATE_INVALID_MESSAGE', reason: 'the write call is too large.' });
  t.is(decided, 1);
});

test('client: an answer too deep or too large fails its call with the limit at once; one for no call of ours is ignored', async (t) => {
  const { port, client } = directClient(t);
  const first = client.call('read', { path: 'a.txt' });
  const { id } = (await port.nextPosted()) as { id: number };
  port.deliver({ type: 'tool.result', id: id + 100, ok: true, result: nestedArray(5000) });
  port.deliver({ type: 'tool.result', id, ok: true, result: nestedObject(5000) });
  t.deepEqual(await codeAndLimit(first), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'depth' });
  const second = client.call('read', { path: 'a.txt' });
  const { id: secondId } = (await port.nextPosted()) as { id: number };
  port.deliver({ type: 'tool.result', id: secondId, ok: true, result: 'x'.repeat(MAX_MESSAGE_BYTES + 1) });
  t.deepEqual(await codeAndLimit(second), { code: 'ZB_GATE_INVALID_MESSAGE', limit: 'size' });
});

test('through a real port: the largest write arrives whole; content past 64 MiB as UTF-8 is refused', async (t) => {
  const channel = new MessageChannel();
  const written: number[] = [];
  const server = serveGate(channel.port1, {
    decide: allowAll,
    execute: async (approved) => (approved.tool === 'write' ? written.push(approved.call.input.content.length) : 0),
    timeoutMs: 60_000,
  });
  const client = new GateClient(channel.port2, 600_000);
  t.teardown(() => {
    client.close();
    server.close();
    channel.port1.close();
  });
  await client.call('write', { path: 'big.txt', content: 'x'.repeat(MAX_WRITE_CONTENT_BYTES) });
  t.deepEqual(written, [MAX_WRITE_CONTENT_BYTES]);
  // Half as many characters, but two UTF-8 bytes each: one byte over.
  const accented = 'é'.repeat(MAX_WRITE_CONTENT_BYTES / 2) + 'x';
  t.true(accented.length < MAX_WRITE_CONTENT_BYTES);
  const error = await t.throwsAsync(client.call('write', { path: 'big.txt', content: accented }), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_GATE_INVALID_MESSAGE');
  t.regex(error.message, /as UTF-8/);
  t.deepEqual(written, [MAX_WRITE_CONTENT_BYTES], 'the oversized write never reached the executor');
});

test('through a real port: a deep input that structured clone can still carry is refused by the server', async (t) => {
  const channel = new MessageChannel();
  const audits: GateAuditEvent[] = [];
  const server = serveGate(channel.port1, { decide: allowAll, execute: async () => 'ran', onAudit: (event) => audits.push(event), timeoutMs: 60_000 });
  t.teardown(() => {
    server.close();
    channel.port1.close();
    channel.port2.close();
  });
  const answered = new Promise<WireAnswer>((resolve) => channel.port2.once('message', resolve));
  channel.port2.postMessage({ type: 'tool.call', id: 1, tool: 'read', input: { path: nestedObject(1000) } });
  t.like(await answered, { id: 1, ...refusedFor('depth') });
  t.like(audits, [{ allowed: false, code: 'ZB_GATE_INVALID_MESSAGE' }]);
});
