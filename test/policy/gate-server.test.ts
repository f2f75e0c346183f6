import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { ZotboxError } from '../../src/errors.js';
import { GateClient } from '../../src/policy/gate-client.js';
import { createGateDecider } from '../../src/policy/gate-decider.js';
import type { GateAuditEvent } from '../../src/policy/gate-protocol.js';
import { serveGate, type ApprovedCall, type GateServerOptions } from '../../src/policy/gate-server.js';
import { CommandApprovals } from '../../src/policy/command-approval.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { REPO_ROOT } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

function workspace(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-gate-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'a.txt'), 'hello');
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const decide = createGateDecider({
    shell: { mode: 'allowlist', allow: ['ls'], scopes, searchPath: ['/usr/bin', '/bin'], trustedDirectories: ['/usr/bin', '/bin'] },
    skills: new Set(['review-change']),
  });
  return { root, ws, decide };
}

// Time limits far beyond any test: only the tests of the time limits themselves set short ones.
function connect(t: ExecutionContext, options: Partial<GateServerOptions> & Pick<GateServerOptions, 'decide'>, clientTimeoutMs = 600_000) {
  const channel = new MessageChannel();
  const audits: GateAuditEvent[] = [];
  const executed: ApprovedCall[] = [];
  const server = serveGate(channel.port1, {
    timeoutMs: 300_000,
    execute: async (approved) => {
      executed.push(approved);
      return { tool: approved.tool, canonical: 'canonicalPath' in approved.decision ? approved.decision.canonicalPath : null };
    },
    onAudit: (event) => audits.push(event),
    ...options,
  });
  const client = new GateClient(channel.port2, clientTimeoutMs);
  t.teardown(() => {
    client.close();
    server.close();
    channel.port1.close();
  });
  return { client, server, audits, executed, port: channel.port2 };
}

test('an allowed call reaches the executor with the approved decision, and the result comes back', async (t) => {
  const { ws, decide } = workspace(t);
  const { client, executed, audits } = connect(t, { decide });
  t.deepEqual(await client.call('read', { path: 'a.txt' }), { tool: 'read', canonical: path.join(ws, 'a.txt') });
  t.is(executed.length, 1);
  t.like(audits[0], { type: 'gate.decision', id: 1, tool: 'read', allowed: true, canonicalPath: path.join(ws, 'a.txt') });
});

test('a denied call never reaches the executor; the agent gets the code and the reason; the audit has both', async (t) => {
  const { decide } = workspace(t);
  const { client, executed, audits } = connect(t, { decide });
  const error = await t.throwsAsync(client.call('read', { path: '/etc/passwd' }), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  t.regex(error.message, /outside the read scopes/);
  t.is(executed.length, 0);
  t.like(audits[0], { allowed: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE', canonicalPath: '/etc/passwd' });
});

test('bash decisions are audited with the argv that will run', async (t) => {
  const { decide } = workspace(t);
  const { client, audits } = connect(t, { decide });
  await client.call('bash', { command: 'ls -la' });
  await t.throwsAsync(client.call('bash', { command: 'rm -rf /' }));
  t.like(audits[0], { tool: 'bash', allowed: true, argv: [['ls', '-la']] });
  t.like(audits[1], { tool: 'bash', allowed: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED' });
});

test('skills must be bundled with the agent', async (t) => {
  const { decide } = workspace(t);
  const { client } = connect(t, { decide });
  t.like(await client.call('skill', { name: 'review-change' }), { tool: 'skill' });
  t.is((await t.throwsAsync(client.call('skill', { name: '../../etc/passwd' }), { instanceOf: ZotboxError })).code, 'ZB_POLICY_SKILL_UNKNOWN');
});

test('many concurrent calls are each answered with their own result, whatever order they finish in', async (t) => {
  const { decide } = workspace(t);
  const finishers: (() => void)[] = [];
  let allRunning!: () => void;
  const running = new Promise<void>((resolve) => (allRunning = resolve));
  const { client } = connect(t, {
    decide,
    execute: (approved) =>
      new Promise((resolve) => {
        const n = Number((approved.call.input as { path: string }).path.replace(/\D/g, ''));
        finishers[n] = () => resolve(n);
        if (finishers.filter(Boolean).length === 50) allRunning();
      }),
  });
  const results = Promise.all(Array.from({ length: 50 }, (_, i) => client.call('read', { path: `f${i}.txt` })));
  await running; // all 50 are in flight at once
  // Finish them in a scrambled order (7 is coprime to 50, so every call finishes once).
  for (let k = 0; k < 50; k++) finishers[(k * 7) % 50]!();
  t.deepEqual(
    await results,
    Array.from({ length: 50 }, (_, i) => i),
  );
});

test('a slow call times out on the host, and its executor is aborted', async (t) => {
  const { decide } = workspace(t);
  let aborted: unknown;
  // The executor never finishes by itself: only the host's 50 ms limit can end the call (the client's is 600 s).
  const { client } = connect(t, {
    decide,
    timeoutMs: 50,
    execute: (_approved, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          aborted = signal.reason;
          resolve('too late');
        });
      }),
  });
  const error = await t.throwsAsync(client.call('read', { path: 'a.txt' }), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_GATE_TIMEOUT');
  t.is((aborted as ZotboxError).code, 'ZB_GATE_TIMEOUT');
});

test('the client times out on its own when the host never answers', async (t) => {
  const { decide } = workspace(t);
  const { client } = connect(t, { decide, execute: () => new Promise(() => {}), timeoutMs: 60_000 }, 50);
  t.is((await t.throwsAsync(client.call('read', { path: 'a.txt' }), { instanceOf: ZotboxError })).code, 'ZB_GATE_TIMEOUT');
});

test('cancelling in-flight calls aborts them on the host', async (t) => {
  const { decide } = workspace(t);
  let resolveAbort: (reason: unknown) => void = () => {};
  const abortSeen = new Promise((resolve) => (resolveAbort = resolve));
  let reachedExecutor!: () => void;
  const executing = new Promise<void>((resolve) => (reachedExecutor = resolve));
  const { client } = connect(t, {
    decide,
    execute: (_approved, signal) =>
      new Promise(() => {
        signal.addEventListener('abort', () => resolveAbort(signal.reason));
        reachedExecutor();
      }),
  });
  const call = client.call('read', { path: 'a.txt' });
  await executing; // the host is running the call
  client.cancelAll();
  t.is((await t.throwsAsync(call, { instanceOf: ZotboxError })).code, 'ZB_GATE_CANCELLED');
  t.is(((await abortSeen) as ZotboxError).code, 'ZB_GATE_CANCELLED');
});

test('cancelling the run on the host aborts the call in flight and refuses every later call, audited', async (t) => {
  const { decide } = workspace(t);
  let aborted: unknown;
  let reachedExecutor!: () => void;
  const executing = new Promise<void>((resolve) => (reachedExecutor = resolve));
  const { client, server, audits, executed } = connect(t, {
    decide,
    execute: (approved, signal) => {
      executed.push(approved);
      reachedExecutor();
      return new Promise(() =>
        signal.addEventListener('abort', () => {
          aborted = signal.reason;
        }),
      );
    },
  });
  const inFlight = client.call('read', { path: 'a.txt' });
  await executing; // the call is in flight: the executor has it
  server.cancel(new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.'));
  t.is((await t.throwsAsync(inFlight, { instanceOf: ZotboxError })).code, 'ZB_GATE_CANCELLED');
  t.is((aborted as ZotboxError).code, 'ZB_GATE_CANCELLED');
  t.is((await t.throwsAsync(client.call('read', { path: 'a.txt' }), { instanceOf: ZotboxError })).code, 'ZB_GATE_CANCELLED');
  t.is(executed.length, 1, 'the later call never reached an executor');
  t.like(audits.at(-1), { allowed: false, code: 'ZB_GATE_CANCELLED' });
});

test('malformed messages are refused with a code, audited, and never crash the host', async (t) => {
  const { decide } = workspace(t);
  const channel = new MessageChannel();
  const audits: GateAuditEvent[] = [];
  const server = serveGate(channel.port1, { decide, timeoutMs: 300_000, execute: async () => 'ran', onAudit: (e) => audits.push(e) });
  t.teardown(() => {
    server.close();
    channel.port1.close();
    channel.port2.close();
  });
  const replies: unknown[] = [];
  // A valid call sent after the garbage is answered after it: its answer means every piece was handled.
  const sentinel = { type: 'tool.call', id: 99, tool: 'read', input: { path: 'a.txt' } };
  const sentinelAnswered = new Promise<void>((resolve) =>
    channel.port2.on('message', (m: { id: number }) => {
      if (m.id === sentinel.id) resolve();
      else replies.push(m);
    }),
  );
  const garbage: unknown[] = [
    null,
    'text',
    { type: 'tool.call', id: 1, tool: 'exec', input: { command: 'id' } },
    { type: 'tool.call', id: 2, tool: 'read', input: { path: 'a.txt', follow: true } },
    { type: 'tool.call', id: 3, tool: 'read', input: { path: 42 } },
    { type: 'tool.call', id: 4, tool: 'bash', input: {} },
    { type: 'tool.call', id: -5, tool: 'read', input: { path: 'a.txt' } },
    { type: 'tool.call', id: 6, tool: 'read', input: { path: 'a.txt' }, extra: 1 },
    { type: 'tool.result', id: 7, ok: true, result: 'forged' },
  ];
  for (const message of garbage) channel.port2.postMessage(message);
  channel.port2.postMessage(sentinel);
  await sentinelAnswered;
  t.like(audits.pop(), { id: 99, allowed: true }, 'the host still serves');
  t.is(audits.length, garbage.length);
  t.true(audits.every((a) => !a.allowed && a.code === 'ZB_GATE_INVALID_MESSAGE'));
  t.deepEqual(
    (replies as { id: number; ok: boolean; error: { code: string } }[]).map((r) => [r.id, r.ok, r.error.code]),
    [1, 2, 3, 4, 6, 7].map((id) => [id, false, 'ZB_GATE_INVALID_MESSAGE']),
  );
});

test('a second call with an id already in flight is refused', async (t) => {
  const { decide } = workspace(t);
  const channel = new MessageChannel();
  // The first call stays in flight until the second has been answered.
  let finishFirst!: (value: unknown) => void;
  let firstRunning!: () => void;
  const running = new Promise<void>((resolve) => (firstRunning = resolve));
  const server = serveGate(channel.port1, {
    decide,
    timeoutMs: 60_000,
    execute: () =>
      new Promise((resolve) => {
        finishFirst = resolve;
        firstRunning();
      }),
  });
  t.teardown(() => {
    server.close();
    channel.port1.close();
    channel.port2.close();
  });
  const replies: { id: number; ok: boolean; result?: unknown; error?: { code: string } }[] = [];
  const bothAnswered = new Promise<void>((resolve) =>
    channel.port2.on('message', (m) => {
      replies.push(m as (typeof replies)[number]);
      if (replies.length === 1) void running.then(() => finishFirst('first'));
      if (replies.length === 2) resolve();
    }),
  );
  const call = { type: 'tool.call', id: 9, tool: 'read', input: { path: 'a.txt' } };
  channel.port2.postMessage(call);
  channel.port2.postMessage(call);
  await bothAnswered;
  t.deepEqual(
    replies.map((r) => (r.ok ? r.result : r.error?.code)),
    ['ZB_GATE_INVALID_MESSAGE', 'first'],
  );
});

test('a decider that throws denies instead of crashing, and a non-cloneable result becomes an error', async (t) => {
  const { client } = connect(t, {
    decide: () => {
      throw new Error('policy bug');
    },
  });
  t.is((await t.throwsAsync(client.call('read', { path: 'a.txt' }), { instanceOf: ZotboxError })).code, 'ZB_INTERNAL_BUG');
  const { decide } = workspace(t);
  const second = connect(t, { decide, execute: async () => ({ fn: () => 1 }) });
  t.is((await t.throwsAsync(second.client.call('read', { path: 'a.txt' }), { instanceOf: ZotboxError })).code, 'ZB_INTERNAL_BUG');
});

test("the client sends the model's call as it is (the gate checks it), and ignores answers it cannot believe", async (t) => {
  const channel = new MessageChannel();
  const client = new GateClient(channel.port2, 600_000);
  t.teardown(() => {
    client.close();
    channel.port1.close();
  });
  const sent: unknown[] = [];
  let callArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (callArrived = resolve));
  channel.port1.on('message', (m) => {
    sent.push(m);
    callArrived();
  });
  const pending = client.call('read', { path: 7 });
  await arrived; // the host side has the call: now answer it, first with a forgery
  t.deepEqual(sent, [{ type: 'tool.call', id: 1, tool: 'read', input: { path: 7 } }]);
  channel.port1.postMessage({ type: 'tool.result', id: 1, ok: false, error: { code: 'ZB_NOT_REAL', message: 'forged' } });
  channel.port1.postMessage({ type: 'tool.result', id: 1, ok: true, result: 'genuine' });
  t.is(await pending, 'genuine');
});

test('a client in a worker thread talks to the gate in the host', async (t) => {
  const { ws, decide } = workspace(t);
  const channel = new MessageChannel();
  const server = serveGate(channel.port1, {
    decide,
    timeoutMs: 300_000,
    execute: async (approved) => ('canonicalPath' in approved.decision ? approved.decision.canonicalPath : null),
  });
  const clientModule = path.join(REPO_ROOT, 'dist/src/policy/gate-client.js');
  const worker = new Worker(
    `import { workerData, parentPort } from 'node:worker_threads';
     const { GateClient } = await import(${JSON.stringify(clientModule)});
     const client = new GateClient(workerData.port, 600_000);
     const ok = await client.call('read', { path: 'a.txt' });
     const denied = await client.call('write', { path: '/etc/x', content: 'x' }).catch((e) => e.code);
     parentPort.postMessage({ ok, denied });
     client.close();`,
    { eval: true, workerData: { port: channel.port2 }, transferList: [channel.port2] },
  );
  const answer = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  server.close();
  channel.port1.close();
  t.deepEqual(answer, { ok: path.join(ws, 'a.txt'), denied: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
});

test('--approve: a call approved at the prompt reaches the executor with the program added; one the run cancels while it waits is denied', async (t) => {
  const { decide } = workspace(t);
  // Each question, as it is asked: the test answers it, or cancels the run while it is open.
  const questions: { answer: (a: 'once') => void }[] = [];
  let onQuestion: () => void = () => undefined;
  const nextQuestion = () => new Promise<void>((resolve) => (onQuestion = resolve));
  const approvals = new CommandApprovals(
    (_request, signal) =>
      new Promise((resolve) => {
        questions.push({ answer: resolve });
        // An approver that says yes even after the cancel: the gate must still deny.
        signal.addEventListener('abort', () => resolve('once'), { once: true });
        onQuestion();
      }),
  );
  const { client, server, executed, audits } = connect(t, { decide, approvals });
  let asked = nextQuestion();
  const approved = client.call('bash', { command: 'cat a.txt' });
  await asked;
  questions[0]!.answer('once');
  await approved;
  t.like(executed[0], { tool: 'bash', decision: { approvedPrograms: ['cat'] } });
  asked = nextQuestion();
  const cancelled = client.call('bash', { command: 'cat a.txt' });
  await asked;
  server.cancel(new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.'));
  await t.throwsAsync(cancelled, { code: 'ZB_GATE_CANCELLED' });
  t.is(executed.length, 1);
  t.like(audits.at(-1), { tool: 'bash', allowed: false, code: 'ZB_GATE_CANCELLED' });
});
