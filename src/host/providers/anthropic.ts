// The Anthropic Messages API with streaming and tool use. The provider-neutral
// messages map one to one onto Anthropic's content blocks. Every streamed event
// is validated; anything unexpected fails the turn rather than being guessed at.
import { z } from 'zod';
import { ZotboxError } from '../../errors.js';
import type { AssistantTurn, TextBlock, ToolUseBlock } from '../../policy/model-protocol.js';
import { postForStream } from './http.js';
import { readServerSentEvents } from './sse.js';
import { PROCESS_MODEL_ENDPOINTS, type ModelEndpoint, type ModelEndpoints } from './model-endpoints.js';
import type { ModelProvider, ModelTurnRequest } from './provider.js';

export interface AnthropicOptions {
  readonly model: string;
  readonly apiKey: string;
  readonly baseUrl?: string;
  readonly maxTokens?: number;
  /** The model budget to draw on; default PROCESS_MODEL_ENDPOINTS, shared by every run in the process. */
  readonly endpoints?: ModelEndpoints;
  /** Requests in flight at most on this provider's endpoint (the strictest setting for it wins). */
  readonly maxConcurrency?: number;
}

const EventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message_start'), message: z.looseObject({ usage: z.looseObject({ input_tokens: z.number().int().min(0) }) }) }),
  z.looseObject({
    type: z.literal('content_block_start'),
    index: z.number().int().min(0),
    content_block: z.union([
      z.looseObject({ type: z.literal('text'), text: z.string() }),
      z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string() }),
      z.looseObject({ type: z.string() }),
    ]),
  }),
  z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number().int().min(0),
    delta: z.union([
      z.looseObject({ type: z.literal('text_delta'), text: z.string() }),
      z.looseObject({ type: z.literal('input_json_delta'), partial_json: z.string() }),
      z.looseObject({ type: z.string() }),
    ]),
  }),
  z.looseObject({ type: z.literal('content_block_stop'), index: z.number().int().min(0) }),
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullable().optional() }),
    usage: z.looseObject({ output_tokens: z.number().int().min(0) }).optional(),
  }),
  z.looseObject({ type: z.literal('message_stop') }),
  z.looseObject({ type: z.literal('ping') }),
  z.looseObject({ type: z.literal('error'), error: z.looseObject({ type: z.string(), message: z.string() }) }),
]);

type Block = { kind: 'text'; text: string } | { kind: 'tool_use'; id: string; name: string; json: string } | { kind: 'other' };

function bad(what: string): ZotboxError {
  return new ZotboxError('ZB_PROVIDER_FAILED', `anthropic sent a response zotbox cannot read: ${what}.`);
}

export class AnthropicProvider implements ModelProvider {
  readonly model: string;
  private readonly endpoint: ModelEndpoint;
  constructor(private readonly options: AnthropicOptions) {
    this.model = options.model;
    this.endpoint = (options.endpoints ?? PROCESS_MODEL_ENDPOINTS).endpoint({
      provider: 'anthropic',
      baseUrl: options.baseUrl ?? 'https://api.anthropic.com',
      ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    });
  }

  async complete(request: ModelTurnRequest, onText: (delta: string) => void, signal: AbortSignal): Promise<AssistantTurn> {
    const { body, close } = await postForStream({
      endpoint: this.endpoint,
      path: '/v1/messages',
      signal,
      headers: { 'x-api-key': this.options.apiKey, 'anthropic-version': '2023-06-01', accept: 'text/event-stream' },
      body: {
        model: this.options.model,
        max_tokens: this.options.maxTokens ?? 8192,
        stream: true,
        system: request.system,
        messages: request.messages,
        tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.input_schema })),
      },
    });
    // Indexed by the server's block index, so it may have holes (an index never started).
    const blocks: (Block | undefined)[] = [];
    let inputTokens = 0;
    let outputTokens = 0;
    let stopReason: string | null | undefined;
    let stopped = false;
    try {
      for await (const sse of readServerSentEvents(body as AsyncIterable<Buffer>)) {
        let json: unknown;
        try {
          json = JSON.parse(sse.data);
        } catch {
          throw bad(`an event that is not JSON (${sse.data.slice(0, 80)})`);
        }
        const parsed = EventSchema.safeParse(json);
        // JSON.parse gives null for "null", so the event may have no fields at all.
        if (!parsed.success) throw bad(`an unexpected ${String((json as { type?: unknown } | null)?.type)} event`);
        const event = parsed.data;
        switch (event.type) {
          case 'message_start':
            inputTokens = event.message.usage.input_tokens;
            break;
          case 'content_block_start': {
            const block = event.content_block as { type: string; id?: string; name?: string; text?: string };
            blocks[event.index] =
              block.type === 'text' ? { kind: 'text', text: block.text ?? '' } : block.type === 'tool_use' ? { kind: 'tool_use', id: block.id!, name: block.name!, json: '' } : { kind: 'other' };
            if (block.type === 'text' && block.text) onText(block.text);
            break;
          }
          case 'content_block_delta': {
            const block = blocks[event.index];
            const delta = event.delta as { type: string; text?: string; partial_json?: string };
            if (block === undefined) throw bad('a delta for a block that was never started');
            if (delta.type === 'text_delta' && block.kind === 'text') {
              block.text += delta.text ?? '';
              onText(delta.text ?? '');
            } else if (delta.type === 'input_json_delta' && block.kind === 'tool_use') block.json += delta.partial_json ?? '';
            break;
          }
          case 'message_delta':
            stopReason = event.delta.stop_reason;
            outputTokens = event.usage?.output_tokens ?? outputTokens;
            break;
          case 'message_stop':
            stopped = true;
            break;
          case 'error':
            throw new ZotboxError('ZB_PROVIDER_FAILED', `anthropic reported an error mid-stream: ${event.error.type}: ${event.error.message}.`);
          default:
            break;
        }
      }
    } finally {
      await close();
    }
    if (!stopped) throw bad('the stream ended before message_stop');
    const content: (TextBlock | ToolUseBlock)[] = [];
    // Cut off by the output limit, a tool call can be unfinished: it is dropped
    // (never guessed at) and the agent loop tells the model. Otherwise bad tool
    // input is a provider failure.
    const truncated = stopReason === 'max_tokens';
    for (const block of blocks) {
      if (block === undefined || block.kind === 'other') continue;
      if (block.kind === 'text') content.push({ type: 'text', text: block.text });
      else {
        let input: unknown;
        try {
          input = block.json === '' ? {} : JSON.parse(block.json);
        } catch {
          if (truncated) continue;
          throw bad(`tool input for ${block.name} that is not JSON`);
        }
        if (typeof input !== 'object' || input === null || Array.isArray(input)) throw bad(`tool input for ${block.name} that is not an object`);
        content.push({ type: 'tool_use', id: block.id, name: block.name, input: input as Record<string, unknown> });
      }
    }
    const stop = stopReason === 'tool_use' ? 'tool_use' : stopReason === 'max_tokens' ? 'max_tokens' : 'end';
    return { content, stop, usage: { input_tokens: inputTokens, output_tokens: outputTokens } };
  }
}
