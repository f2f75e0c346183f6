// The worker's side of the model port: one request per turn, answered by the
// host, which holds the credentials and talks to the provider. Messages both
// ways are checked against the port's depth and size limits before anything else.
import type { MessagePort } from 'node:worker_threads';
import { ZotboxError, fromWireError } from '../errors.js';
import { MESSAGE_LIMITS, checkMessageLimits } from '../policy/message-limits.js';
import { InputResponseSchema, ModelResponseSchema, RunCancelSchema, type AssistantTurn, type ChatMessage, type ToolSpec } from '../policy/model-protocol.js';

export class ModelClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(turn: AssistantTurn): void; reject(error: ZotboxError): void }>();
  private readonly pendingInput = new Map<number, { resolve(text: string | undefined): void; reject(error: ZotboxError): void }>();
  private readonly cancellation = new AbortController();
  /** Aborted when the host cancels the run. */
  readonly signal: AbortSignal = this.cancellation.signal;
  /** Why the run was cancelled; kept typed, since AbortSignal.reason is any. */
  private cancelledWith: ZotboxError | undefined;
  private readonly onMessage = (raw: unknown) => {
    const tooBig = checkMessageLimits(raw, MESSAGE_LIMITS.modelResponse, "the host's answer");
    if (tooBig !== undefined) {
      // An answer to a request of ours fails that request with the reason; anything else is ignored.
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id !== 'number') return;
      const waiter = this.pending.get(id) ?? this.pendingInput.get(id);
      this.pending.delete(id);
      this.pendingInput.delete(id);
      waiter?.reject(tooBig);
      return;
    }
    // Dispatch on the type first: each message is validated once, by its own schema.
    const type = (raw as { type?: unknown } | null)?.type;
    if (type === 'run.cancel') {
      if (!RunCancelSchema.safeParse(raw).success) return;
      const error = new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.');
      this.cancelledWith ??= error; // as the signal keeps its first reason
      this.cancellation.abort(error);
      this.rejectAll(error);
      return;
    }
    if (type === 'input.response') {
      const input = InputResponseSchema.safeParse(raw);
      if (!input.success) return;
      const waiter = this.pendingInput.get(input.data.id);
      this.pendingInput.delete(input.data.id);
      waiter?.resolve(input.data.text ?? undefined);
      return;
    }
    const parsed = ModelResponseSchema.safeParse(raw);
    if (!parsed.success) return; // not an answer of ours
    const waiter = this.pending.get(parsed.data.id);
    if (waiter === undefined) return;
    this.pending.delete(parsed.data.id);
    if (parsed.data.ok) waiter.resolve(parsed.data.turn);
    else waiter.reject(fromWireError(parsed.data.error));
  };

  constructor(private readonly port: MessagePort) {
    port.on('message', this.onMessage);
  }

  complete(system: string, messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<AssistantTurn> {
    if (this.cancelledWith !== undefined) return Promise.reject(this.cancelledWith);
    const id = this.nextId++;
    const request = { type: 'model.request', id, system, messages, tools };
    const tooBig = checkMessageLimits(request, MESSAGE_LIMITS.modelRequest, 'the conversation');
    if (tooBig !== undefined) return Promise.reject(tooBig);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage(request);
    });
  }

  /** The user's next message in an interactive run; undefined when the chat ends. */
  nextInput(): Promise<string | undefined> {
    if (this.cancelledWith !== undefined) return Promise.reject(this.cancelledWith);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pendingInput.set(id, { resolve, reject });
      this.port.postMessage({ type: 'input.request', id });
    });
  }

  close(): void {
    this.port.off('message', this.onMessage);
    this.rejectAll(new ZotboxError('ZB_GATE_CLOSED', 'the model port was closed.'));
  }

  private rejectAll(error: ZotboxError): void {
    for (const waiter of [...this.pending.values(), ...this.pendingInput.values()]) waiter.reject(error);
    this.pending.clear();
    this.pendingInput.clear();
  }
}
