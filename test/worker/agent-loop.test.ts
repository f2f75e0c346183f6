// The agent loop on its own, with a scripted model and a fake gate: it runs the
// model's tool calls, hands denials back as tool errors and carries on, and
// stops on an answer without tool calls, the turn limit, or cancellation.
import test from 'ava';
import { ZotboxError } from '../../src/errors.js';
import type { AssistantTurn, ChatMessage } from '../../src/policy/model-protocol.js';
import { OUTPUT_LIMIT_NOTICE, runAgentLoop } from '../../src/worker/agent-loop.js';
import { toolsFor } from '../../src/worker/tools.js';

const usage = { input_tokens: 1, output_tokens: 1 };
const say = (text: string): AssistantTurn => ({ content: [{ type: 'text', text }], stop: 'end', usage });
const call = (id: string, name: string, input: Record<string, unknown>): AssistantTurn => ({ content: [{ type: 'tool_use', id, name, input }], stop: 'tool_use', usage });

function scriptedModel(turns: AssistantTurn[]) {
  const seen: ChatMessage[][] = [];
  return {
    seen,
    complete: async (_system: string, messages: readonly ChatMessage[]) => {
      seen.push([...messages]);
      const next = turns.shift();
      if (next === undefined) throw new Error('the script ran out');
      return next;
    },
  };
}

const tools = toolsFor({ bashAvailable: false, hasSkills: false });

/** A fake gate: `call` as given; reports of calls not run are kept in `reported`. */
function fakeGate(call: (tool: string, input: Record<string, unknown>) => Promise<unknown>) {
  const reported: { tool: string; input: Record<string, unknown>; code: string }[] = [];
  return { call, reported, report: async (tool: string, input: Record<string, unknown>, code: string) => void reported.push({ tool, input, code }) };
}

test('tool results go back to the model; a denial is a tool error and the run continues to the answer', async (t) => {
  const model = scriptedModel([call('a', 'read', { path: 'x' }), call('b', 'read', { path: '/etc/shadow' }), say('done')]);
  const gate = fakeGate(async (_tool, input) => {
    if (String(input['path']).startsWith('/etc')) throw new ZotboxError('ZB_POLICY_PATH_OUTSIDE_SCOPE', '/etc/shadow is outside the read scope.');
    return 'contents';
  });
  const result = await runAgentLoop(gate, model, { system: 's', prompts: ['go'], tools, maxTurns: 10 });
  t.like(result, { status: 'completed', finalText: 'done', turns: 3 });
  t.deepEqual(model.seen[1]!.at(-1), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'contents', is_error: false }] });
  t.deepEqual(model.seen[2]!.at(-1), {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'b', content: 'error: ZB_POLICY_PATH_OUTSIDE_SCOPE: /etc/shadow is outside the read scope.', is_error: true }],
  });
});

test('every tool call goes to the gate, whatever its name: the gate refuses one it does not know, and the model reads why', async (t) => {
  const model = scriptedModel([call('a', 'bash', { command: 'ls' }), call('b', 'launch_missiles', { now: true }), say('ok')]);
  const asked: string[] = [];
  const gate = fakeGate(async (tool) => {
    asked.push(tool);
    throw new ZotboxError('ZB_GATE_INVALID_MESSAGE', `the gate refused a malformed message: no tool named ${tool}.`);
  });
  const result = await runAgentLoop(gate, model, { system: 's', prompts: ['go'], tools, maxTurns: 5 });
  t.is(result.status, 'completed');
  t.deepEqual(asked, ['bash', 'launch_missiles']);
  t.like(model.seen[1]!.at(-1)!.content[0], { is_error: true, content: 'error: ZB_GATE_INVALID_MESSAGE: the gate refused a malformed message: no tool named bash.' });
});

test('history comes before the new prompt; the turn limit and cancellation stop the loop', async (t) => {
  const history: ChatMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'earlier' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'reply' }] },
  ];
  const looping = scriptedModel([call('a', 'read', { path: 'x' }), call('b', 'read', { path: 'x' })]);
  const limited = await runAgentLoop(
    fakeGate(async () => 'c'),
    looping,
    { system: 's', prompts: ['now'], history, tools, maxTurns: 2 },
  );
  t.like(limited, { status: 'max_turns', turns: 2 });
  t.deepEqual(
    looping.seen[0]!.map((m) => (m.content[0] as { text: string }).text),
    ['earlier', 'reply', 'now'],
  );

  const controller = new AbortController();
  const cancelling = scriptedModel([call('a', 'read', { path: 'x' }), say('never')]);
  const gate = fakeGate(async () => (controller.abort(), 'c'));
  const cancelled = await runAgentLoop(gate, cancelling, { system: 's', prompts: ['go'], tools, maxTurns: 5, signal: controller.signal });
  t.like(cancelled, { status: 'cancelled', turns: 1 });
  t.is(cancelling.seen.length, 1, 'no model turn after the cancel');
});

test('an answer cut off by the output limit is not an answer: the model is told and goes on; empty content is never sent back', async (t) => {
  const cut: AssistantTurn = { content: [], stop: 'max_tokens', usage };
  const model = scriptedModel([cut, say('finished')]);
  const result = await runAgentLoop(
    fakeGate(async () => 'c'),
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 5 },
  );
  t.like(result, { status: 'completed', finalText: 'finished', turns: 2 });
  const sent = model.seen[1]!;
  t.deepEqual(sent[1], { role: 'assistant', content: [{ type: 'text', text: '[output cut off]' }] });
  t.like(sent[2]!.content[0], { type: 'text', text: OUTPUT_LIMIT_NOTICE });
});

test('a conversation that outgrows its limit is not sent: the run fails with ZB_MODEL_CONTEXT_EXCEEDED after the last request that fit', async (t) => {
  const big = 'x'.repeat(5_000);
  const model = scriptedModel([call('a', 'read', { path: 'x' }), call('b', 'read', { path: 'y' }), say('never reached')]);
  const gate = fakeGate(async () => big);
  const result = await runAgentLoop(gate, model, {
    system: 's',
    prompts: ['go'],
    tools,
    maxTurns: 10,
    maxConversationChars: 8_000,
    model: { id: 'small-model', contextWindow: 1_000 },
  });
  t.like(result, { status: 'failed', turns: 2 });
  t.is(result.error?.code, 'ZB_MODEL_CONTEXT_EXCEEDED');
  t.regex(result.error?.message ?? '', /small-model's context window \(1,000 tokens\)/);
  // The first request (prompt) and the second (one 5,000-character result) fit; the third (two results) would not.
  t.is(model.seen.length, 2);
});

test('without a limit, or under it, the loop runs to its answer', async (t) => {
  const model = scriptedModel([call('a', 'read', { path: 'x' }), say('done')]);
  const result = await runAgentLoop(
    fakeGate(async () => 'x'.repeat(5_000)),
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 10, maxConversationChars: 20_000 },
  );
  t.like(result, { status: 'completed', finalText: 'done' });
});

test('a failure after some turns reports the turns and the text completed before it', async (t) => {
  const model = scriptedModel([
    {
      content: [
        { type: 'text', text: 'looking' },
        { type: 'tool_use', id: 'a', name: 'read', input: { path: 'x' } },
      ],
      stop: 'tool_use',
      usage,
    },
    call('b', 'read', { path: 'y' }),
  ]);
  const result = await runAgentLoop(
    fakeGate(async () => 'c'),
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 10 },
  );
  // The script runs out on the third request: a fault in the model call.
  t.like(result, { status: 'failed', turns: 2, finalText: '' });
  t.is(result.error?.code, 'ZB_INTERNAL_BUG');
  t.is(result.messages.length, 5, 'the prompt, then two answers, each with its results');
});

test('a refusal ends the run as refused, with the refusal text; nothing more is asked', async (t) => {
  const model = scriptedModel([{ content: [{ type: 'text', text: 'I cannot help with that.' }], stop: 'refusal', usage }, say('never')]);
  const result = await runAgentLoop(
    fakeGate(async () => 'c'),
    model,
    { system: 's', prompts: ['go', 'and then'], tools, maxTurns: 10 },
  );
  t.like(result, { status: 'refused', finalText: 'I cannot help with that.', turns: 1 });
  t.is(model.seen.length, 1);
});

test('a refusal with no text is still refused, and the empty answer is recorded with a placeholder', async (t) => {
  const model = scriptedModel([{ content: [], stop: 'refusal', usage }]);
  const result = await runAgentLoop(
    fakeGate(async () => 'c'),
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 10 },
  );
  t.like(result, { status: 'refused', finalText: '', turns: 1 });
  t.deepEqual(result.messages.at(-1), { role: 'assistant', content: [{ type: 'text', text: '[no output]' }] });
});

test('a content filter stop ends the run as content_filtered, keeping the text received', async (t) => {
  const model = scriptedModel([{ content: [{ type: 'text', text: 'Here is the part bef' }], stop: 'content_filter', usage }, say('never')]);
  const result = await runAgentLoop(
    fakeGate(async () => 'c'),
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 10 },
  );
  t.like(result, { status: 'content_filtered', finalText: 'Here is the part bef', turns: 1 });
});

test('a paused turn is sent back as it is and continued; the continuation completes the same assistant message', async (t) => {
  const paused: AssistantTurn = { content: [{ type: 'text', text: 'Searching... ' }], stop: 'pause_turn', usage };
  const model = scriptedModel([paused, say('found it')]);
  const result = await runAgentLoop(
    fakeGate(async () => 'c'),
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 10 },
  );
  t.like(result, { status: 'completed', finalText: 'Searching... found it', turns: 2 });
  t.deepEqual(model.seen[1], [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Searching... ' }] },
  ]);
});

test('pauses count toward the turn limit', async (t) => {
  const paused = (text: string): AssistantTurn => ({ content: [{ type: 'text', text }], stop: 'pause_turn', usage });
  const model = scriptedModel([paused('a'), paused('b'), paused('c'), say('never')]);
  const result = await runAgentLoop(
    fakeGate(async () => 'c'),
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 2 },
  );
  t.like(result, { status: 'max_turns', turns: 2 });
  t.is(model.seen.length, 2);
  // Two pauses are one assistant message: the second continued the first.
  t.deepEqual(result.messages.at(-1), {
    role: 'assistant',
    content: [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ],
  });
});

test('a paused turn with no text adds no empty assistant message; its tool calls are never run', async (t) => {
  const paused: AssistantTurn = { content: [{ type: 'tool_use', id: 'p', name: 'read', input: { path: 'x' } }], stop: 'pause_turn', usage };
  const model = scriptedModel([paused, say('done')]);
  let gateCalls = 0;
  const gate = fakeGate(async () => (gateCalls++, 'c'));
  const result = await runAgentLoop(gate, model, { system: 's', prompts: ['go'], tools, maxTurns: 10 });
  t.like(result, { status: 'completed', finalText: 'done', turns: 2 });
  t.is(gateCalls, 0);
  t.deepEqual(model.seen[1], [{ role: 'user', content: [{ type: 'text', text: 'go' }] }]);
});

test('the tool calls of a refused, filtered or paused answer are reported to the gate as not run, and never called', async (t) => {
  const withCall = (stop: AssistantTurn['stop']): AssistantTurn => ({
    content: [
      { type: 'text', text: 'x' },
      { type: 'tool_use', id: 'w', name: 'write', input: { path: 'a' } },
    ],
    stop,
    usage,
  });
  for (const [stop, status] of [
    ['refusal', 'refused'],
    ['content_filter', 'content_filtered'],
    ['pause_turn', 'completed'],
  ] as const) {
    let called = 0;
    const gate = fakeGate(async () => (called++, 'c'));
    const result = await runAgentLoop(gate, scriptedModel([withCall(stop), say('done')]), { system: 's', prompts: ['go'], tools, maxTurns: 5 });
    t.is(result.status, status, stop);
    t.is(called, 0, stop);
    t.deepEqual(gate.reported, [{ tool: 'write', input: { path: 'a' }, code: 'ZB_MODEL_CALL_NOT_RUN' }], stop);
  }
});
