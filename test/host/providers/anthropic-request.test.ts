// Anthropic request bodies: what the builder makes of a conversation (by hand),
// one refused hand-made body per rule of the check, a property test that no
// conversation the model protocol allows yields a body the check refuses, and a
// compile-time proof that the body fits the SDK's request type.
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import test from 'ava';
import fc from 'fast-check';
import type { ZotboxError } from '../../../src/errors.js';
import { PLACEHOLDERS } from '../../../src/host/providers/anthropic-history.js';
import { buildAnthropicRequestBody, checkAnthropicRequestBody } from '../../../src/host/providers/anthropic-request.js';
import type { ModelTurnRequest } from '../../../src/host/providers/provider.js';
import { ChatMessageSchema, type ChatMessage, type ToolSpec } from '../../../src/policy/model-protocol.js';

const OPTIONS = { model: 'claude-sonnet-4-5', maxTokens: 8192 };
const READ: ToolSpec = { name: 'read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
const READ_WIRE = { name: 'read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
const user = (...content: Extract<ChatMessage, { role: 'user' }>['content']): ChatMessage => ({ role: 'user', content });
const assistant = (...content: Extract<ChatMessage, { role: 'assistant' }>['content']): ChatMessage => ({ role: 'assistant', content });
const text = (value: string) => ({ type: 'text' as const, text: value });
const call = (id: string, input: Record<string, unknown> = {}, name = 'read') => ({ type: 'tool_use' as const, id, name, input });
const result = (id: string, content = 'ok', is_error = false) => ({ type: 'tool_result' as const, tool_use_id: id, content, is_error });

function build(messages: ChatMessage[], tools: ToolSpec[] = [READ], system = 'Be brief.') {
  return buildAnthropicRequestBody(OPTIONS, { system, messages, tools });
}

// ---- The builder ----

test('a plain turn: model, max_tokens, stream, system, messages and tools as the API takes them', (t) => {
  t.deepEqual(build([user(text('hi'))]), {
    model: 'claude-sonnet-4-5',
    max_tokens: 8192,
    stream: true,
    system: 'Be brief.',
    messages: [{ role: 'user', content: [text('hi')] }],
    tools: [READ_WIRE],
  });
});

test('an empty text block before a tool_use is not sent back (the API answers 400 "text content blocks must be non-empty")', (t) => {
  const body = build([user(text('go')), assistant(text(''), call('toolu_01')), user(result('toolu_01'))]);
  t.deepEqual(body.messages[1], { role: 'assistant', content: [call('toolu_01')] });
});

test('whitespace-only text is not sent', (t) => {
  const body = build([user(text('go'), text(' \n\t'))]);
  t.deepEqual(body.messages, [{ role: 'user', content: [text('go')] }]);
});

test('tool ids the API would refuse (another provider recorded them) are rewritten, the same in the call and its result', (t) => {
  const body = build([user(text('go')), assistant(call('call.1'), call('fc 2')), user(result('fc 2', 'two'), result('call.1', 'one'))]);
  t.deepEqual(body.messages.slice(1), [
    { role: 'assistant', content: [call('toolu_zb_1'), call('toolu_zb_2')] },
    { role: 'user', content: [result('toolu_zb_2', 'two'), result('toolu_zb_1', 'one')] },
  ]);
});

test('a tool id used again in a later turn (a server that restarts its numbering) gets a new id there, and its result follows', (t) => {
  const body = build([user(text('go')), assistant(call('call_0')), user(result('call_0', 'first')), assistant(call('call_0')), user(result('call_0', 'second'))]);
  t.deepEqual(body.messages.slice(1), [
    { role: 'assistant', content: [call('call_0')] },
    { role: 'user', content: [result('call_0', 'first')] },
    { role: 'assistant', content: [call('toolu_zb_1')] },
    { role: 'user', content: [result('toolu_zb_1', 'second')] },
  ]);
});

test('a new id never takes one the history uses later', (t) => {
  const body = build([user(text('go')), assistant(call('bad.id')), user(result('bad.id')), assistant(call('toolu_zb_1')), user(result('toolu_zb_1'))]);
  t.deepEqual(
    body.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))),
    ['toolu_zb_2', 'toolu_zb_1'],
  );
});

test('a tool call without a result is answered "no result was recorded", as an error', (t) => {
  const body = build([user(text('go')), assistant(call('toolu_01'), call('toolu_02')), user(result('toolu_02'), text('and then?'))]);
  t.deepEqual(body.messages[2], { role: 'user', content: [result('toolu_02'), result('toolu_01', PLACEHOLDERS.missingResult, true), text('and then?')] });
});

test('a conversation that ends in a tool call gets a user message answering it', (t) => {
  const body = build([user(text('go')), assistant(text('Reading.'), call('toolu_01'))]);
  t.deepEqual(body.messages.at(-1), { role: 'user', content: [result('toolu_01', PLACEHOLDERS.missingResult, true)] });
});

test('a tool result that answers no call of the message before it is sent as text', (t) => {
  const body = build([user(text('go')), assistant(text('Done.')), user(result('toolu_09', 'late output'))]);
  t.deepEqual(body.messages[2], { role: 'user', content: [text('[result of tool call toolu_09]\nlate output')] });
});

test('tool results come before text in a user message', (t) => {
  const body = build([user(text('go')), assistant(call('toolu_01')), user(text('also this'), result('toolu_01'))]);
  t.deepEqual(body.messages[2], { role: 'user', content: [result('toolu_01'), text('also this')] });
});

test('neighbouring messages of one role become one message', (t) => {
  const body = build([user(text('a')), user(text('b')), assistant(text('c')), assistant(text('d')), user(text('e'))]);
  t.deepEqual(body.messages, [
    { role: 'user', content: [text('a'), text('b')] },
    { role: 'assistant', content: [text('c'), text('d')] },
    { role: 'user', content: [text('e')] },
  ]);
});

test('an assistant message left empty is dropped, and the user messages around it become one', (t) => {
  const body = build([user(text('a')), assistant(text('')), user(text('b'))]);
  t.deepEqual(body.messages, [{ role: 'user', content: [text('a'), text('b')] }]);
});

test('a conversation that starts with the assistant gets a placeholder user message first', (t) => {
  const body = build([assistant(text('Hello.')), user(text('hi'))]);
  t.deepEqual(body.messages, [
    { role: 'user', content: [text(PLACEHOLDERS.userMessage)] },
    { role: 'assistant', content: [text('Hello.')] },
    { role: 'user', content: [text('hi')] },
  ]);
});

test('a conversation with no visible text at all still has a user message', (t) => {
  t.deepEqual(build([user(text(' '))]).messages, [{ role: 'user', content: [text(PLACEHOLDERS.userMessage)] }]);
});

test('a final assistant message loses its trailing whitespace (the API refuses it)', (t) => {
  const body = build([user(text('go')), assistant(text('The answer is \n'))]);
  t.deepEqual(body.messages.at(-1), { role: 'assistant', content: [text('The answer is')] });
});

test('an assistant message that is not the last keeps its trailing whitespace', (t) => {
  const body = build([user(text('go')), assistant(text('Line.\n')), user(text('more'))]);
  t.deepEqual(body.messages[1], { role: 'assistant', content: [text('Line.\n')] });
});

test('an error tool result without output says so (the API refuses it empty)', (t) => {
  const body = build([user(text('go')), assistant(call('toolu_01')), user(result('toolu_01', '', true))]);
  t.deepEqual(body.messages[2], { role: 'user', content: [result('toolu_01', PLACEHOLDERS.toolErrorOutput, true)] });
});

test('a successful tool result without output is sent empty', (t) => {
  const body = build([user(text('go')), assistant(call('toolu_01')), user(result('toolu_01', ''))]);
  t.deepEqual(body.messages[2], { role: 'user', content: [result('toolu_01', '')] });
});

test('a tool name outside the API alphabet in the history is rewritten', (t) => {
  const body = build([user(text('go')), assistant(call('toolu_01', {}, 'fs.read file')), user(result('toolu_01'))]);
  t.deepEqual(body.messages[1], { role: 'assistant', content: [call('toolu_01', {}, 'fs_read_file')] });
});

test('a blank system prompt is left out', (t) => {
  t.false('system' in build([user(text('hi'))], [READ], ' \n'));
});

test('without tools, tools is left out and the tool blocks of the history are sent as text', (t) => {
  const body = build([user(text('go')), assistant(call('toolu_01', { path: 'a' })), user(result('toolu_01', 'data', true))], []);
  t.false('tools' in body);
  t.deepEqual(body.messages.slice(1), [
    { role: 'assistant', content: [text('[tool call toolu_01: read {"path":"a"}]')] },
    { role: 'user', content: [text('[result of tool call toolu_01, an error]\ndata')] },
  ]);
});

test('an empty tool description is left out', (t) => {
  t.deepEqual(build([user(text('hi'))], [{ ...READ, description: '' }]).tools, [{ name: 'read', input_schema: READ_WIRE.input_schema }]);
});

test('a tool whose input_schema is not an object schema is a bug in zotbox', (t) => {
  const error = t.throws<ZotboxError>(() => build([user(text('hi'))], [{ ...READ, input_schema: { type: 'string' } }]));
  t.is(error.code, 'ZB_INTERNAL_BUG');
  t.is(error.details?.rule, 'tool-schema-object');
});

test('the builder does not change the conversation it is given', (t) => {
  const messages = [user(text('go')), assistant(text('x'), call('bad id')), assistant(text('tail  '))];
  const before = structuredClone(messages);
  build(messages);
  t.deepEqual(messages, before);
});

test('the built body is assignable to the SDK request type (this file does not compile otherwise)', (t) => {
  const params: MessageCreateParamsStreaming = build([user(text('go')), assistant(call('toolu_01')), user(result('toolu_01'))]);
  t.is(params.stream, true);
});

// ---- The check: one hand-made body per rule ----

const GOOD = {
  model: 'claude-sonnet-4-5',
  max_tokens: 8192,
  stream: true,
  system: 'Be brief.',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_01', name: 'read', input: { path: 'a' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'data', is_error: false }] },
  ],
  tools: [{ name: 'read', description: 'Reads a file.', input_schema: { type: 'object' } }],
};

test('the check accepts a well-formed body', (t) => {
  t.notThrows(() => checkAnthropicRequestBody(GOOD));
});

const refused = test.macro({
  exec(t, body: unknown, rule: string) {
    const error = t.throws<ZotboxError>(() => checkAnthropicRequestBody(body));
    t.is(error.code, 'ZB_INTERNAL_BUG');
    t.deepEqual(error.details, { provider: 'anthropic', rule });
  },
  title: (name = '', _body, rule: string) => `the check refuses ${name} (${rule})`,
});

const [U0, A1, U2] = GOOD.messages as [unknown, unknown, unknown];
const toolsOf = (tools: unknown[]) => ({ ...GOOD, tools });

test('a field the API does not take', refused, { ...GOOD, temperature: 2 }, 'body-shape');
test('a block type zotbox never sends', refused, { ...GOOD, messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }] }, 'body-shape');
test('an empty model', refused, { ...GOOD, model: '' }, 'model-non-empty');
test('max_tokens 0', refused, { ...GOOD, max_tokens: 0 }, 'max-tokens-positive-integer');
test('max_tokens that is not whole', refused, { ...GOOD, max_tokens: 1.5 }, 'max-tokens-positive-integer');
test('stream false', refused, { ...GOOD, stream: false }, 'stream-true');
test('an empty system prompt', refused, { ...GOOD, system: '' }, 'system-non-empty');
test('no messages', refused, { ...GOOD, messages: [] }, 'messages-non-empty');
test('a first message from the assistant', refused, { ...GOOD, messages: [{ role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, U0] }, 'first-message-user');
test('two user messages in a row', refused, { ...GOOD, messages: [U0, U0] }, 'roles-alternate');
test('a message without content', refused, { ...GOOD, messages: [U0, { role: 'assistant', content: [] }] }, 'message-has-content');
test('a tool_use in a user message', refused, { ...GOOD, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'toolu_01', name: 'read', input: {} }] }] }, 'block-fits-role');
test('an empty text block', refused, { ...GOOD, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'text-non-empty');
test('a whitespace-only text block', refused, { ...GOOD, messages: [{ role: 'user', content: [{ type: 'text', text: ' \n' }] }] }, 'text-non-empty');
test('a final assistant message ending in whitespace', refused, { ...GOOD, messages: [U0, { role: 'assistant', content: [{ type: 'text', text: 'so ' }] }] }, 'final-assistant-no-trailing-whitespace');
test(
  'a tool_use id outside the API alphabet',
  refused,
  {
    ...GOOD,
    messages: [
      U0,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call.1', name: 'read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call.1', content: '' }] },
    ],
  },
  'tool-use-id-pattern',
);
test('a tool_use id used twice', refused, { ...GOOD, messages: [U0, A1, U2, A1, U2] }, 'tool-use-id-unique');
test(
  'tool_use input that is not an object',
  refused,
  { ...GOOD, messages: [U0, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'read', input: [1] }] }, U2] },
  'tool-use-input-object',
);
test(
  'a tool_use name outside the API alphabet',
  refused,
  { ...GOOD, messages: [U0, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'fs.read', input: {} }] }, U2] },
  'tool-use-name-pattern',
);
test('a tool_use without a result in the next message', refused, { ...GOOD, messages: [U0, A1, { role: 'user', content: [{ type: 'text', text: 'skip it' }] }] }, 'tool-use-answered');
test(
  'a tool_use answered twice',
  refused,
  { ...GOOD, messages: [U0, A1, { role: 'user', content: [...(U2 as { content: unknown[] }).content, ...(U2 as { content: unknown[] }).content] }] },
  'tool-use-answered',
);
test('a tool_use that is the last message', refused, { ...GOOD, messages: [U0, A1] }, 'tool-use-answered');
test(
  'a tool_result that answers no tool_use of the message before it',
  refused,
  { ...GOOD, messages: [U0, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, U2] },
  'tool-result-answers-previous',
);
test(
  'a tool_result after text in its message',
  refused,
  { ...GOOD, messages: [U0, A1, { role: 'user', content: [{ type: 'text', text: 'first' }, ...(U2 as { content: unknown[] }).content] }] },
  'tool-results-first',
);
test(
  'an error tool_result without content',
  refused,
  { ...GOOD, messages: [U0, A1, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '', is_error: true }] }] },
  'tool-error-has-content',
);
test('an empty tools list', refused, { ...GOOD, messages: [U0], tools: [] }, 'tools-non-empty');
test('a tool name outside the API alphabet', refused, toolsOf([{ name: 'fs.read', input_schema: { type: 'object' } }]), 'tool-name-pattern');
test('a tool name longer than 64 characters', refused, toolsOf([{ name: 'r'.repeat(65), input_schema: { type: 'object' } }]), 'tool-name-pattern');
test('two tools with one name', refused, toolsOf([...GOOD.tools, ...GOOD.tools]), 'tool-names-unique');
test('a tool whose input_schema is not an object schema', refused, toolsOf([{ name: 'read', input_schema: { type: 'array' } }]), 'tool-schema-object');
test('tool blocks in a request that defines no tools', refused, { model: GOOD.model, max_tokens: 8192, stream: true, messages: GOOD.messages }, 'tools-defined-for-tool-blocks');

// ---- The builder never makes a body the check refuses ----

/** Strings that broke requests before: empty, whitespace, trailing whitespace; then anything. */
const awkwardText = fc.oneof(fc.constantFrom('', ' ', '\n\t', 'ok', 'trailing \n', '  leading', 'ü'), fc.string({ maxLength: 8 }));
/** A small pool, so calls and results often meet: API ids, ids other providers give, and ids zotbox itself hands out. */
const toolId = fc.constantFrom('toolu_01', 'toolu_02', 'call_0', 'call.1', 'fc 2', 'ü', 'toolu_zb_1', '-', 'x'.repeat(256));
const toolName = fc.constantFrom('read', 'write', 'fs.read', 'do it', 'x'.repeat(64));
const input = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
const userBlock = fc.oneof(awkwardText.map(text), fc.record({ type: fc.constant('tool_result' as const), tool_use_id: toolId, content: awkwardText, is_error: fc.boolean() }));
const assistantBlock = fc.oneof(awkwardText.map(text), fc.record({ type: fc.constant('tool_use' as const), id: toolId, name: toolName, input }));
const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  fc.array(userBlock, { minLength: 1, maxLength: 4 }).map((content) => ({ role: 'user' as const, content })),
  fc.array(assistantBlock, { maxLength: 4 }).map((content) => ({ role: 'assistant' as const, content })),
);
const request: fc.Arbitrary<ModelTurnRequest> = fc.record({
  system: awkwardText,
  messages: fc.array(message, { minLength: 1, maxLength: 8 }),
  tools: fc.constantFrom([], [READ], [READ, { name: 'write', description: '', input_schema: { type: 'object', required: ['path'] } }]),
});

test('property: every conversation the model protocol allows builds a body the check accepts', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(request, (generated) => {
        ChatMessageSchema.array().parse(generated.messages);
        checkAnthropicRequestBody(buildAnthropicRequestBody(OPTIONS, generated));
      }),
      { numRuns: 2000 },
    ),
  );
});

test('property: every text with a visible character reaches the body (at most trimmed at the very end)', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(request, (generated) => {
        const sent = buildAnthropicRequestBody(OPTIONS, generated).messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
        const written = generated.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'text' && b.text.trim() !== '' ? [b.text] : [])));
        return written.every((text) => sent.includes(text) || sent.includes(text.trimEnd()));
      }),
      { numRuns: 1000 },
    ),
  );
});
