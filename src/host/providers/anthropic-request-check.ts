// The last look at an Anthropic request body before it leaves (issue 12): the
// rules the Messages API enforces that a body zotbox builds could break, as a
// closed list. A violation is a bug in zotbox (the builder must never make one),
// so it is ZB_INTERNAL_BUG naming the rule, never sent to be refused with a 400.
import { z } from 'zod';
import { ZotboxError } from '../../errors.js';
import { ANTHROPIC_TOOL_ID, ANTHROPIC_TOOL_NAME } from './anthropic-history.js';

/** The fields and block types zotbox sends, with the types the API takes; anything else is refused. */
const TextSchema = z.strictObject({ type: z.literal('text'), text: z.string() });
const ToolUseSchema = z.strictObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const ToolResultSchema = z.strictObject({ type: z.literal('tool_result'), tool_use_id: z.string(), content: z.string(), is_error: z.boolean().optional() });
const BlockSchema = z.discriminatedUnion('type', [TextSchema, ToolUseSchema, ToolResultSchema]);
const BodySchema = z.strictObject({
  model: z.string(),
  max_tokens: z.number(),
  stream: z.boolean(),
  system: z.string().optional(),
  messages: z.array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.array(BlockSchema) })),
  tools: z.array(z.strictObject({ name: z.string(), description: z.string().optional(), input_schema: z.record(z.string(), z.unknown()) })).optional(),
});

type Body = z.infer<typeof BodySchema>;
type Message = Body['messages'][number];
type Block = z.infer<typeof BlockSchema>;

/** A rule: undefined when the body keeps it, else where and how it breaks it. */
type Rule = (body: Body) => string | undefined;

/** Throws ZB_INTERNAL_BUG when the body breaks a rule of the Messages API. */
export function checkAnthropicRequestBody(body: unknown): void {
  const parsed = BodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bodyRuleBroken('body-shape', `${issue?.path.join('.') || 'the body'}: ${issue?.message ?? 'invalid'}`);
  }
  for (const [name, rule] of Object.entries(RULES)) {
    const broken = rule(parsed.data);
    if (broken !== undefined) throw bodyRuleBroken(name, broken);
  }
}

export function bodyRuleBroken(rule: string, why: string): ZotboxError {
  return new ZotboxError('ZB_INTERNAL_BUG', `zotbox built a request anthropic would refuse: ${why} (rule ${rule}). This is a bug in zotbox; please report it with the session file.`, {
    details: { provider: 'anthropic', rule },
  });
}

/** Every rule, by the name a violation reports. Order matters only for which of several violations is named. */
const RULES: Readonly<Record<string, Rule>> = {
  'model-non-empty': (body) => (body.model === '' ? 'the model is empty' : undefined),
  'max-tokens-positive-integer': (body) => (Number.isInteger(body.max_tokens) && body.max_tokens > 0 ? undefined : `max_tokens is ${body.max_tokens}`),
  'stream-true': (body) => (body.stream ? undefined : 'stream is false; zotbox reads every answer as a stream'),
  'system-non-empty': (body) => (body.system?.trim() === '' ? 'system is present but has no visible text' : undefined),
  'messages-non-empty': (body) => (body.messages.length === 0 ? 'there are no messages' : undefined),
  'first-message-user': (body) => (body.messages[0] !== undefined && body.messages[0].role !== 'user' ? 'the first message is not a user message' : undefined),
  'roles-alternate': (body) => findMessage(body, (message, i) => i > 0 && body.messages[i - 1]!.role === message.role, 'has the same role as the one before it'),
  'message-has-content': (body) => findMessage(body, (message) => message.content.length === 0, 'has no content'),
  'block-fits-role': (body) => findBlock(body, (block, message) => (message.role === 'user' ? block.type === 'tool_use' : block.type === 'tool_result'), 'is not allowed in a message of its role'),
  'text-non-empty': (body) => findBlock(body, (block) => block.type === 'text' && block.text.trim() === '', 'is text with no visible character'),
  'final-assistant-no-trailing-whitespace': finalAssistantTrimmed,
  'tool-use-id-pattern': (body) => findBlock(body, (block) => block.type === 'tool_use' && !ANTHROPIC_TOOL_ID.test(block.id), `is a tool_use whose id does not match ${ANTHROPIC_TOOL_ID.source}`),
  'tool-use-id-unique': toolUseIdsUnique,
  'tool-use-input-object': (body) => findBlock(body, (block) => block.type === 'tool_use' && !isPlainObject(block.input), 'is a tool_use whose input is not a JSON object'),
  'tool-use-name-pattern': (body) =>
    findBlock(body, (block) => block.type === 'tool_use' && !ANTHROPIC_TOOL_NAME.test(block.name), `is a tool_use whose name does not match ${ANTHROPIC_TOOL_NAME.source}`),
  'tool-use-answered': toolUsesAnswered,
  'tool-result-answers-previous': toolResultsAnswerPrevious,
  'tool-results-first': (body) =>
    findBlock(body, (block, message, j) => block.type === 'tool_result' && message.content.slice(0, j).some((b) => b.type === 'text'), 'is a tool_result after text in its message'),
  'tool-error-has-content': (body) => findBlock(body, (block) => block.type === 'tool_result' && block.is_error === true && block.content.trim() === '', 'is an error tool_result without content'),
  'tools-non-empty': (body) => (body.tools?.length === 0 ? 'tools is present but empty' : undefined),
  'tool-name-pattern': (body) =>
    body.tools?.map((tool, i) => (ANTHROPIC_TOOL_NAME.test(tool.name) ? undefined : `tools[${i}].name ${JSON.stringify(tool.name)} does not match ${ANTHROPIC_TOOL_NAME.source}`)).find(Boolean),
  'tool-names-unique': (body) =>
    body.tools?.map((tool, i) => (body.tools!.findIndex((other) => other.name === tool.name) < i ? `tools[${i}].name ${tool.name} is a duplicate` : undefined)).find(Boolean),
  'tool-schema-object': (body) => body.tools?.map((tool, i) => (tool.input_schema.type === 'object' ? undefined : `tools[${i}].input_schema.type is not "object"`)).find(Boolean),
  'tools-defined-for-tool-blocks': (body) => (body.tools === undefined ? findBlock(body, (block) => block.type !== 'text', 'is a tool block in a request that defines no tools') : undefined),
};

function findMessage(body: Body, breaks: (message: Message, i: number) => boolean, what: string): string | undefined {
  const i = body.messages.findIndex(breaks);
  return i === -1 ? undefined : `messages[${i}] ${what}`;
}

/** The first block that breaks a rule; `j` is its place in message `i`. */
function findBlock(body: Body, breaks: (block: Block, message: Message, j: number, i: number) => boolean, what: string): string | undefined {
  for (const [i, message] of body.messages.entries()) {
    const j = message.content.findIndex((block, index) => breaks(block, message, index, i));
    if (j !== -1) return `messages[${i}].content[${j}] ${what}`;
  }
  return undefined;
}

function finalAssistantTrimmed(body: Body): string | undefined {
  const last = body.messages.at(-1);
  const block = last?.role === 'assistant' ? last.content.at(-1) : undefined;
  return block?.type === 'text' && block.text !== block.text.trimEnd() ? 'the final assistant message ends in whitespace' : undefined;
}

function toolUseIdsUnique(body: Body): string | undefined {
  const seen = new Set<string>();
  return findBlock(
    body,
    (block) => {
      if (block.type !== 'tool_use') return false;
      if (seen.has(block.id)) return true;
      seen.add(block.id);
      return false;
    },
    'is a tool_use whose id an earlier tool_use has',
  );
}

/** Every tool_use is answered by exactly one tool_result in the next message (a user message). */
function toolUsesAnswered(body: Body): string | undefined {
  return findBlock(
    body,
    (block, _message, _j, i) => {
      if (block.type !== 'tool_use') return false;
      const next = body.messages[i + 1];
      return next?.content.filter((b) => b.type === 'tool_result' && b.tool_use_id === block.id).length !== 1;
    },
    'is a tool_use not answered by exactly one tool_result in the next message',
  );
}

/** Every tool_result answers a tool_use of the message just before it. */
function toolResultsAnswerPrevious(body: Body): string | undefined {
  return findBlock(
    body,
    (block, _message, _j, i) => {
      if (block.type !== 'tool_result') return false;
      const previous = body.messages[i - 1];
      return previous?.content.some((b) => b.type === 'tool_use' && b.id === block.tool_use_id) !== true;
    },
    'is a tool_result that answers no tool_use of the message before it',
  );
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
