// Cancelling one answer of an interactive run (issue 13, item 1): readPrompt may
// return its message with a signal of its own; aborting it stops the answer to that
// message (the model call and the command in flight, the answer's later tool calls)
// and the run goes on to the next message. The run's own signal still cancels
// everything. readPrompt is asked only once the caller has taken every earlier event.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, realpathSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runAgent, type RunAgentOptions } from '../../../src/host/run/run-agent.js';
import type { RunEvent } from '../../../src/host/run/run-events.js';
import { readSession } from '../../../src/host/run/sessions.js';
import type { ChatMessage } from '../../../src/policy/model-protocol.js';
import { holdModelServer } from '../../fixtures/held-model-server.js';
import { anthropicStream } from '../../fixtures/model-servers.js';
import { tempDir } from '../../fixtures/temp.js';

const usage = { input_tokens: 1, output_tokens: 1 };
type Options = RunAgentOptions & { reference: string; agent?: undefined; cwd: string };

/** An agent allowed to run `sleep` and `touch`, with the transcript's turns; no prompt (interactive). */
function chatAgent(t: ExecutionContext, turns: readonly object[]): Options {
  const root = realpathSync(tempDir(t, 'zb-answer-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'waiter', version: '1.0.0', permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['sleep', 'touch'] } } }),
  );
  const replayFile = path.join(root, 'chat.json');
  writeFileSync(replayFile, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns }));
  return { reference: agent, cwd: root, replayFile, yes: true, env: {}, stateDirectory: tempDir(t, 'zb-cancel-state-'), confine: 'off' }; // beside the workspace (unconfined)
}

async function collect(options: RunAgentOptions): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runAgent(options)) events.push(event);
  return events;
}

const end = (events: RunEvent[]) => events.at(-1) as RunEvent & { type: 'run.end' };
const sessionOf = (events: RunEvent[]) => readSession((events[0] as RunEvent & { type: 'run.start' }).session!.file).messages;
const textOf = (message: ChatMessage | undefined) => (message?.content ?? []).map((b) => (b.type === 'text' ? b.text : b.type)).join('|');

/** A sleep length unique to this test process, so pgrep finds only ours. */
const SLEEP = `3939.${process.pid}`;
function sleepPids(): number[] {
  try {
    return execFileSync('pgrep', ['-f', `^sleep ${SLEEP}$`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/**
 * Resolves once the sleep has exited: SIGKILL to a sandbox's processes is delivered
 * at once but they die when next scheduled, so on a busy machine the result can come
 * back a moment before they are gone. Awaits the kernel's exit event (a pidfd turns
 * readable) for each one still there, never the clock.
 */
async function sleepEnds(): Promise<number[]> {
  const script = 'import os, select, sys\ntry:\n    fd = os.pidfd_open(int(sys.argv[1]))\nexcept ProcessLookupError:\n    sys.exit(0)\nselect.select([fd], [], [])\n';
  await Promise.all(sleepPids().map((pid) => once(spawn('/usr/bin/python3', ['-c', script, String(pid)], { stdio: 'ignore' }), 'exit')));
  return sleepPids(); // none: the kill took them all (a sleep that was never killed keeps this waiting, and ava's timeout fails it)
}

const sleepingTurns = [
  {
    content: [
      { type: 'text', text: 'Waiting.' },
      { type: 'tool_use', id: 't1', name: 'bash', input: { command: `touch started | sleep ${SLEEP}` } },
      { type: 'tool_use', id: 't2', name: 'read', input: { path: 'started' } },
    ],
    stop: 'tool_use',
    usage,
  },
  { content: [{ type: 'text', text: 'Next answer.' }], stop: 'end', usage },
];

/** Aborts `controller` once the answer's command is running (`touch started | sleep` creates the file as the sleep starts). */
function abortWhenStarted(t: ExecutionContext, options: Options, controller: AbortController): void {
  const watcher = watch(options.cwd, (_event, name) => {
    if (name === 'started') controller.abort();
  });
  t.teardown(() => watcher.close());
}

test('cancelling an answer kills its command and refuses its later calls; the run asks for the next message and goes on', async (t) => {
  const options = chatAgent(t, sleepingTurns);
  const answer = new AbortController();
  abortWhenStarted(t, options, answer);
  const messages: (string | { text: string; signal: AbortSignal } | undefined)[] = [{ text: 'wait for an hour', signal: answer.signal }, 'and now?', undefined];
  const events = await collect({ ...options, readPrompt: async () => messages.shift() });

  t.true(answer.signal.aborted);
  t.deepEqual(await sleepEnds(), [], 'the command was killed');
  t.like(
    events.find((e) => e.type === 'tool.result' && e.id === 1),
    { ok: false },
  );
  t.like(
    events.find((e) => e.type === 'gate.decision' && e.id === 2),
    { allowed: false, code: 'ZB_GATE_CANCELLED' },
    'the call after the cancel is refused, not run',
  );
  t.like(end(events), { status: 'completed', final_text: 'Next answer.' });
  t.is(messages.length, 0, 'readPrompt was asked again after the cancelled answer, then once more');
  t.is(events.filter((e) => e.type === 'usage').length, 2, 'usage for the two model turns; none for the cancelled answer, which reached no model');
  const session = sessionOf(events);
  t.deepEqual(
    session.map((m) => m.role),
    ['user', 'assistant', 'user', 'assistant', 'user', 'assistant'],
  );
  t.is(textOf(session[2]), 'tool_result|tool_result', 'both calls have their (error) results');
  t.is(textOf(session[3]), '[answer cancelled by the user]');
  t.is(textOf(session[4]), 'and now?');
});

test('cancelling an answer while the model streams aborts the request; the text so far is kept and sent with the next message', async (t) => {
  const server = await holdModelServer(t);
  const options = chatAgent(t, sleepingTurns);
  const answer = new AbortController();
  const messages: (string | { text: string; signal: AbortSignal } | undefined)[] = [{ text: 'tell me a story', signal: answer.signal }, 'a short one', undefined];
  const run = runAgent({
    ...options,
    replayFile: undefined,
    model: 'claude-sonnet-4-5',
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base },
    readPrompt: async () => messages.shift(),
  });
  void server.request(0).then((first) => {
    first.res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (type: string, data: object) => first.res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('message_start', { message: { id: 'msg_1', usage: { input_tokens: 10, output_tokens: 1 } } });
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Once upon a time' } });
  });
  void server.request(1).then((second) => anthropicStream(second.res, { text: 'The end.' }, 2));
  const events: RunEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'assistant.delta' && event.text === 'Once upon a time') answer.abort();
  }
  t.like(end(events), { status: 'completed', final_text: 'The end.' });
  const sent = server.requests[1]!.body.messages as unknown as ChatMessage[];
  t.deepEqual(sent.map(textOf), ['tell me a story', 'Once upon a time\n\n[answer cancelled by the user]', 'a short one']);
  t.deepEqual(sessionOf(events).map(textOf), ['tell me a story', 'Once upon a time\n\n[answer cancelled by the user]', 'a short one', 'The end.']);
});

test("the run's own signal still cancels the whole run while an answer has a signal of its own", async (t) => {
  const options = chatAgent(t, sleepingTurns);
  const run = new AbortController();
  abortWhenStarted(t, options, run);
  let asked = 0;
  const events = await collect({
    ...options,
    signal: run.signal,
    readPrompt: async () => {
      asked++;
      return { text: 'wait', signal: new AbortController().signal };
    },
  });
  t.like(end(events), { status: 'cancelled', error: { code: 'ZB_GATE_CANCELLED' } });
  t.deepEqual(await sleepEnds(), [], 'the command was killed');
  t.is(asked, 1, 'a cancelled run asks for nothing more');
});

test('readPrompt is asked for the next message only once the caller has taken every event before it', async (t) => {
  const options = chatAgent(t, [{ content: [{ type: 'text', text: 'The answer.' }], stop: 'end', usage }]);
  const handled: string[] = [];
  let handledWhenAsked: string[] = [];
  let asked = 0;
  let onSecondAsk: () => void = () => undefined;
  const secondAsk = new Promise<void>((resolve) => (onSecondAsk = resolve));
  const run = runAgent({
    ...options,
    readPrompt: async () => {
      asked++;
      if (asked === 1) return 'question';
      handledWhenAsked = [...handled];
      onSecondAsk();
      return undefined;
    },
  });
  const eventLoopTurns = async (count: number) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  for await (const event of run) {
    // A slow caller: each event takes many turns of the event loop to handle, ended early if readPrompt is asked meanwhile (it must not be).
    await Promise.race([secondAsk, eventLoopTurns(2000)]);
    handled.push(event.type === 'assistant.delta' ? `delta:${event.text}` : event.type);
  }
  t.deepEqual(handledWhenAsked, ['run.start', 'delta:The answer.', 'usage']);
});
