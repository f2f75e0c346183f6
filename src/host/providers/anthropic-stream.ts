// Folds the server-sent events of one Anthropic Messages stream into an
// AssistantTurn (issue 12). Pure: no I/O, no retries. Unknown events, blocks and
// deltas are ignored as the SDK ignores them; data the API never sends is refused;
// a tool call the stream did not finish is never guessed at.
import type { z } from 'zod';
import { UNPARSED_ARGUMENTS_KEY, type AssistantTurn, type StopReason, type TextBlock, type ToolUseBlock, type Usage } from '../../policy/model-protocol.js';
import {
  ContentBlockDeltaSchema,
  ContentBlockStartSchema,
  ContentBlockStopSchema,
  EventEnvelopeSchema,
  InputJsonDeltaSchema,
  MessageDeltaSchema,
  MessageStartSchema,
  TextBlockStartSchema,
  TextDeltaSchema,
  ToolUseBlockStartSchema,
  type UsageCounts,
} from './anthropic-events.js';
import { errorEvent, interrupted, unknownStopReason, unreadable } from './anthropic-stream-errors.js';
import { AnswerBudget, PER_PART_CHARS } from './answer-budget.js';
import { contextWindowExceeded } from './context-window-error.js';
import type { ServerSentEvent } from './sse.js';
import type { StreamDecoder } from './stream-decoder.js';

export interface AnthropicStreamDecoderOptions {
  readonly model: string;
  /** The model's context window in tokens, named when the API stops for it. */
  readonly contextWindow: number;
  readonly onText: (delta: string) => void;
}

type Block =
  | { readonly kind: 'text'; text: string; stopped: boolean }
  | { readonly kind: 'tool_use'; readonly id: string; readonly name: string; readonly startInput: Record<string, unknown>; json: string; stopped: boolean }
  | { readonly kind: 'ignored'; stopped: boolean };

/** Every stop_reason of the API (SDK 1.15 StopReason); anything else is refused rather than guessed at. */
const STOP_REASONS: ReadonlyMap<string, StopReason | 'context_exceeded'> = new Map([
  ['end_turn', 'end'],
  ['stop_sequence', 'end'],
  ['tool_use', 'tool_use'],
  ['max_tokens', 'max_tokens'],
  ['pause_turn', 'pause_turn'],
  ['refusal', 'refusal'],
  ['model_context_window_exceeded', 'context_exceeded'],
] as const);

/** The events that carry the answer; pings and event types added later do not show it progressing. */
const ANSWER_EVENTS: ReadonlySet<string> = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);

const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

export class AnthropicStreamDecoder implements StreamDecoder {
  private messageStopped = false;
  private outputBegan = false;
  private shownText = '';
  private messageStarted = false;
  /** Blocks in the order they started; `byIndex` finds them by the server's index. */
  private readonly blocks: Block[] = [];
  private readonly byIndex = new Map<number, Block>();
  private stopReason: string | undefined;
  private readonly usage: Partial<Record<(typeof USAGE_FIELDS)[number], number>> = {};

  constructor(private readonly options: AnthropicStreamDecoderOptions) {}

  get complete(): boolean {
    return this.messageStopped;
  }

  get started(): boolean {
    return this.outputBegan;
  }

  get partialText(): string {
    return this.shownText;
  }

  get progress(): number {
    return this.answerEvents;
  }

  private answerEvents = 0;
  private readonly budget = new AnswerBudget('anthropic');

  push(sse: ServerSentEvent): void {
    // The driver decodes nothing after message_stop: nothing after it is part of the answer.
    if (this.messageStopped) return;
    if (sse.event === 'error') throw errorEvent(sse.data);
    // The SDK skips pings by name and events without data; so does zotbox, whatever their data.
    if (sse.event === 'ping' || sse.data === '') return;
    const json = parseJson(sse.data);
    const envelope = EventEnvelopeSchema.safeParse(json);
    if (!envelope.success) throw unreadable(`an event that is not an object with a type (${preview(sse.data)})`);
    if (ANSWER_EVENTS.has(envelope.data.type)) this.answerEvents++;
    switch (envelope.data.type) {
      case 'message_start':
        return this.startMessage(read(MessageStartSchema, json));
      case 'content_block_start':
        return this.startBlock(read(ContentBlockStartSchema, json));
      case 'content_block_delta':
        return this.addDelta(read(ContentBlockDeltaSchema, json));
      case 'content_block_stop':
        return this.stopBlock(read(ContentBlockStopSchema, json));
      case 'message_delta':
        return this.addMessageDelta(read(MessageDeltaSchema, json));
      case 'message_stop':
        this.requireMessage('message_stop');
        this.messageStopped = true;
        return;
      case 'error':
        throw errorEvent(sse.data);
      default:
        // ping, and event types the API added after this was written (message_annotation...): the SDK ignores them too.
        return;
    }
  }

  finish(): AssistantTurn {
    const reason = this.stopReason;
    const stop = reason === undefined ? undefined : STOP_REASONS.get(reason);
    if (stop === 'context_exceeded') throw contextWindowExceeded(this.options.model, this.options.contextWindow, 'anthropic stopped the answer (stop_reason model_context_window_exceeded)');
    // Without message_stop the answer is not whole, as for the SDK (its finalMessage exists only after
    // message_stop): a body that ends early was cut, and the driver sends it again or keeps its text.
    if (!this.messageStopped) throw interrupted(stop === undefined ? 'no stop_reason arrived' : 'message_stop never arrived');
    if (stop === undefined) throw unreadable('message_stop without a stop_reason before it');
    return { content: this.content(stop === 'max_tokens'), stop, usage: this.turnUsage() };
  }

  private startMessage(event: z.infer<typeof MessageStartSchema>): void {
    if (this.messageStarted) throw unreadable('a second message_start in one stream');
    // The API sends content only in content blocks; content already in message_start is not a stream zotbox understands (dropping it would answer with nothing).
    if ((event.message.content?.length ?? 0) > 0) throw unreadable('content in message_start (the API sends content only in content blocks)');
    this.messageStarted = true;
    this.mergeUsage(event.message.usage);
  }

  private startBlock(event: z.infer<typeof ContentBlockStartSchema>): void {
    this.requireMessage('content_block_start');
    if (this.byIndex.has(event.index)) throw unreadable(`a second content_block_start for block ${event.index}`);
    this.outputBegan = true;
    this.budget.add(PER_PART_CHARS);
    const block = newBlock(event.content_block);
    this.blocks.push(block);
    this.byIndex.set(event.index, block);
    if (block.kind === 'text' && block.text !== '') this.showText(block.text);
  }

  private addDelta(event: z.infer<typeof ContentBlockDeltaSchema>): void {
    const block = this.openBlock(event.index, 'content_block_delta');
    // Deltas of blocks zotbox ignores (thinking, server tools, ...) are ignored whatever their type.
    if (block.kind === 'ignored') return;
    switch (event.delta.type) {
      case 'text_delta': {
        if (block.kind !== 'text') throw unreadable(`a text_delta for block ${event.index}, a ${block.kind} block`);
        const { text } = read(TextDeltaSchema, event.delta);
        block.text += text;
        this.showText(text);
        return;
      }
      case 'input_json_delta': {
        if (block.kind !== 'tool_use') throw unreadable(`an input_json_delta for block ${event.index}, a ${block.kind} block`);
        const piece = read(InputJsonDeltaSchema, event.delta).partial_json;
        this.budget.add(piece.length);
        block.json += piece;
        return;
      }
      default:
        // citations_delta, signature_delta and delta types added later: the SDK ignores them too.
        return;
    }
  }

  private stopBlock(event: z.infer<typeof ContentBlockStopSchema>): void {
    this.openBlock(event.index, 'content_block_stop').stopped = true;
  }

  private addMessageDelta(event: z.infer<typeof MessageDeltaSchema>): void {
    this.requireMessage('message_delta');
    const reason = event.delta?.stop_reason;
    // null is "not yet"; a reason zotbox does not know is refused now, as acting on it would be guessing.
    if (typeof reason === 'string') {
      if (!STOP_REASONS.has(reason)) throw unknownStopReason(reason);
      this.stopReason = reason;
    }
    this.mergeUsage(event.usage);
  }

  private openBlock(index: number, event: string): Block {
    this.requireMessage(event);
    const block = this.byIndex.get(index);
    if (block === undefined) throw unreadable(`a ${event} for block ${index}, which was never started`);
    if (block.stopped) throw unreadable(`a ${event} for block ${index} after its content_block_stop`);
    return block;
  }

  private requireMessage(event: string): void {
    if (!this.messageStarted) throw unreadable(`a ${event} event before message_start`);
  }

  private showText(text: string): void {
    this.budget.add(text.length);
    this.outputBegan = true;
    this.shownText += text;
    this.options.onText(text);
  }

  /** Usage counts are cumulative: a later value replaces an earlier one, field by field; absent or null changes nothing. */
  private mergeUsage(counts: UsageCounts | null | undefined): void {
    for (const field of USAGE_FIELDS) {
      const value = counts?.[field];
      if (typeof value === 'number') this.usage[field] = value;
    }
  }

  private turnUsage(): Usage {
    const { input_tokens = 0, output_tokens = 0, cache_creation_input_tokens, cache_read_input_tokens } = this.usage;
    return {
      input_tokens,
      output_tokens,
      ...(cache_creation_input_tokens === undefined ? {} : { cache_creation_input_tokens }),
      ...(cache_read_input_tokens === undefined ? {} : { cache_read_input_tokens }),
    };
  }

  /**
   * The turn's blocks in the order they started. Empty text blocks are dropped (the
   * API refuses them when they are sent back). A tool call whose input did not
   * finish is dropped when the output limit cut it off, and refused otherwise.
   */
  private content(cutOff: boolean): (TextBlock | ToolUseBlock)[] {
    const content: (TextBlock | ToolUseBlock)[] = [];
    const last = this.blocks.at(-1);
    for (const block of this.blocks) {
      if (block.kind === 'text' && block.text !== '') content.push({ type: 'text', text: block.text });
      if (block.kind !== 'tool_use') continue;
      // The API opens every tool_use with input {} (and a first delta of ""): when the output limit
      // stopped the answer at its last block before any input, "no input yet" and "no parameters" look
      // alike, and only the first reading is safe. Earlier blocks finished: the answer went on past them.
      if (cutOff && block === last && block.json === '') continue;
      const input = finishedInput(block);
      if (input !== undefined) content.push({ type: 'tool_use', id: block.id, name: block.name, input });
      // Input that never became JSON without a max-tokens stop is refused, as the SDK refuses it (the API streams only whole JSON).
      else if (!cutOff) throw unreadable(`tool call ${block.name} (${block.id}) whose input never finished as JSON, though the answer did not stop at max_tokens`);
    }
    return content;
  }
}

function newBlock(start: z.infer<typeof EventEnvelopeSchema>): Block {
  switch (start.type) {
    case 'text':
      return { kind: 'text', text: read(TextBlockStartSchema, start).text ?? '', stopped: false };
    case 'tool_use': {
      const { id, name, input } = read(ToolUseBlockStartSchema, start);
      return { kind: 'tool_use', id, name, startInput: input ?? {}, json: '', stopped: false };
    }
    default:
      // thinking, redacted_thinking, server_tool_use, web search results and block types added later: never shown, never sent back.
      return { kind: 'ignored', stopped: false };
  }
}

/** The input of a stopped tool call: the deltas' JSON when any came, else the start's input; undefined when unfinished. */
function finishedInput(block: Extract<Block, { kind: 'tool_use' }>): Record<string, unknown> | undefined {
  if (!block.stopped) return undefined;
  if (block.json === '') return block.startInput;
  let input: unknown;
  try {
    input = JSON.parse(block.json);
  } catch {
    return undefined;
  }
  // Whole JSON that is not an object: the model's mistake, refused by the gate for its input (the model reads why).
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { [UNPARSED_ARGUMENTS_KEY]: block.json.slice(0, 4096) };
  return input as Record<string, unknown>;
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw unreadable(`an event whose data is not JSON (${preview(data)})`);
  }
}

function read<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  throw unreadable(`a ${describeType(value)} that does not match the API${where} (${issue?.message ?? 'invalid'})`);
}

function describeType(value: unknown): string {
  const type = (value as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? `"${type}"` : 'value';
}

function preview(data: string): string {
  return JSON.stringify(data.length > 80 ? `${data.slice(0, 80)}…` : data);
}
