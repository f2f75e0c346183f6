// Folds an OpenAI Chat Completions stream (OpenAI and compatible servers) into
// one assistant turn. Pure: events in, a turn out; no I/O, no retries. Reads only
// choice 0 (zotbox never asks for n > 1), ignores unknown fields and event types,
// and refuses a finish reason it does not know rather than act on a guess.
import { ZotboxError } from '../../errors.js';
import { AnswerBudget, PER_PART_CHARS } from './answer-budget.js';
import type { AssistantTurn, StopReason, TextBlock, ToolUseBlock, Usage } from '../../policy/model-protocol.js';
import { ChunkSchema, type Choice, type ChunkUsage } from './openai-chunks.js';
import { streamError } from './openai-stream-errors.js';
import { ToolCallAssembler, unreadable } from './openai-tool-calls.js';
import type { ServerSentEvent } from './sse.js';
import type { StreamDecoder } from './stream-decoder.js';

export interface OpenAiStreamDecoderOptions {
  readonly model: string;
  /** The model's context window in tokens, named when the server says the conversation outgrew it. */
  readonly contextWindow: number;
  readonly onText: (delta: string) => void;
}

/** finish_reason → stop. "stop" becomes tool_use when the turn has tool calls (Ollama, llama.cpp and Gemini say "stop"). */
const FINISH_REASONS = new Map<string, StopReason>([
  ['stop', 'end'],
  ['tool_calls', 'tool_use'],
  ['function_call', 'tool_use'],
  ['length', 'max_tokens'],
  ['content_filter', 'content_filter'],
]);

export class OpenAiStreamDecoder implements StreamDecoder {
  private text = '';
  private refused = false;
  private stop: StopReason | undefined;
  private readonly usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number } = { input_tokens: 0, output_tokens: 0 };
  private readonly calls = new ToolCallAssembler();
  private done = false;
  private begun = false;

  constructor(private readonly options: OpenAiStreamDecoderOptions) {}

  get complete(): boolean {
    return this.done;
  }

  get started(): boolean {
    return this.begun;
  }

  get partialText(): string {
    return this.text;
  }

  get progress(): number {
    return this.answerChunks;
  }

  private answerChunks = 0;
  private readonly budget = new AnswerBudget('the model server');

  push(event: ServerSentEvent): void {
    // After [DONE] nothing counts (the SDK skips it too); the driver passes nothing after it anyway.
    if (this.done) return;
    if (event.event === 'error') throw streamError(errorPayload(parseJson(event.data) ?? event.data), this.options);
    if (event.event !== 'message') return;
    if (event.data === '[DONE]') {
      this.done = true;
      return;
    }
    const json = parseJson(event.data);
    if (json === undefined) throw unreadable(`a chunk that is not JSON (${event.data.slice(0, 80)})`);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw unreadable('a chunk that is not a JSON object');
    const error = (json as { error?: unknown }).error;
    if (error !== undefined && error !== null) throw streamError(error, this.options);
    const parsed = ChunkSchema.safeParse(json);
    if (!parsed.success) throw unreadable(`a chunk with an unexpected shape (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
    if (parsed.data.usage) this.addUsage(parsed.data.usage);
    const choice = ourChoice(parsed.data.choices ?? []);
    if (parsed.data.usage || (choice !== undefined && carriesAnswer(choice))) this.answerChunks++;
    if (choice !== undefined) this.addChoice(choice);
  }

  private addChoice(choice: Choice): void {
    const delta = choice.delta;
    // After the finish reason the answer is over (only usage may follow): more of it is a stream that contradicts
    // itself, and a tool call opened there could never be known to be whole.
    if (this.stop !== undefined && (Boolean(delta?.content) || Boolean(delta?.refusal) || (delta?.tool_calls?.length ?? 0) > 0)) {
      throw unreadable('more of the answer after its finish reason');
    }
    if (delta?.content) this.addText(delta.content);
    if (delta?.refusal) {
      this.refused = true;
      this.addText(delta.refusal);
    }
    if (delta?.tool_calls && delta.tool_calls.length > 0) {
      this.begun = true;
      for (const call of delta.tool_calls) this.budget.add(PER_PART_CHARS + (call.function?.arguments?.length ?? 0) + (call.function?.name?.length ?? 0) + (call.id?.length ?? 0));
      this.calls.add(delta.tool_calls);
    }
    // null is "not yet"; so is "" (some gateways send it on every chunk, and the SDK reads it so too).
    if (choice.finish_reason !== null && choice.finish_reason !== undefined && choice.finish_reason !== '') {
      const stop = FINISH_REASONS.get(choice.finish_reason);
      if (stop === undefined) throw unreadable(`the finish reason "${choice.finish_reason.slice(0, 80)}", which zotbox does not know (it knows ${[...FINISH_REASONS.keys()].join(', ')})`);
      this.stop = stop;
    }
  }

  private addText(delta: string): void {
    this.budget.add(delta.length);
    this.begun = true;
    this.text += delta;
    this.options.onText(delta);
  }

  /** Usage chunks may repeat (vLLM's continuous usage) and leave fields out: each field present replaces the last. */
  private addUsage(usage: ChunkUsage): void {
    if (typeof usage.prompt_tokens === 'number') this.usage.input_tokens = usage.prompt_tokens;
    if (typeof usage.completion_tokens === 'number') this.usage.output_tokens = usage.completion_tokens;
    const cached = usage.prompt_tokens_details?.cached_tokens;
    if (typeof cached === 'number') this.usage.cache_read_input_tokens = cached;
  }

  finish(): AssistantTurn {
    if (this.stop === undefined) {
      const where = this.done ? 'said [DONE] without a finish reason' : 'ended before a finish reason';
      throw new ZotboxError(
        'ZB_PROVIDER_INTERRUPTED',
        `the model server's stream ${where}, so the answer is incomplete. Fix: try again; if it keeps happening, check the server or proxy between zotbox and it.`,
        {
          details: { partialTextChars: this.text.length },
        },
      );
    }
    const calls = this.calls.finish(this.stop === 'max_tokens' || this.stop === 'content_filter');
    if (this.stop === 'tool_use' && calls.length === 0 && !this.refused) throw unreadable('a finish reason that asks for tool calls, but no tool call');
    const content: (TextBlock | ToolUseBlock)[] = this.text === '' ? [] : [{ type: 'text', text: this.text }];
    content.push(...calls);
    return { content, stop: this.finalStop(this.stop, calls.length), usage: { ...this.usage } satisfies Usage };
  }

  private finalStop(stop: StopReason, calls: number): StopReason {
    if (this.refused) return 'refusal';
    return stop === 'end' && calls > 0 ? 'tool_use' : stop;
  }
}

/**
 * A chunk that carries some of the answer: text, a refusal, tool calls, a
 * finish reason, or the reasoning compatible servers stream before the answer
 * (reasoning_content, reasoning). An empty delta is a keep-alive.
 */
function carriesAnswer(choice: Choice): boolean {
  const delta = choice.delta;
  const text = (value: unknown) => typeof value === 'string' && value !== '';
  return text(delta?.content) || text(delta?.refusal) || (delta?.tool_calls?.length ?? 0) > 0 || text(delta?.['reasoning_content']) || text(delta?.['reasoning']) || text(choice.finish_reason);
}

/** Choice 0, or the only choice without an index; other indexes are ignored (zotbox asks for one choice). */
function ourChoice(choices: readonly Choice[]): Choice | undefined {
  const ours = choices.filter((choice) => choice.index === undefined || choice.index === null || choice.index === 0);
  if (ours.length > 1) throw unreadable(`a chunk with ${ours.length} entries for choice 0 (zotbox asks for one choice)`);
  return ours[0];
}

/** The `error` field of an error event's JSON, or the event itself. */
function errorPayload(json: unknown): unknown {
  if (typeof json === 'object' && json !== null && 'error' in json) return json.error;
  return json;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: the caller says what that means where it is.
    return undefined;
  }
}
