// The Anthropic Messages API with streaming and tool use: the request body
// (anthropic-request.ts, checked before it leaves), the stream decoder
// (anthropic-stream.ts) and the streaming driver (turn-stream.ts). The base URL
// is the API root without /v1, as for the official SDK.
import type { AssistantTurn } from '../../policy/model-protocol.js';
import { buildAnthropicRequestBody, checkAnthropicRequestBody } from './anthropic-request.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';
import { PROCESS_MODEL_ENDPOINTS, type ModelEndpoint, type ModelEndpoints } from './model-endpoints.js';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from './model-timeouts.js';
import type { ModelProvider, ModelTurnRequest, TurnObserver } from './provider.js';
import type { EndpointWait } from './http.js';
import { streamTurn } from './turn-stream.js';

export interface AnthropicOptions {
  readonly model: string;
  readonly apiKey: string;
  /** The API root, without /v1 (default https://api.anthropic.com). */
  readonly baseUrl?: string;
  readonly maxTokens?: number;
  /** The model's context window in tokens, named when it is exhausted (default 200,000). */
  readonly contextWindow?: number;
  readonly timeouts?: ModelTimeouts;
  /** The model budget to draw on; default PROCESS_MODEL_ENDPOINTS, shared by every run in the process. */
  readonly endpoints?: ModelEndpoints;
  /** Requests in flight at most on this provider's endpoint (the strictest setting for it wins). */
  readonly maxConcurrency?: number;
}

/**
 * The API's 400s for a prompt that does not fit: "prompt is too long: 210000
 * tokens > 200000 maximum", and "input length and `max_tokens` exceed context
 * limit: 199759 + 8192 > 200000" (the input leaves no room for the output).
 */
function isContextOverflow(_status: number, body: string): boolean {
  return /prompt is too long|exceeds? (the )?(model's )?context (window|length|limit)|exceed context limit/i.test(body);
}

export class AnthropicProvider implements ModelProvider {
  readonly model: string;
  private readonly endpoint: ModelEndpoint;
  get endpointKey(): string {
    return this.endpoint.key;
  }
  constructor(private readonly options: AnthropicOptions) {
    this.model = options.model;
    this.endpoint = (options.endpoints ?? PROCESS_MODEL_ENDPOINTS).endpoint({
      provider: 'anthropic',
      baseUrl: options.baseUrl ?? 'https://api.anthropic.com',
      ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    });
  }

  async complete(request: ModelTurnRequest, onText: (delta: string) => void, signal: AbortSignal, observer?: TurnObserver): Promise<AssistantTurn> {
    const { model } = this.options;
    const contextWindow = this.options.contextWindow ?? 200_000;
    const body = buildAnthropicRequestBody({ model, maxTokens: this.options.maxTokens ?? 8192 }, request);
    checkAnthropicRequestBody(body);
    return streamTurn({
      ...(observer?.onQueued === undefined ? {} : { onQueued: (wait: EndpointWait) => observer.onQueued?.(wait) }),
      endpoint: this.endpoint,
      path: '/v1/messages',
      signal,
      headers: { 'x-api-key': this.options.apiKey, 'anthropic-version': '2023-06-01', accept: 'text/event-stream' },
      body,
      timeouts: this.options.timeouts ?? DEFAULT_MODEL_TIMEOUTS,
      decoder: () => new AnthropicStreamDecoder({ model, contextWindow, onText }),
      isContextOverflow,
      model,
      contextWindow,
    });
  }
}
