// The agent loop: ask the model, run the tool calls it makes through the gate,
// hand back the results (a denial is a tool error the model sees, and the run
// continues), until the model answers without tool calls, refuses, the turn
// limit, a fault, or cancellation. Every tool call goes to the gate, whatever
// its name or input: the gate refuses what it does not know, in the host's sight.
import { ZotboxError, isZotboxError, toZotboxError } from '../errors.js';
import type { GateClient } from '../policy/gate-client.js';
import type { AssistantTurn, ChatMessage, ToolResultBlock, ToolSpec, ToolUseBlock } from '../policy/model-protocol.js';
import type { ModelClient } from './model-client.js';

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
  /** The model and its context window in tokens, named when the conversation outgrows it. */
  readonly model?: { readonly id: string; readonly contextWindow: number };
  readonly signal?: AbortSignal;
}

/**
 * How a run ended: completed (answered, and no prompt is left), max_turns,
 * cancelled, refused (the model declined: stop refusal), content_filtered (a
 * provider's filter stopped the answer), or failed (with the error). finalText
 * and turns are what was completed, also when it failed.
 */
export type AgentLoopStatus = 'completed' | 'max_turns' | 'cancelled' | 'refused' | 'content_filtered' | 'failed';

export interface AgentLoopResult {
  readonly status: AgentLoopStatus;
  readonly finalText: string;
  readonly turns: number;
  readonly messages: readonly ChatMessage[];
  /** Set when status is failed. */
  readonly error?: ZotboxError;
}

/** The text the model sees for a tool's outcome. */
function describeResult(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result, null, 1);
}

async function runTool(gate: Pick<GateClient, 'call' | 'report'>, call: ToolUseBlock): Promise<ToolResultBlock> {
  try {
    const result = await gate.call(call.name, call.input);
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
    private readonly model: AgentLoopInput['model'],
  ) {
    this.chars = system.length + JSON.stringify(tools).length;
  }
  add(message: ChatMessage): void {
    if (this.limit !== undefined) this.chars += JSON.stringify(message).length;
  }
  /** Throws ZB_MODEL_CONTEXT_EXCEEDED when the next request would be larger than the limit. */
  check(): void {
    if (this.limit === undefined || this.chars <= this.limit) return;
    const window = this.model === undefined ? "the model's context window" : `${this.model.id}'s context window (${this.model.contextWindow.toLocaleString('en-US')} tokens)`;
    throw new ZotboxError(
      'ZB_MODEL_CONTEXT_EXCEEDED',
      `the conversation has grown to ${this.chars} characters, more than ${window} can hold (this run's limit is ${this.limit} characters); it was not sent. Fix: ask for smaller steps, read large files in parts (read with offset and limit), or use a model with a larger context window.`,
      {
        details: { conversationChars: this.chars, limitChars: this.limit, ...(this.model === undefined ? {} : { model: this.model.id, contextWindow: this.model.contextWindow }) },
      },
    );
  }
}

/** The tool calls of an answer that runs none (refused, filtered, paused): reported to the gate, never run. */
async function reportUnrun(gate: Pick<GateClient, 'report'>, answer: AssistantTurn): Promise<void> {
  const why = { refusal: 'the model refused', content_filter: "a provider's content filter stopped the answer", pause_turn: 'the answer was paused' } as const;
  for (const block of answer.content) {
    if (block.type !== 'tool_use' || answer.stop === 'end' || answer.stop === 'tool_use' || answer.stop === 'max_tokens') continue;
    await gate.report(block.name, block.input, 'ZB_MODEL_CALL_NOT_RUN', `not run: ${why[answer.stop]}, and a call in such an answer is never run.`);
  }
}

/** The text blocks of an answer, joined: what run.end reports as final_text. */
function textOf(answer: AssistantTurn): string {
  return answer.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

/** Runs the loop; a fault ends it as failed, with the turns and text completed before it. */
export async function runAgentLoop(gate: Pick<GateClient, 'call' | 'report'>, model: Pick<ModelClient, 'complete'>, input: AgentLoopInput): Promise<AgentLoopResult> {
  const progress = new LoopProgress(input);
  try {
    return await runTurns(gate, model, input, progress);
  } catch (error) {
    return { ...progress.result('failed'), error: toZotboxError(error) };
  }
}

/** The conversation, the turns and the last answer's text, kept as they happen so a failure can report them. */
class LoopProgress {
  readonly messages: ChatMessage[] = [];
  finalText = '';
  turns = 0;
  private readonly size: ConversationSize;
  constructor(input: AgentLoopInput) {
    this.size = new ConversationSize(input.system, input.tools, input.maxConversationChars, input.model);
  }
  push(message: ChatMessage): void {
    this.messages.push(message);
    this.size.add(message);
  }
  /** Text of paused answers not yet followed by the rest of their turn. */
  pausedText = '';
  /**
   * Adds a paused answer's text to the assistant message before it, or starts
   * one: the API continues the last assistant message. Tool calls of a paused
   * answer are dropped: a turn that is not finished is never acted on.
   */
  extendLast(answer: AssistantTurn): void {
    const content = answer.content.filter((b) => b.type === 'text');
    if (content.length === 0) return;
    const last = this.messages.at(-1);
    this.size.add({ role: 'assistant', content });
    if (last?.role === 'assistant') this.messages[this.messages.length - 1] = { role: 'assistant', content: [...last.content, ...content] };
    else this.messages.push({ role: 'assistant', content });
    this.pausedText += textOf(answer);
  }
  /** The text of a finished answer, after the text of the paused answers it continues. */
  finish(answer: AssistantTurn): void {
    this.finalText = this.pausedText + textOf(answer);
    this.pausedText = '';
  }
  checkSize(): void {
    this.size.check();
  }
  result(status: AgentLoopStatus): AgentLoopResult {
    return { status, finalText: this.finalText, turns: this.turns, messages: this.messages };
  }
}

async function runTurns(gate: Pick<GateClient, 'call' | 'report'>, model: Pick<ModelClient, 'complete'>, input: AgentLoopInput, progress: LoopProgress): Promise<AgentLoopResult> {
  const { messages } = progress;
  for (const message of input.history ?? []) progress.push(message);
  const pending = [...input.prompts];
  let preamble = input.preamble;
  const end = (status: AgentLoopStatus): AgentLoopResult => progress.result(status);
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
    progress.push({ role: 'user', content: [{ type: 'text', text }] });
    return true;
  };

  if (!(await ask())) return end(cancelled() ? 'cancelled' : 'completed');
  // The turn limit counts model turns since the last user message.
  let turnsSinceUser = 0;
  for (;;) {
    if (cancelled()) return end('cancelled');
    if (turnsSinceUser >= input.maxTurns) return end('max_turns');
    progress.checkSize();
    let answer;
    try {
      answer = await model.complete(input.system, messages, input.tools);
    } catch (error) {
      if (cancelled()) return end('cancelled');
      throw error;
    }
    progress.turns++;
    turnsSinceUser++;
    if (answer.stop === 'pause_turn') {
      // The server paused a long turn: send it back as it is and the model goes on (the turn limit still applies).
      await reportUnrun(gate, answer);
      progress.extendLast(answer);
      continue;
    }
    // The model APIs refuse an assistant message without content when it is sent back.
    const content = answer.content.length > 0 ? answer.content : [{ type: 'text' as const, text: answer.stop === 'max_tokens' ? '[output cut off]' : '[no output]' }];
    progress.push({ role: 'assistant', content });
    progress.finish(answer);
    if (answer.stop === 'refusal' || answer.stop === 'content_filter') {
      await reportUnrun(gate, answer);
      return end(answer.stop === 'refusal' ? 'refused' : 'content_filtered');
    }
    const calls = answer.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (calls.length === 0 && answer.stop === 'max_tokens') {
      // Cut off by the output limit: not an answer. Ask the model to go on (the turn limit still applies).
      progress.push({ role: 'user', content: [{ type: 'text', text: OUTPUT_LIMIT_NOTICE }] });
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
      results.push(await runTool(gate, call));
    }
    if (cancelled()) return end('cancelled');
    // Cut off by the output limit with some calls whole: their results, and word that the rest was cut (a call it was making was dropped).
    const notice = answer.stop === 'max_tokens' ? [{ type: 'text' as const, text: OUTPUT_LIMIT_NOTICE }] : [];
    progress.push({ role: 'user', content: [...results, ...notice] });
  }
}
