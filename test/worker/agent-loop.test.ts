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

test('tool results go back to the model; a denial is a tool error and the run continues to the answer', async (t) => {
  const model = scriptedModel([call('a', 'read', { path: 'x' }), call('b', 'read', { path: '/etc/shadow' }), say('done')]);
  const gate = {
    call: async (_tool: string, input: { path: string }) => {
      if (input.path.startsWith('/etc')) throw new ZotboxError('ZB_POLICY_PATH_OUTSIDE_SCOPE', '/etc/shadow is outside the read scope.');
      return 'contents';
    },
  };
  const result = await runAgentLoop(gate as never, model, { system: 's', prompts: ['go'], tools, maxTurns: 10 });
  t.like(result, { status: 'completed', finalText: 'done', turns: 3 });
  t.deepEqual(model.seen[1]!.at(-1), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'contents', is_error: false }] });
  t.deepEqual(model.seen[2]!.at(-1), {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'b', content: 'error: ZB_POLICY_PATH_OUTSIDE_SCOPE: /etc/shadow is outside the read scope.', is_error: true }],
  });
});

test('a tool that was not offered never reaches the gate', async (t) => {
  const model = scriptedModel([call('a', 'bash', { command: 'ls' }), say('ok')]);
  let gateCalls = 0;
  const result = await runAgentLoop(
    {
      call: async () => {
        gateCalls++;
      },
    } as never,
    model,
    { system: 's', prompts: ['go'], tools, maxTurns: 5 },
  );
  t.is(result.status, 'completed');
  t.is(gateCalls, 0);
  t.like(model.seen[1]!.at(-1)!.content[0], { is_error: true, content: 'error: there is no tool named "bash"' });
});

test('history comes before the new prompt; the turn limit and cancellation stop the loop', async (t) => {
  const history: ChatMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'earlier' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'reply' }] },
  ];
  const looping = scriptedModel([call('a', 'read', { path: 'x' }), call('b', 'read', { path: 'x' })]);
  const limited = await runAgentLoop({ call: async () => 'c' } as never, looping, { system: 's', prompts: ['now'], history, tools, maxTurns: 2 });
  t.like(limited, { status: 'max_turns', turns: 2 });
  t.deepEqual(
    looping.seen[0]!.map((m) => (m.content[0] as { text: string }).text),
    ['earlier', 'reply', 'now'],
  );

  const controller = new AbortController();
  const cancelling = scriptedModel([call('a', 'read', { path: 'x' }), say('never')]);
  const gate = { call: async () => (controller.abort(), 'c') };
  const cancelled = await runAgentLoop(gate as never, cancelling, { system: 's', prompts: ['go'], tools, maxTurns: 5, signal: controller.signal });
  t.like(cancelled, { status: 'cancelled', turns: 1 });
  t.is(cancelling.seen.length, 1, 'no model turn after the cancel');
});

test('an answer cut off by the output limit is not an answer: the model is told and goes on; empty content is never sent back', async (t) => {
  const cut: AssistantTurn = { content: [], stop: 'max_tokens', usage };
  const model = scriptedModel([cut, say('finished')]);
  const result = await runAgentLoop({ call: async () => 'c' } as never, model, { system: 's', prompts: ['go'], tools, maxTurns: 5 });
  t.like(result, { status: 'completed', finalText: 'finished', turns: 2 });
  const sent = model.seen[1]!;
  t.deepEqual(sent[1], { role: 'assistant', content: [{ type: 'text', text: '[output cut off]' }] });
  t.like(sent[2]!.content[0], { type: 'text', text: OUTPUT_LIMIT_NOTICE });
});

test('a conversation that outgrows its limit is not sent: the run fails with ZB_MODEL_CONTEXT_EXCEEDED after the last request that fit', async (t) => {
  const big = 'x'.repeat(5_000);
  const model = scriptedModel([call('a', 'read', { path: 'x' }), call('b', 'read', { path: 'y' }), say('never reached')]);
  const gate = { call: async () => big };
  const error = await t.throwsAsync(runAgentLoop(gate as never, model, { system: 's', prompts: ['go'], tools, maxTurns: 10, maxConversationChars: 8_000 }));
  t.is((error as { code?: string }).code, 'ZB_MODEL_CONTEXT_EXCEEDED');
  // The first request (prompt) and the second (one 5,000-character result) fit; the third (two results) would not.
  t.is(model.seen.length, 2);
});

test('without a limit, or under it, the loop runs to its answer', async (t) => {
  const model = scriptedModel([call('a', 'read', { path: 'x' }), say('done')]);
  const result = await runAgentLoop({ call: async () => 'x'.repeat(5_000) } as never, model, { system: 's', prompts: ['go'], tools, maxTurns: 10, maxConversationChars: 20_000 });
  t.like(result, { status: 'completed', finalText: 'done' });
});
