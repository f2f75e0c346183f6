// Turns the provider-neutral conversation into Anthropic messages the API accepts,
// whatever the session holds (issue 12): recorded with another provider, cut off,
// resumed mid-tool-call. It only reshapes what is there, never invents an answer:
// a tool call without a result is answered "no result was recorded".
import type { ChatMessage, ToolUseBlock } from '../../policy/model-protocol.js';

export interface AnthropicText {
  type: 'text';
  text: string;
}
export interface AnthropicToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}
export type AnthropicMessage = { role: 'user'; content: (AnthropicText | AnthropicToolResult)[] } | { role: 'assistant'; content: (AnthropicText | AnthropicToolUse)[] };

/** The API's tool id alphabet (ids it generates match it; it refuses others). */
export const ANTHROPIC_TOOL_ID = /^[a-zA-Z0-9_-]+$/;
/** The API's tool name rule. */
export const ANTHROPIC_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Stand-ins for what the API refuses to see missing; worded so the model knows they are not the user's. */
export const PLACEHOLDERS = {
  userMessage: '[no user message]',
  toolErrorOutput: '[the tool failed without output]',
  missingResult: '[no result was recorded for this tool call]',
} as const;

type Message = AnthropicMessage;

/**
 * The messages for a request. `toolsOffered` false means the request defines no
 * tools, so tool blocks of the history are sent as text (the API refuses tool
 * blocks in a request without tools).
 */
export function toAnthropicMessages(history: readonly ChatMessage[], toolsOffered: boolean): Message[] {
  const blocks = history.map((message) => toBlocks(message, toolsOffered)).filter((message) => message.content.length > 0);
  const merged = mergeSameRole(blocks);
  if (merged[0]?.role !== 'user') merged.unshift({ role: 'user', content: [{ type: 'text', text: PLACEHOLDERS.userMessage }] });
  const paired = pairToolCalls(merged);
  trimFinalAssistant(paired);
  return paired;
}

/** One message's blocks, without text that has no visible character (the API refuses empty and whitespace-only text). */
function toBlocks(message: ChatMessage, toolsOffered: boolean): Message {
  if (message.role === 'assistant') {
    const content = message.content.flatMap((block): (AnthropicText | AnthropicToolUse)[] => {
      if (block.type === 'text') return visibleText(block.text);
      if (!toolsOffered) return visibleText(toolUseAsText(block));
      return [{ type: 'tool_use', id: block.id, name: block.name.replace(/[^a-zA-Z0-9_-]/g, '_'), input: block.input }];
    });
    return { role: 'assistant', content };
  }
  const content = message.content.flatMap((block): (AnthropicText | AnthropicToolResult)[] => {
    if (block.type === 'text') return visibleText(block.text);
    if (!toolsOffered) return visibleText(resultAsText(block.tool_use_id, block.content, block.is_error));
    return [{ type: 'tool_result', tool_use_id: block.tool_use_id, content: resultContent(block.content, block.is_error), is_error: block.is_error }];
  });
  return { role: 'user', content };
}

function visibleText(text: string): AnthropicText[] {
  return text.trim() === '' ? [] : [{ type: 'text', text }];
}

function resultAsText(toolUseId: string, content: string, isError: boolean): string {
  return `[result of tool call ${toolUseId}${isError ? ', an error' : ''}]\n${content}`;
}

function toolUseAsText(block: ToolUseBlock): string {
  return `[tool call ${block.id}: ${block.name} ${JSON.stringify(block.input)}]`;
}

/** A result's content; an error result must say something (the API refuses it empty), so zotbox's output of none says so. */
function resultContent(content: string, isError: boolean): string {
  return content.trim() === '' ? (isError ? PLACEHOLDERS.toolErrorOutput : '') : content;
}

/** Neighbours of one role become one message: the API wants roles to alternate. */
function mergeSameRole(messages: readonly Message[]): Message[] {
  const merged: Message[] = [];
  for (const message of messages) {
    const last = merged.at(-1);
    if (last?.role === 'user' && message.role === 'user') last.content.push(...message.content);
    else if (last?.role === 'assistant' && message.role === 'assistant') last.content.push(...message.content);
    else merged.push(message);
  }
  return merged;
}

/**
 * Every tool_use gets an id the API takes, unique in the request, and exactly one
 * tool_result in the next user message, first in it. An id the API would refuse
 * (another provider's) or one used earlier (a server that restarts its numbering)
 * is replaced, in the call and its result alike. A result that answers no call of
 * the previous message becomes text; a call without a result is answered as such.
 */
function pairToolCalls(messages: readonly Message[]): Message[] {
  const ids = new ToolIdAllocator(messages);
  const paired: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'user') {
      paired.push(answerCalls(message.content, []));
      continue;
    }
    const calls: Call[] = [];
    const content = message.content.map((block) => {
      if (block.type === 'text') return block;
      const call = { original: block.id, id: ids.take(block.id) };
      calls.push(call);
      return { ...block, id: call.id };
    });
    paired.push({ role: 'assistant', content });
    const next = messages[i + 1];
    if (calls.length === 0) continue;
    paired.push(answerCalls(next?.role === 'user' ? next.content : [], calls));
    if (next !== undefined) i++;
  }
  return paired;
}

interface Call {
  readonly original: string;
  readonly id: string;
}

function answerCalls(content: readonly (AnthropicText | AnthropicToolResult)[], calls: readonly Call[]): Message {
  const open = [...calls];
  const results: AnthropicToolResult[] = [];
  const texts: AnthropicText[] = [];
  for (const block of content) {
    if (block.type === 'text') {
      texts.push(block);
      continue;
    }
    const answered = open.findIndex((call) => call.original === block.tool_use_id);
    if (answered === -1) {
      texts.push({ type: 'text', text: resultAsText(block.tool_use_id, block.content, block.is_error) });
      continue;
    }
    results.push({ ...block, tool_use_id: open[answered]!.id });
    open.splice(answered, 1);
  }
  for (const call of open) results.push({ type: 'tool_result', tool_use_id: call.id, content: PLACEHOLDERS.missingResult, is_error: true });
  // The API wants a user message's tool results before its text.
  return { role: 'user', content: [...results, ...texts] };
}

/** Hands out tool ids: the original when the API takes it and it is still free, else `toolu_zb_<n>`, never one the history uses. */
class ToolIdAllocator {
  private readonly used = new Set<string>();
  private readonly reserved = new Set<string>();
  private next = 1;

  constructor(messages: readonly Message[]) {
    for (const message of messages) for (const block of message.content) if (block.type === 'tool_use') this.reserved.add(block.id);
  }

  take(original: string): string {
    let id = original;
    while (!ANTHROPIC_TOOL_ID.test(id) || this.used.has(id) || (id !== original && this.reserved.has(id))) id = `toolu_zb_${this.next++}`;
    this.used.add(id);
    return id;
  }
}

/** A final assistant message is a prefix the model continues; the API refuses one ending in whitespace. */
function trimFinalAssistant(messages: Message[]): void {
  const last = messages.at(-1);
  const block = last?.role === 'assistant' ? last.content.at(-1) : undefined;
  // visibleText kept only text with a visible character, so trimming never leaves it empty.
  if (block?.type === 'text') block.text = block.text.trimEnd();
}
