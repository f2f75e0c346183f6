// A model provider, as the host uses it: one assistant turn per call, with text
// streamed to `onText` as it arrives. Credentials stay in the host.
import type { AssistantTurn, ChatMessage, ToolSpec } from '../../policy/model-protocol.js';

export interface ModelTurnRequest {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
}

export interface ModelProvider {
  /** The model id, as shown in run.start. */
  readonly model: string;
  /** The endpoint it talks to (`provider base-url`, model-endpoints.ts), for a live provider; a replay has none. */
  readonly endpointKey?: string;
  complete(request: ModelTurnRequest, onText: (delta: string) => void, signal: AbortSignal): Promise<AssistantTurn>;
}
