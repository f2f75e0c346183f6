// The agent loop: ask the model, run the tool calls it makes through the gate,
// hand back the results (a denial is a tool error the model sees, and the run
// continues), until the model answers without tool calls, the turn limit, or
// cancellation.
import { ZotboxError, isZotboxError } from '../errors.js';
import type { GateClient } from '../policy/gate-client.js';
import type { ChatMessage, ToolResultBlock, ToolSpec, ToolUseBlock } from '../policy/model-protocol.js';
import type { ModelClient } from './model-client.js';
import { TOOL_NAMES } from './tools.js';

export interface AgentLoopInput {
  readonly system: string;
  /** User turns, each run to its answer before the next is sent; the turn limit covers them all. */
  readonly prompts: readonly string[];
  /** Interactive runs: the user's next message once the scripted prompts are answered; undefined ends the run. */
  readonly nextInput?: () => Promise<string | undefined>;
  /** Put before the first user message, whatever its source (entry.pre's command output). */
  readonly preamble?: string;
  /** Earlier messages of a continued session; ends with an assistant message (or is empty). */
  readonly history?: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  readonly maxTurns: number;
  /**
   * The conversation (system prompt, tools and messages, as JSON characters) may
   * not grow past this: the model could not take it, and the run's memory stays
   * bounded (the host sets it from the model's context window).
   */
  readonly maxConversationChars?: number;
  readonly signal?: AbortSignal;
}

export interface AgentLoopResult {
  readonly status: 'completed' | 'max_turns' | 'cancelled';
  readonly finalText: string;
  readonly turns: number;
  readonly messages: readonly ChatMessage[];
}

/** The text the model sees for a tool's outcome. */
function describeResult(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result, null, 1);
}

async function runTool(gate: Pick<GateClient, 'call'>, call: ToolUseBlock, offered: ReadonlySet<string>): Promise<ToolResultBlock> {
  if (!TOOL_NAMES.has(call.name) || !offered.has(call.name)) {
    return { type: 'tool_result', tool_use_id: call.id, content: `error: there is no tool named ${JSON.stringify(call.name)}`, is_error: true };
  }
  try {
    const result = await gate.call(call.name as 'read', call.input as never);
    return { type: 'tool_result', tool_use_id: call.id, content: describeResult(result), is_error: false };
  } catch (error) {
    const text = isZotboxError(error) ? `${error.code}: ${error.message}` : String(error);
    return { type: 'tool_result', tool_use_id: call.id, content: `error: ${text}`, is_error: true };
  }
}

/** Sent to the model when its answer was cut off by the output token limit. */
export const OUTPUT_LIMIT_NOTICE =
  'zotbox: your last answer was cut off at the output token limit, and any tool call it was making was incomplete and has been dropped. Continue from where you stopped; write large files in smaller parts (write, then edit to append).';

/** Counts the conversation's size as it grows, once per message. */
class ConversationSize {
  private chars: number;
  constructor(
    system: string,
    tools: readonly ToolSpec[],
    private readonly limit: number | undefined,
  ) {
    this.chars = system.length + JSON.stringify(tools).length;
  }
  add(message: ChatMessage): void {
    if (this.limit !== undefined) this.chars += JSON.stringify(message).length;
  }
  /** Throws ZB_MODEL_CONTEXT_EXCEEDED when the next request would be larger than the limit. */
  check(): void {
    if (this.limit === undefined || this.chars <= this.limit) return;
    throw new ZotboxError(
      'ZB_MODEL_CONTEXT_EXCEEDED',
      `the conversation has grown to ${this.chars} characters, more than the model's context window can hold (this run's limit is ${this.limit}); it was not sent. Fix: ask for smaller steps, read large files in parts (read with offset and limit), or use a model with a larger context window.`,
      {
        details: { conversationChars: this.chars, limitChars: this.limit },
      },
    );
  }
}

export async function runAgentLoop(gate: Pick<GateClient, 'call'>, model: Pick<ModelClient, 'complete'>, input: AgentLoopInput): Promise<AgentLoopResult> {
  const size = new ConversationSize(input.system, input.tools, input.maxConversationChars);
  const messages: ChatMessage[] = [];
  const push = (message: ChatMessage) => {
    messages.push(message);
    size.add(message);
  };
  for (const message of input.history ?? []) push(message);
  const pending = [...input.prompts];
  const offered = new Set(input.tools.map((t) => t.name));
  let finalText = '';
  let turns = 0;
  let preamble = input.preamble;
  const end = (status: AgentLoopResult['status']): AgentLoopResult => ({ status, finalText, turns, messages });
  const cancelled = () => input.signal?.aborted === true;
  /** The next user message: a scripted prompt, else (interactive) the user's input. False when there is none. */
  const ask = async (): Promise<boolean> => {
    let text = pending.shift();
    if (text === undefined && input.nextInput !== undefined) {
      try {
        text = await input.nextInput();
      } catch (error) {
        if (cancelled()) return false;
        throw error;
      }
    }
    if (text === undefined) return false;
    if (preamble !== undefined) {
      text = `${preamble}\n\n${text}`;
      preamble = undefined;
    }
    push({ role: 'user', content: [{ type: 'text', text }] });
    return true;
  };

  if (!(await ask())) return end(cancelled() ? 'cancelled' : 'completed');
  // The turn limit counts model turns since the last user message.
  let turnsSinceUser = 0;
  for (;;) {
    if (cancelled()) return end('cancelled');
    if (turnsSinceUser >= input.maxTurns) return end('max_turns');
    size.check();
    let answer;
    try {
      answer = await model.complete(input.system, messages, input.tools);
    } catch (error) {
      if (cancelled()) return end('cancelled');
      throw error;
    }
    turns++;
    turnsSinceUser++;
    // The model APIs refuse an assistant message without content when it is sent back.
    const content = answer.content.length > 0 ? answer.content : [{ type: 'text' as const, text: answer.stop === 'max_tokens' ? '[output cut off]' : '[no output]' }];
    push({ role: 'assistant', content });
    finalText = answer.content
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('');
    const calls = answer.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (calls.length === 0 && answer.stop === 'max_tokens') {
      // Cut off by the output limit: not an answer. Ask the model to go on (the turn limit still applies).
      push({ role: 'user', content: [{ type: 'text', text: OUTPUT_LIMIT_NOTICE }] });
      continue;
    }
    if (calls.length === 0) {
      if (!(await ask())) return end(cancelled() ? 'cancelled' : 'completed');
      turnsSinceUser = 0;
      continue;
    }
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      if (cancelled()) return end('cancelled');
      results.push(await runTool(gate, call, offered));
    }
    if (cancelled()) return end('cancelled');
    push({ role: 'user', content: results });
  }
}
