// A model provider, as the host uses it: one assistant turn per call, with text
// streamed to `onText` as it arrives. Credentials stay in the host.
import type { AssistantTurn, ChatMessage, ToolSpec } from '../../policy/model-protocol.js';
import type { EndpointWait } from './http.js';

export interface ModelTurnRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
}

/** What a run hears about a turn besides its text. */
export interface TurnObserver {
  /** The request waits for a slot of its endpoint's concurrency limit (run.queued). */
  onQueued?(wait: EndpointWait): void;
}

export interface ModelProvider {
  /** The model id, as shown in run.start. */
  readonly model: string;
  /** The endpoint it talks to (`provider base-url`, model-endpoints.ts), for a live provider; a replay has none. */
  readonly endpointKey?: string;
  complete(request: ModelTurnRequest, onText: (delta: string) => void, signal: AbortSignal, observer?: TurnObserver): Promise<AssistantTurn>;
}
