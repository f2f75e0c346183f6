// The worker side of the gate: the agent loop's only way to touch the world.
// One client per run, on the run's MessagePort. Each call gets a promise and an
// id; answers are validated before they are believed; a call that outlives its
// time limit is cancelled on the host too. This module must stay free of file,
// process and network access: it runs inside pool workers.
import type { MessagePort } from 'node:worker_threads';
import { ZotboxError, fromWireError } from '../errors.js';
import { ToolCallSchema, ToolResultSchema, type ToolInput, type ToolName } from './gate-protocol.js';
import { MESSAGE_LIMITS, checkMessageLimits } from './message-limits.js';

interface Pending {
  resolve(result: unknown): void;
  reject(error: ZotboxError): void;
  timer: ReturnType<typeof setTimeout>;
}

export class GateClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  private readonly onMessage = (raw: unknown) => this.receive(raw);

  /** `timeoutMs` should exceed the server's limit slightly, so the server's answer normally wins. */
  constructor(
    private readonly port: MessagePort,
    private readonly timeoutMs: number,
  ) {
    port.on('message', this.onMessage);
  }

  /** Calls a tool through the gate; rejects with the gate's ZotboxError when denied or failed. */
  call<T extends ToolName>(tool: T, input: ToolInput<T>): Promise<unknown> {
    if (this.closed) return Promise.reject(new ZotboxError('ZB_GATE_CLOSED', 'the gate client is closed.'));
    const id = this.nextId++;
    const message = { type: 'tool.call', id, tool, input };
    // Tool input comes from the model: check it here too, for a clear error before it travels.
    const tooBig = checkMessageLimits(message, MESSAGE_LIMITS.gate, `the ${tool} call`);
    if (tooBig !== undefined) return Promise.reject(tooBig);
    const checked = ToolCallSchema.safeParse(message);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return Promise.reject(new ZotboxError('ZB_GATE_INVALID_MESSAGE', `invalid ${tool} input: ${issue?.message ?? 'invalid'} at ${issue?.path.slice(1).join('.') || 'input'}.`));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.port.postMessage({ type: 'tool.cancel', id });
        reject(new ZotboxError('ZB_GATE_TIMEOUT', `the ${tool} call got no answer within ${this.timeoutMs} ms.`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.port.postMessage(checked.data);
    });
  }

  /** Cancels every call in flight (Ctrl-C) and asks the host to stop them. */
  cancelAll(): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.port.postMessage({ type: 'tool.cancel', id });
      pending.reject(new ZotboxError('ZB_GATE_CANCELLED', 'the tool call was cancelled.'));
    }
    this.pending.clear();
  }

  close(): void {
    this.closed = true;
    this.port.off('message', this.onMessage);
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new ZotboxError('ZB_GATE_CLOSED', 'the gate was closed while the call was in flight.'));
    }
    this.pending.clear();
  }

  private receive(raw: unknown): void {
    const tooBig = checkMessageLimits(raw, MESSAGE_LIMITS.gate, "the gate's answer");
    if (tooBig !== undefined) {
      // Still an answer when it names a call of ours: that call fails with the reason instead of waiting out its time limit.
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'number') this.settle(id, (pending) => pending.reject(tooBig));
      return;
    }
    const parsed = ToolResultSchema.safeParse(raw);
    if (!parsed.success) return; // not an answer of ours: the host is trusted, but garbage is still never believed
    const answer = parsed.data;
    this.settle(answer.id, (pending) => (answer.ok ? pending.resolve(answer.result) : pending.reject(fromWireError(answer.error))));
  }

  private settle(id: number, outcome: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return; // a late answer to a call that timed out or was cancelled
    this.pending.delete(id);
    clearTimeout(pending.timer);
    outcome(pending);
  }
}
