// OpenAI Chat Completions with streaming and tool calls, also for compatible
// servers (Ollama, vLLM, llama.cpp, LM Studio, LiteLLM, Azure, Gemini): the
// request body (openai-request.ts, checked before it leaves), the stream decoder
// (openai-stream.ts) and the streaming driver (turn-stream.ts). The base URL
// includes the version prefix, as for the official SDK.
import type { AssistantTurn } from '../../policy/model-protocol.js';
import { PROCESS_MODEL_ENDPOINTS, type ModelEndpoint, type ModelEndpoints } from './model-endpoints.js';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from './model-timeouts.js';
import { buildOpenAiRequestBody, checkOpenAiRequestBody } from './openai-request.js';
import { OpenAiStreamDecoder } from './openai-stream.js';
import type { ModelProvider, ModelTurnRequest, TurnObserver } from './provider.js';
import type { EndpointWait } from './http.js';
import { streamTurn } from './turn-stream.js';

export interface OpenAiOptions {
  readonly model: string;
  readonly apiKey: string;
  /** Including the version prefix (default https://api.openai.com/v1); zotbox appends /chat/completions. */
  readonly baseUrl?: string;
  /** The model's context window in tokens, named when it is exhausted (default 128,000). */
  readonly contextWindow?: number;
  readonly timeouts?: ModelTimeouts;
  /** The model budget to draw on; default PROCESS_MODEL_ENDPOINTS, shared by every run in the process. */
  readonly endpoints?: ModelEndpoints;
  /** Requests in flight at most on this provider's endpoint (the strictest setting for it wins). */
  readonly maxConcurrency?: number;
}

/**
 * OpenAI answers a prompt that does not fit with 400 and code
 * context_length_exceeded; compatible servers say it in words (vLLM: "maximum
 * context length", llama.cpp: "exceeds the available context size", Gemini:
 * "The input token count (…) exceeds the maximum number of tokens allowed").
 */
function isContextOverflow(_status: number, body: string): boolean {
  return /context_length_exceeded|maximum context length|exceeds? the (available )?context (size|window|length)|input token count .* exceeds the maximum number of tokens/i.test(body);
}

export class OpenAiProvider implements ModelProvider {
  readonly model: string;
  private readonly endpoint: ModelEndpoint;
  get endpointKey(): string {
    return this.endpoint.key;
  }
  constructor(private readonly options: OpenAiOptions) {
    this.model = options.model;
    this.endpoint = (options.endpoints ?? PROCESS_MODEL_ENDPOINTS).endpoint({
      provider: 'openai',
      baseUrl: options.baseUrl ?? 'https://api.openai.com/v1',
      ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    });
  }

  async complete(request: ModelTurnRequest, onText: (delta: string) => void, signal: AbortSignal, observer?: TurnObserver): Promise<AssistantTurn> {
    const { model } = this.options;
    const contextWindow = this.options.contextWindow ?? 128_000;
    const body = buildOpenAiRequestBody({ model }, request);
    checkOpenAiRequestBody(body);
    return streamTurn({
      ...(observer?.onQueued === undefined ? {} : { onQueued: (wait: EndpointWait) => observer.onQueued?.(wait) }),
      endpoint: this.endpoint,
      path: '/chat/completions',
      signal,
      headers: { authorization: `Bearer ${this.options.apiKey}`, accept: 'text/event-stream' },
      body,
      timeouts: this.options.timeouts ?? DEFAULT_MODEL_TIMEOUTS,
      decoder: () => new OpenAiStreamDecoder({ model, contextWindow, onText }),
      isContextOverflow,
      model,
      contextWindow,
    });
  }
}
