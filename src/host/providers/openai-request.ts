// The Chat Completions request body: built from a neutral ModelTurnRequest, and
// checked before it leaves. The builder turns ANY conversation the neutral
// schema allows into a body the API takes (it sanitizes, never throws); the check
// throws ZB_INTERNAL_BUG when a body breaks a rule, since zotbox built it.
import { ZotboxError } from '../../errors.js';
import type { ChatMessage, ToolResultBlock, ToolSpec, ToolUseBlock } from '../../policy/model-protocol.js';
import { findOpenAiRequestViolation, MAX_TOOL_CALL_ID_CHARS } from './openai-request-rules.js';
import type { ModelTurnRequest } from './provider.js';

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface OpenAiRequestBody {
  model: string;
  stream: true;
  stream_options: { include_usage: true };
  messages: OpenAiMessage[];
  /** Omitted, never [], when there are no tools (OpenAI refuses an empty array). */
  tools?: OpenAiTool[];
}

/** What the builder writes where the conversation has nothing the API would take. */
export const PLACEHOLDERS = {
  conversationStart: '[conversation start]',
  emptyUserMessage: '[empty message]',
  emptyAssistantMessage: '[no output]',
  emptyToolResult: '[empty tool output]',
  unansweredToolCall: '[no result: this tool call was not run]',
} as const;

export function buildOpenAiRequestBody(options: { readonly model: string }, request: ModelTurnRequest): OpenAiRequestBody {
  return {
    model: options.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: toOpenAiMessages(request.system, request.messages),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toOpenAiTool) }),
  };
}

/** Throws ZB_INTERNAL_BUG naming the first rule the body breaks (the list is in openai-request-rules.ts). */
export function checkOpenAiRequestBody(body: OpenAiRequestBody): void {
  const violation = findOpenAiRequestViolation(body);
  if (violation === undefined) return;
  throw new ZotboxError(
    'ZB_INTERNAL_BUG',
    `zotbox built a request openai would refuse: ${violation.what} (rule ${violation.rule}, at ${violation.at}). This is a bug in zotbox; rerun with --debug and report the output.`,
    {
      details: { rule: violation.rule, at: violation.at },
    },
  );
}

function toOpenAiTool(tool: ToolSpec): OpenAiTool {
  // A tool schema without a type is an object schema; OpenAI wants that said.
  const parameters = 'type' in tool.input_schema ? tool.input_schema : { type: 'object', ...tool.input_schema };
  return { type: 'function', function: { name: tool.name, ...(tool.description === '' ? {} : { description: tool.description }), parameters } };
}

interface OpenCall {
  readonly originalId: string;
  readonly wireId: string;
  answered: boolean;
}

/**
 * Neutral messages → Chat Completions messages. Tool results go first (as
 * "tool" messages right after the assistant message that made the calls), a
 * call left unanswered gets a placeholder result, a result that answers no open
 * call becomes user text, empty text is dropped or replaced by a placeholder,
 * and tool call ids are rewritten (consistently in calls and results) where they
 * are too long or repeat an earlier one.
 */
export function toOpenAiMessages(system: string, messages: readonly ChatMessage[]): OpenAiMessage[] {
  const out: OpenAiMessage[] = system === '' ? [] : [{ role: 'system', content: system }];
  const ids = new WireIds();
  let open: OpenCall[] = [];
  const answerTheRest = () => {
    for (const call of open) if (!call.answered) out.push({ role: 'tool', tool_call_id: call.wireId, content: PLACEHOLDERS.unansweredToolCall });
    open = [];
  };
  for (const message of messages) {
    if (message.role === 'assistant') {
      answerTheRest();
      if (out.length === 0) out.push({ role: 'user', content: PLACEHOLDERS.conversationStart });
      const calls = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      open = calls.map((call) => ({ originalId: call.id, wireId: ids.wireId(call.id), answered: false }));
      out.push(assistantMessage(message, calls, open));
      continue;
    }
    const texts: string[] = [];
    let answered = 0;
    for (const block of message.content) {
      if (block.type === 'text') {
        if (block.text !== '') texts.push(block.text);
        continue;
      }
      const call = open.find((c) => !c.answered && c.originalId === block.tool_use_id);
      if (call === undefined) {
        texts.push(orphanResultText(block));
        continue;
      }
      call.answered = true;
      answered++;
      // Chat Completions has no error flag on tool messages; the agent loop's text already starts with "error:".
      out.push({ role: 'tool', tool_call_id: call.wireId, content: block.content === '' ? PLACEHOLDERS.emptyToolResult : block.content });
    }
    answerTheRest();
    if (texts.length === 0 && answered === 0) texts.push(PLACEHOLDERS.emptyUserMessage);
    for (const text of texts) out.push({ role: 'user', content: text });
  }
  answerTheRest();
  if (out.length === 0) out.push({ role: 'user', content: PLACEHOLDERS.emptyUserMessage });
  return out;
}

function assistantMessage(message: ChatMessage, calls: readonly ToolUseBlock[], wire: readonly OpenCall[]): OpenAiMessage {
  const text = message.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
  const content = text !== '' ? text : calls.length > 0 ? null : PLACEHOLDERS.emptyAssistantMessage;
  if (calls.length === 0) return { role: 'assistant', content };
  const toolCalls = calls.map((call, i): OpenAiToolCall => ({ id: wire[i]!.wireId, type: 'function', function: { name: wireToolName(call.name), arguments: JSON.stringify(call.input) } }));
  return { role: 'assistant', content, tool_calls: toolCalls };
}

/** A tool result whose call is not open (answered already, or never made): kept for the model as user text. */
function orphanResultText(block: ToolResultBlock): string {
  return `[result of tool call ${block.tool_use_id}${block.is_error ? ', an error' : ''}]\n${block.content === '' ? PLACEHOLDERS.emptyToolResult : block.content}`;
}

/** Tool call ids as sent: the neutral id where it fits and is new in the request, else a fresh call_zb_h<n>. */
class WireIds {
  private readonly used = new Set<string>();
  private next = 0;

  wireId(original: string): string {
    let id = original;
    while (id.length > MAX_TOOL_CALL_ID_CHARS || this.used.has(id)) id = `call_zb_h${++this.next}`;
    this.used.add(id);
    return id;
  }
}

/**
 * A history call's name as OpenAI takes it (^[a-zA-Z0-9_-]{1,64}$): models do
 * call tools that do not exist ("multi_tool_use.parallel", "read file"); the gate
 * refused those calls, and the history keeps them under a name every later
 * request can carry. The same rewrite as the Anthropic builder's.
 */
function wireToolName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return safe === '' ? '_' : safe;
}
