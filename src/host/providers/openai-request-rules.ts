// The rules a Chat Completions request body must keep, as the API and the
// compatible servers zotbox talks to enforce them (closed world: a field zotbox
// does not send is itself a violation). Pure: a body in, the first broken rule
// out; openai-request.ts turns that into ZB_INTERNAL_BUG.
import { z } from 'zod';

export interface RequestViolation {
  /** A stable name for the rule (tests and bug reports use it). */
  readonly rule: string;
  /** Where in the body: "messages[3].tool_calls[0].id". */
  readonly at: string;
  readonly what: string;
}

/** OpenAI refuses longer tool call ids ("expected a string with maximum length 40"). */
export const MAX_TOOL_CALL_ID_CHARS = 40;
/** OpenAI's rule for function names. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const ToolCallShape = z.strictObject({ id: z.string(), type: z.literal('function'), function: z.strictObject({ name: z.string(), arguments: z.string() }) });
const MessageShape = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: z.string() }),
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(ToolCallShape).optional() }),
  z.strictObject({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() }),
]);
const ToolShape = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({ name: z.string(), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()) }),
});
/** Only the fields zotbox sends, with their types; the values are the rules' business. */
const BodyShape = z.strictObject({
  model: z.string(),
  stream: z.boolean(),
  stream_options: z.strictObject({ include_usage: z.boolean() }),
  messages: z.array(MessageShape),
  tools: z.array(ToolShape).optional(),
});

type Body = z.infer<typeof BodyShape>;
type Message = Body['messages'][number];
type ToolCall = z.infer<typeof ToolCallShape>;
type Tool = z.infer<typeof ToolShape>;
type Rule = (body: Body) => RequestViolation | undefined;

/** The first rule the body breaks: its shape first, then RULES in order. */
export function findOpenAiRequestViolation(body: unknown): RequestViolation | undefined {
  const shape = BodyShape.safeParse(body);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    return { rule: 'shape', at: issue.path.join('.') || 'body', what: `the body has a field zotbox does not send or one of the wrong type (${issue.message})` };
  }
  for (const rule of RULES) {
    const violation = rule(shape.data);
    if (violation !== undefined) return violation;
  }
  return undefined;
}

const RULES: readonly Rule[] = [
  (body) => (body.model === '' ? { rule: 'model-named', at: 'model', what: 'the model is empty' } : undefined),
  (body) => (body.stream ? undefined : { rule: 'stream', at: 'stream', what: 'stream is not true (zotbox reads answers as streams)' }),
  (body) => (body.stream_options.include_usage ? undefined : { rule: 'usage-requested', at: 'stream_options.include_usage', what: 'include_usage is not true, so the stream would carry no usage' }),
  (body) => (body.messages.length === 0 ? { rule: 'messages-non-empty', at: 'messages', what: 'there are no messages' } : undefined),
  (body) => {
    const role = body.messages[0]?.role;
    return role === 'system' || role === 'user' ? undefined : { rule: 'first-message', at: 'messages[0]', what: `the first message is from the ${role ?? 'nobody'}, not the system or the user` };
  },
  eachMessage((m) => (m.role === 'system' && m.content === '' ? ['system-non-empty', 'a system message is empty'] : undefined)),
  eachMessage((m) => (m.role === 'user' && m.content === '' ? ['user-non-empty', 'a user message is empty (compatible servers refuse "")'] : undefined)),
  eachMessage((m) => (m.role === 'tool' && m.content === '' ? ['tool-result-non-empty', 'a tool message is empty (compatible servers refuse "")'] : undefined)),
  eachMessage((m) => (m.role === 'assistant' && m.tool_calls?.length === 0 ? ['tool-calls-non-empty', 'an assistant message has tool_calls: [] (OpenAI wants it left out)'] : undefined)),
  eachMessage((m) =>
    m.role === 'assistant' && (m.content === '' || (m.content === null && (m.tool_calls ?? []).length === 0))
      ? ['assistant-non-empty', 'an assistant message has neither text nor a tool call']
      : undefined,
  ),
  eachToolCall((call) =>
    call.id.length >= 1 && call.id.length <= MAX_TOOL_CALL_ID_CHARS ? undefined : ['tool-call-id-length', `a tool call id has ${call.id.length} characters (1 to ${MAX_TOOL_CALL_ID_CHARS} allowed)`],
  ),
  eachToolCall((call) => (call.function.name === '' ? ['tool-call-named', 'a tool call has no function name'] : undefined)),
  // OpenAI applies the name rule to the history's calls too (400 invalid_value on messages[].tool_calls[].function.name).
  eachToolCall((call) =>
    TOOL_NAME_PATTERN.test(call.function.name) ? undefined : ['tool-call-name-pattern', `the tool call name "${call.function.name.slice(0, 80)}" does not match ${TOOL_NAME_PATTERN.source}`],
  ),
  eachToolCall((call) => (isJsonObjectText(call.function.arguments) ? undefined : ['tool-call-arguments', "a tool call's arguments are not the JSON text of an object"])),
  uniqueToolCallIds,
  toolAnswers,
  (body) => (body.tools?.length === 0 ? { rule: 'tools-omitted-when-empty', at: 'tools', what: 'tools is [] (OpenAI refuses an empty array; leave it out)' } : undefined),
  eachTool((tool) => (TOOL_NAME_PATTERN.test(tool.function.name) ? undefined : ['tool-name-pattern', `the tool name "${tool.function.name}" does not match ${TOOL_NAME_PATTERN.source}`])),
  eachTool((tool) => (tool.function.parameters['type'] === 'object' ? undefined : ['tool-parameters-object', `the parameters of ${tool.function.name} are not a JSON Schema of type "object"`])),
  (body) => {
    const names = (body.tools ?? []).map((tool) => tool.function.name);
    const twice = names.findIndex((name, i) => names.indexOf(name) !== i);
    return twice === -1 ? undefined : { rule: 'tool-names-unique', at: `tools[${twice}]`, what: `two tools are named "${names[twice]!}"` };
  },
];

type Found = [rule: string, what: string] | undefined;

function eachMessage(check: (message: Message) => Found): Rule {
  return (body) => {
    for (const [i, message] of body.messages.entries()) {
      const found = check(message);
      if (found) return { rule: found[0], at: `messages[${i}]`, what: found[1] };
    }
    return undefined;
  };
}

function eachToolCall(check: (call: ToolCall) => Found): Rule {
  return (body) => {
    for (const [i, message] of body.messages.entries()) {
      if (message.role !== 'assistant') continue;
      for (const [j, call] of (message.tool_calls ?? []).entries()) {
        const found = check(call);
        if (found) return { rule: found[0], at: `messages[${i}].tool_calls[${j}]`, what: found[1] };
      }
    }
    return undefined;
  };
}

function eachTool(check: (tool: Tool) => Found): Rule {
  return (body) => {
    for (const [i, tool] of (body.tools ?? []).entries()) {
      const found = check(tool);
      if (found) return { rule: found[0], at: `tools[${i}]`, what: found[1] };
    }
    return undefined;
  };
}

/** Tool call ids are unique in the whole body: a tool message names its call by id alone. */
function uniqueToolCallIds(body: Body): RequestViolation | undefined {
  const seen = new Set<string>();
  for (const [i, message] of body.messages.entries()) {
    if (message.role !== 'assistant') continue;
    for (const [j, call] of (message.tool_calls ?? []).entries()) {
      if (seen.has(call.id)) return { rule: 'tool-call-ids-unique', at: `messages[${i}].tool_calls[${j}]`, what: `the tool call id "${call.id}" is used twice` };
      seen.add(call.id);
    }
  }
  return undefined;
}

/**
 * Tool messages come right after the assistant message whose calls they answer
 * (after other tool messages only), each call answered once, and every call
 * answered before the next other message or the end of the body.
 */
function toolAnswers(body: Body): RequestViolation | undefined {
  let open = new Map<string, boolean>();
  let openedAt = -1;
  const unanswered = () => [...open.entries()].find(([, answered]) => !answered)?.[0];
  for (const [i, message] of body.messages.entries()) {
    if (message.role === 'tool') {
      const answered = open.get(message.tool_call_id);
      if (answered === undefined)
        return { rule: 'tool-answers-a-call', at: `messages[${i}]`, what: `the tool message for "${message.tool_call_id}" does not follow the assistant message that made that call` };
      if (answered) return { rule: 'tool-answers-a-call', at: `messages[${i}]`, what: `the tool call "${message.tool_call_id}" is answered twice` };
      open.set(message.tool_call_id, true);
      continue;
    }
    const waiting = unanswered();
    if (waiting !== undefined) return { rule: 'calls-answered', at: `messages[${openedAt}]`, what: `the tool call "${waiting}" is not answered before the next message` };
    open = new Map(message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => [call.id, false]) : []);
    openedAt = i;
  }
  const waiting = unanswered();
  return waiting === undefined ? undefined : { rule: 'calls-answered', at: `messages[${openedAt}]`, what: `the tool call "${waiting}" is never answered` };
}

function isJsonObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    // Not JSON at all: the rule is broken, which is what the caller asks.
    return false;
  }
}
