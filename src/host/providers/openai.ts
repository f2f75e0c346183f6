// OpenAI Chat Completions with streaming and tool calls (also for compatible
// servers, such as local ones, through OPENAI_BASE_URL or the models file).
// Tool results become "tool" messages; every streamed chunk is validated.
import { z } from 'zod';
import { ZotboxError } from '../../errors.js';
import type { AssistantTurn, ChatMessage, TextBlock, ToolUseBlock } from '../../policy/model-protocol.js';
import { postForStream } from './http.js';
import { readServerSentEvents } from './sse.js';
import { PROCESS_MODEL_ENDPOINTS, type ModelEndpoint, type ModelEndpoints } from './model-endpoints.js';
import type { ModelProvider, ModelTurnRequest } from './provider.js';

export interface OpenAiOptions {
  readonly model: string;
  readonly apiKey: string;
  readonly baseUrl?: string;
  /** The model budget to draw on; default PROCESS_MODEL_ENDPOINTS, shared by every run in the process. */
  readonly endpoints?: ModelEndpoints;
  /** Requests in flight at most on this provider's endpoint (the strictest setting for it wins). */
  readonly maxConcurrency?: number;
}

const ChunkSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        delta: z
          .looseObject({
            content: z.string().nullable().optional(),
            tool_calls: z
              .array(
                z.looseObject({ index: z.number().int().min(0), id: z.string().optional(), function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional() }),
              )
              .optional(),
          })
          .optional(),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .optional(),
  usage: z
    .looseObject({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) })
    .nullable()
    .optional(),
});

function bad(what: string): ZotboxError {
  return new ZotboxError('ZB_PROVIDER_FAILED', `openai sent a response zotbox cannot read: ${what}.`);
}

/** Neutral messages → Chat Completions messages. */
export function toOpenAiMessages(system: string, messages: readonly ChatMessage[]): unknown[] {
  const out: unknown[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = message.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('');
      const calls = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      out.push({
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length === 0 ? {} : { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) }),
      });
      continue;
    }
    for (const block of message.content) {
      // Chat Completions has no error flag on tool messages; the agent loop's text already starts with "error:".
      if (block.type === 'tool_result') out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content });
      else out.push({ role: 'user', content: block.text });
    }
  }
  return out;
}

export class OpenAiProvider implements ModelProvider {
  readonly model: string;
  private readonly endpoint: ModelEndpoint;
  constructor(private readonly options: OpenAiOptions) {
    this.model = options.model;
    this.endpoint = (options.endpoints ?? PROCESS_MODEL_ENDPOINTS).endpoint({
      provider: 'openai',
      baseUrl: options.baseUrl ?? 'https://api.openai.com',
      ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    });
  }

  async complete(request: ModelTurnRequest, onText: (delta: string) => void, signal: AbortSignal): Promise<AssistantTurn> {
    const { body, close } = await postForStream({
      endpoint: this.endpoint,
      path: '/v1/chat/completions',
      signal,
      headers: { authorization: `Bearer ${this.options.apiKey}`, accept: 'text/event-stream' },
      body: {
        model: this.options.model,
        stream: true,
        stream_options: { include_usage: true },
        messages: toOpenAiMessages(request.system, request.messages),
        ...(request.tools.length === 0 ? {} : { tools: request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } })) }),
      },
    });
    let text = '';
    // Indexed by the server's tool call index, so it may have holes (an index never sent).
    const calls: ({ id: string; name: string; args: string } | undefined)[] = [];
    let finish: string | null | undefined;
    let usage = { input_tokens: 0, output_tokens: 0 };
    let done = false;
    try {
      for await (const sse of readServerSentEvents(body as AsyncIterable<Buffer>)) {
        if (sse.data === '[DONE]') {
          done = true;
          break;
        }
        let json: unknown;
        try {
          json = JSON.parse(sse.data);
        } catch {
          throw bad(`a chunk that is not JSON (${sse.data.slice(0, 80)})`);
        }
        if ((json as { error?: { message?: string } } | null)?.error !== undefined) {
          throw new ZotboxError('ZB_PROVIDER_FAILED', `openai reported an error mid-stream: ${(json as { error: { message?: string } }).error.message ?? 'unknown'}.`);
        }
        const parsed = ChunkSchema.safeParse(json);
        if (!parsed.success) throw bad('a chunk with an unexpected shape');
        const chunk = parsed.data;
        if (chunk.usage) usage = { input_tokens: chunk.usage.prompt_tokens, output_tokens: chunk.usage.completion_tokens };
        for (const choice of chunk.choices ?? []) {
          if (choice.delta?.content) {
            text += choice.delta.content;
            onText(choice.delta.content);
          }
          for (const call of choice.delta?.tool_calls ?? []) {
            const slot = (calls[call.index] ??= { id: '', name: '', args: '' });
            if (call.id) slot.id = call.id;
            if (call.function?.name) slot.name += call.function.name;
            if (call.function?.arguments) slot.args += call.function.arguments;
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      }
    } finally {
      await close();
    }
    if (!done) throw bad('the stream ended before [DONE]');
    const content: (TextBlock | ToolUseBlock)[] = text === '' ? [] : [{ type: 'text', text }];
    // Cut off by the output limit, a tool call can be unfinished: it is dropped
    // (never guessed at) and the agent loop tells the model.
    const truncated = finish === 'length';
    for (const call of calls) {
      if (call === undefined) continue;
      if (call.id === '' || call.name === '') throw bad('a tool call without an id or a name');
      let input: unknown;
      try {
        input = call.args === '' ? {} : JSON.parse(call.args);
      } catch {
        if (truncated) continue;
        throw bad(`arguments for ${call.name} that are not JSON`);
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw bad(`arguments for ${call.name} that are not an object`);
      content.push({ type: 'tool_use', id: call.id, name: call.name, input: input as Record<string, unknown> });
    }
    const stop = truncated ? 'max_tokens' : finish === 'tool_calls' || calls.length > 0 ? 'tool_use' : 'end';
    return { content, stop, usage };
  }
}
