// The Chat Completions request body: what the builder writes for a conversation
// (and how it sanitizes what the API would refuse), one refused hand-made body
// per check rule, and a property: no conversation the neutral schema allows
// builds a body the check refuses.
import test from 'ava';
import fc from 'fast-check';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ZotboxError } from '../../../src/errors.js';
import { buildOpenAiRequestBody, checkOpenAiRequestBody, PLACEHOLDERS, type OpenAiRequestBody } from '../../../src/host/providers/openai-request.js';
import { ChatMessageSchema, type ChatMessage, type ToolSpec } from '../../../src/policy/model-protocol.js';

const READ: ToolSpec = { name: 'read', description: 'Read a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
const build = (messages: ChatMessage[], tools: ToolSpec[] = [], system = 'You help.') => buildOpenAiRequestBody({ model: 'gpt-4.1' }, { system, messages, tools });
const user = (...text: string[]): ChatMessage => ({ role: 'user', content: text.map((t) => ({ type: 'text', text: t })) });
const use = (id: string, name = 'read', input: Record<string, unknown> = {}) => ({ type: 'tool_use' as const, id, name, input });
const result = (id: string, content = 'ok', is_error = false) => ({ type: 'tool_result' as const, tool_use_id: id, content, is_error });

// Compile-time: the body is what the official SDK would send for a streaming create.
const _assignable: ChatCompletionCreateParamsStreaming = build([user('hi')], [READ]);

test('a conversation with a tool call becomes system, user, assistant with tool_calls, tool, in order', (t) => {
  const body = build(
    [user('Read a.md'), { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, use('call_1', 'read', { path: 'a.md' })] }, { role: 'user', content: [result('call_1', 'hello')] }],
    [READ],
  );
  t.deepEqual(body, {
    model: 'gpt-4.1',
    stream: true,
    stream_options: { include_usage: true },
    messages: [
      { role: 'system', content: 'You help.' },
      { role: 'user', content: 'Read a.md' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.md"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'hello' },
    ],
    tools: [{ type: 'function', function: { name: 'read', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }],
  });
  t.notThrows(() => checkOpenAiRequestBody(body));
});

test('tools are omitted, not [], when there are none', (t) => {
  t.false('tools' in build([user('hi')]));
});

test('an assistant message with only tool calls has content null', (t) => {
  t.like(build([user('go'), { role: 'assistant', content: [use('c1')] }, { role: 'user', content: [result('c1')] }]).messages[2], { role: 'assistant', content: null });
});

test('an empty system prompt is left out', (t) => {
  t.deepEqual(build([user('hi')], [], '').messages, [{ role: 'user', content: 'hi' }]);
});

test('without a system prompt, a conversation that starts with the assistant gets a user placeholder first', (t) => {
  t.deepEqual(build([{ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }, user('hi')], [], '').messages.slice(0, 2), [
    { role: 'user', content: PLACEHOLDERS.conversationStart },
    { role: 'assistant', content: 'Hello.' },
  ]);
});

test('empty text blocks are dropped, and a message left empty gets a placeholder', (t) => {
  t.deepEqual(build([user('', 'a', ''), { role: 'assistant', content: [{ type: 'text', text: '' }] }, user('')]).messages.slice(1), [
    { role: 'user', content: 'a' },
    { role: 'assistant', content: PLACEHOLDERS.emptyAssistantMessage },
    { role: 'user', content: PLACEHOLDERS.emptyUserMessage },
  ]);
});

test('whitespace-only text is text, kept as it is', (t) => {
  t.deepEqual(build([user(' ')]).messages[1], { role: 'user', content: ' ' });
});

test('tool results go before the user text of the same message', (t) => {
  const body = build([user('go'), { role: 'assistant', content: [use('c1')] }, { role: 'user', content: [{ type: 'text', text: 'also this' }, result('c1')] }]);
  t.deepEqual(body.messages.slice(3), [
    { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    { role: 'user', content: 'also this' },
  ]);
});

test('a tool call left unanswered gets a placeholder result before the next message, and at the end', (t) => {
  const body = build([user('go'), { role: 'assistant', content: [use('c1'), use('c2')] }, { role: 'user', content: [result('c2')] }, { role: 'assistant', content: [use('c3')] }]);
  t.deepEqual(body.messages.slice(3), [
    { role: 'tool', tool_call_id: 'c2', content: 'ok' },
    { role: 'tool', tool_call_id: 'c1', content: PLACEHOLDERS.unansweredToolCall },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'read', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c3', content: PLACEHOLDERS.unansweredToolCall },
  ]);
});

test('a result that answers no open call (unknown id, or answered twice) becomes user text', (t) => {
  const body = build([user('go'), { role: 'assistant', content: [use('c1')] }, { role: 'user', content: [result('c1'), result('c1', 'again'), result('zz', 'lost', true)] }]);
  t.deepEqual(body.messages.slice(3), [
    { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    { role: 'user', content: '[result of tool call c1]\nagain' },
    { role: 'user', content: '[result of tool call zz, an error]\nlost' },
  ]);
});

test('an empty tool result gets a placeholder', (t) => {
  t.like(build([user('go'), { role: 'assistant', content: [use('c1')] }, { role: 'user', content: [result('c1', '')] }]).messages[3], { content: PLACEHOLDERS.emptyToolResult });
});

test('an id longer than 40 characters is rewritten, the same in the call and its result', (t) => {
  const long = `toolu_${'x'.repeat(60)}`;
  const body = build([user('go'), { role: 'assistant', content: [use(long)] }, { role: 'user', content: [result(long)] }]);
  t.like(body.messages[2], { tool_calls: [{ id: 'call_zb_h1' }] });
  t.like(body.messages[3], { role: 'tool', tool_call_id: 'call_zb_h1' });
});

test('an id used again in a later turn (call_zb_1 every turn) is rewritten there, consistently', (t) => {
  const body = build([
    user('go'),
    { role: 'assistant', content: [use('call_zb_1')] },
    { role: 'user', content: [result('call_zb_1', 'first')] },
    { role: 'assistant', content: [use('call_zb_1')] },
    { role: 'user', content: [result('call_zb_1', 'second')] },
  ]);
  t.like(body.messages[2], { tool_calls: [{ id: 'call_zb_1' }] });
  t.deepEqual(body.messages[3], { role: 'tool', tool_call_id: 'call_zb_1', content: 'first' });
  t.like(body.messages[4], { tool_calls: [{ id: 'call_zb_h1' }] });
  t.deepEqual(body.messages[5], { role: 'tool', tool_call_id: 'call_zb_h1', content: 'second' });
});

test('two calls with one id in one message are told apart, results answering them in order', (t) => {
  const body = build([user('go'), { role: 'assistant', content: [use('c', 'read'), use('c', 'write')] }, { role: 'user', content: [result('c', 'one'), result('c', 'two')] }]);
  t.like(body.messages[2], { tool_calls: [{ id: 'c' }, { id: 'call_zb_h1' }] });
  t.deepEqual(body.messages.slice(3), [
    { role: 'tool', tool_call_id: 'c', content: 'one' },
    { role: 'tool', tool_call_id: 'call_zb_h1', content: 'two' },
  ]);
});

test('a tool schema without a type is said to be an object schema; an empty description is left out', (t) => {
  t.deepEqual(build([user('hi')], [{ name: 'list', description: '', input_schema: { properties: {} } }]).tools, [
    { type: 'function', function: { name: 'list', parameters: { type: 'object', properties: {} } } },
  ]);
});

// One hand-made body per rule, each refused with ZB_INTERNAL_BUG naming the rule.
const GOOD: OpenAiRequestBody = {
  model: 'gpt-4.1',
  stream: true,
  stream_options: { include_usage: true },
  messages: [
    { role: 'system', content: 's' },
    { role: 'user', content: 'u' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'r' },
  ],
  tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }],
};

test('a body that keeps every rule passes the check', (t) => {
  t.notThrows(() => checkOpenAiRequestBody(GOOD));
});

const breaks = test.macro({
  exec(t, rule: string, change: (body: Record<string, unknown> & { messages: Record<string, unknown>[] }) => void) {
    const body = structuredClone(GOOD) as unknown as Record<string, unknown> & { messages: Record<string, unknown>[] };
    change(body);
    const error = t.throws<ZotboxError>(() => checkOpenAiRequestBody(body as unknown as OpenAiRequestBody));
    t.is(error.code, 'ZB_INTERNAL_BUG');
    t.is(error.details?.['rule'], rule);
  },
  title: (what = '', rule: string) => `the check refuses ${what} (rule ${rule})`,
});
const call = (id: string, name = 'read', args = '{}') => ({ id, type: 'function', function: { name, arguments: args } });

test('a field zotbox does not send', breaks, 'shape', (b) => (b['temperature'] = 1));
test('a message field zotbox does not send', breaks, 'shape', (b) => (b.messages[1]!['name'] = 'bob'));
test('a developer message', breaks, 'shape', (b) => (b.messages[0]!['role'] = 'developer'));
test('an empty model', breaks, 'model-named', (b) => (b['model'] = ''));
test('stream false', breaks, 'stream', (b) => (b['stream'] = false));
test('include_usage false', breaks, 'usage-requested', (b) => (b['stream_options'] = { include_usage: false }));
test('no messages', breaks, 'messages-non-empty', (b) => (b.messages = []));
test('a first message from the assistant', breaks, 'first-message', (b) => (b.messages = [{ role: 'assistant', content: 'hi' }]));
test('an empty system message', breaks, 'system-non-empty', (b) => (b.messages[0]!['content'] = ''));
test('an empty user message', breaks, 'user-non-empty', (b) => (b.messages[1]!['content'] = ''));
test('an empty tool message', breaks, 'tool-result-non-empty', (b) => (b.messages[3]!['content'] = ''));
test('tool_calls: []', breaks, 'tool-calls-non-empty', (b) => b.messages.push({ role: 'assistant', content: 'x', tool_calls: [] }));
test('an assistant message with content ""', breaks, 'assistant-non-empty', (b) => b.messages.push({ role: 'assistant', content: '' }));
test('an assistant message with content null and no tool calls', breaks, 'assistant-non-empty', (b) => b.messages.push({ role: 'assistant', content: null }));
test('an assistant message with content "" beside tool calls', breaks, 'assistant-non-empty', (b) => (b.messages[2]!['content'] = ''));
test('a tool call id of 41 characters', breaks, 'tool-call-id-length', (b) => {
  b.messages[2]!['tool_calls'] = [call('c'.repeat(41))];
  b.messages[3]!['tool_call_id'] = 'c'.repeat(41);
});
test('an empty tool call id', breaks, 'tool-call-id-length', (b) => {
  b.messages[2]!['tool_calls'] = [call('')];
  b.messages[3]!['tool_call_id'] = '';
});
test('a tool call without a function name', breaks, 'tool-call-named', (b) => (b.messages[2]!['tool_calls'] = [call('c1', '')]));
test('a tool call name OpenAI refuses (a dot)', breaks, 'tool-call-name-pattern', (b) => (b.messages[2]!['tool_calls'] = [call('c1', 'multi_tool_use.parallel')]));
test('arguments that are not JSON', breaks, 'tool-call-arguments', (b) => (b.messages[2]!['tool_calls'] = [call('c1', 'read', '{"a":')]));
test('arguments that are a JSON array', breaks, 'tool-call-arguments', (b) => (b.messages[2]!['tool_calls'] = [call('c1', 'read', '[]')]));
test('one tool call id used twice', breaks, 'tool-call-ids-unique', (b) => {
  b.messages.push({ role: 'assistant', content: null, tool_calls: [call('c1')] }, { role: 'tool', tool_call_id: 'c1', content: 'r' });
});
test('a tool message after a user message', breaks, 'tool-answers-a-call', (b) => b.messages.push({ role: 'user', content: 'u' }, { role: 'tool', tool_call_id: 'c1', content: 'r' }));
test('a tool message for a call not made', breaks, 'tool-answers-a-call', (b) => (b.messages[3]!['tool_call_id'] = 'c9'));
test('a tool call answered twice', breaks, 'tool-answers-a-call', (b) => b.messages.push({ role: 'tool', tool_call_id: 'c1', content: 'r' }));
test('a tool call not answered before the next message', breaks, 'calls-answered', (b) => b.messages.splice(3, 1, { role: 'user', content: 'u' }));
test('a tool call never answered', breaks, 'calls-answered', (b) => b.messages.pop());
test('tools: []', breaks, 'tools-omitted-when-empty', (b) => (b['tools'] = []));
test('a tool name with a dot', breaks, 'tool-name-pattern', (b) => (b['tools'] = [{ type: 'function', function: { name: 'fs.read', parameters: { type: 'object' } } }]));
test('a tool name of 65 characters', breaks, 'tool-name-pattern', (b) => (b['tools'] = [{ type: 'function', function: { name: 'r'.repeat(65), parameters: { type: 'object' } } }]));
test('tool parameters without type object', breaks, 'tool-parameters-object', (b) => (b['tools'] = [{ type: 'function', function: { name: 'read', parameters: { properties: {} } } }]));
test('two tools with one name', breaks, 'tool-names-unique', (b) => {
  const tool = { type: 'function', function: { name: 'read', parameters: { type: 'object' } } };
  b['tools'] = [tool, tool];
});

// The property: every conversation the neutral schema allows builds a body the check passes.
const text = fc.constantFrom('', ' ', '\n', 'hi', 'ünïcödé 😀', 'x'.repeat(300));
const id = fc.oneof(fc.constantFrom('call_1', 'call_zb_1', 'call_zb_h1', 'toolu_01A', 'a.b:c', ' ', 'x'.repeat(40), 'y'.repeat(41), 'z'.repeat(256)), fc.string({ minLength: 1, maxLength: 50 }));
const toolName = fc.constantFrom('read', 'bash', 'functions.read', 'x'.repeat(64), 'a b');
const input = fc.constantFrom({}, { path: 'a.md' }, { nested: { list: [1, null, 'x'] } }, { '': '' });
const textBlock = text.map((t) => ({ type: 'text' as const, text: t }));
const useBlock = fc.record({ type: fc.constant('tool_use' as const), id, name: toolName, input });
const resultBlock = fc.record({ type: fc.constant('tool_result' as const), tool_use_id: id, content: text, is_error: fc.boolean() });
const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content: fc.array(fc.oneof(textBlock, resultBlock), { minLength: 1, maxLength: 4 }) }),
  fc.record({ role: fc.constant('assistant' as const), content: fc.array(fc.oneof(textBlock, useBlock), { maxLength: 4 }) }),
);
/** Conversations where results often answer the previous turn's calls, as the agent loop writes them. */
const answeredTurns = fc.array(fc.tuple(fc.array(fc.oneof(textBlock, useBlock), { maxLength: 3 }), fc.boolean()), { maxLength: 4 }).map((turns) =>
  turns.flatMap(([content, answer]): ChatMessage[] => {
    const results = content.flatMap((b) => (b.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: b.id, content: 'r', is_error: false }] : []));
    return [{ role: 'assistant', content }, ...(answer && results.length > 0 ? [{ role: 'user' as const, content: results }] : [])];
  }),
);
const tools = fc.uniqueArray(
  fc.constantFrom<ToolSpec>(READ, { name: 'bash', description: '', input_schema: {} }, { name: 'w_2-x', description: 'd', input_schema: { type: 'object', required: [] } }),
  {
    selector: (tool) => tool.name,
    maxLength: 3,
  },
);

test('every conversation the neutral schema allows builds a body the check passes', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.oneof(fc.array(message, { minLength: 1, maxLength: 8 }), answeredTurns), tools, fc.constantFrom('', 'You help.'), (messages, offered, system) => {
        for (const m of messages) ChatMessageSchema.parse(m);
        checkOpenAiRequestBody(build(messages, offered, system));
      }),
      { numRuns: 2000 },
    ),
  );
});
