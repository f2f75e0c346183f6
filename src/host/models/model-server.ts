// The host side of the model port: checks each message from the worker (limits,
// then schema), asks the provider for one turn (streaming text deltas to the
// run's events), checks the turn's limits, and answers by id. Provider errors
// and refused turns become wire errors for the worker.
import type { MessagePort } from 'node:worker_threads';
import { ZotboxError, toZotboxError } from '../../errors.js';
import { MESSAGE_LIMITS, checkMessageLimits } from '../../policy/message-limits.js';
import { InputRequestSchema, ModelRequestSchema, type AssistantTurn, type ChatMessage } from '../../policy/model-protocol.js';
import type { EndpointWait } from '../providers/http.js';
import type { ModelProvider } from '../providers/provider.js';
import { takeLoopTurn } from './loop-turns.js';

export interface ModelServerHooks {
  onText(delta: string): void;
  /** A model request waits for a slot of its endpoint (run.queued). */
  onQueued?(wait: EndpointWait): void;
  /** After each answer: the conversation so far, the answer included (sessions record it here). */
  onTurn(turn: AssistantTurn, conversation: readonly ChatMessage[]): void;
  /**
   * An answer broke off after its text had started (details.partialText of the
   * provider's error): the conversation with that text as the last assistant
   * message, so the session keeps it and can be continued.
   */
  onPartial?(conversation: readonly ChatMessage[]): void;
  /** Interactive runs: the user's next message, or undefined to end the chat. Without it, input requests get null. */
  readInput?(): Promise<string | undefined>;
  /** The reader failed: the chat ends, and the run reports this error. */
  onInputError?(error: unknown): void;
}

export function serveModel(port: MessagePort, provider: ModelProvider, hooks: ModelServerHooks, signal: AbortSignal): { close(): void } {
  const onMessage = async (raw: unknown) => {
    // Requests are taken a few per turn of the event loop, across every run (loop-turns.ts).
    await takeLoopTurn();
    const id = typeof (raw as { id?: unknown } | null)?.id === 'number' ? (raw as { id: number }).id : 0;
    const fail = (error: ZotboxError) => {
      if (id > 0) port.postMessage({ type: 'model.response', id, ok: false, error: error.toWire() });
    };
    // Depth and size before any schema: the conversation holds the model's tool inputs.
    const tooBig = checkMessageLimits(raw, MESSAGE_LIMITS.modelRequest, 'the model request');
    if (tooBig !== undefined) return fail(tooBig);
    // Dispatch on the type first: each message is validated once, by its own schema.
    const type = (raw as { type?: unknown } | null)?.type;
    const input = type === 'input.request' ? InputRequestSchema.safeParse(raw) : undefined;
    if (input?.success === true) {
      let text: string | undefined;
      try {
        text = signal.aborted || hooks.readInput === undefined ? undefined : await hooks.readInput();
      } catch (error) {
        text = undefined; // a failing reader ends the chat, not the host
        hooks.onInputError?.(error);
      }
      port.postMessage({ type: 'input.response', id: input.data.id, text: text ?? null });
      return;
    }
    const parsed = ModelRequestSchema.safeParse(raw);
    if (!parsed.success) return fail(new ZotboxError('ZB_GATE_INVALID_MESSAGE', `malformed model request: ${parsed.error.issues[0]?.message ?? 'not a model request'}.`));
    // A cancelled run gets no more model turns, whatever the provider would do.
    if (signal.aborted) return fail(toZotboxError(signal.reason));
    let turn: AssistantTurn;
    try {
      turn = await provider.complete(parsed.data, (text) => hooks.onText(text), signal, hooks.onQueued === undefined ? undefined : { onQueued: (wait) => hooks.onQueued?.(wait) });
    } catch (thrown) {
      const error = toZotboxError(thrown);
      const partialText = error.details?.partialText;
      if (typeof partialText === 'string' && partialText !== '') {
        try {
          hooks.onPartial?.([...parsed.data.messages, { role: 'assistant', content: [{ type: 'text', text: partialText }] }]);
        } catch {
          // Keeping the partial text is a courtesy: the run still reports the provider's error, not this one.
        }
      }
      return fail(error);
    }
    // The model's tool inputs are untrusted: a turn too deep or too large for the port goes no further (not to the session, not to the worker).
    const refused = checkMessageLimits(turn, MESSAGE_LIMITS.modelTurn, "the model's turn");
    if (refused !== undefined) return fail(refused);
    try {
      hooks.onTurn(turn, [...parsed.data.messages, { role: 'assistant', content: turn.content }]);
      port.postMessage({ type: 'model.response', id, ok: true, turn });
    } catch (error) {
      fail(toZotboxError(error));
    }
  };
  const listener = (raw: unknown) => void onMessage(raw);
  port.on('message', listener);
  return { close: () => port.off('message', listener) };
}
