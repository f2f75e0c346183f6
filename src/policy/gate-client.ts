// The worker side of the gate: the agent loop's only way to touch the world.
// One client per run, on the run's MessagePort. Each call gets a promise and an
// id; answers are validated before they are believed; a call that outlives its
// time limit is cancelled on the host too. This module must stay free of file,
// process and network access: it runs inside pool workers.
import type { MessagePort } from 'node:worker_threads';
import { ZotboxError, fromWireError, type ErrorCode } from '../errors.js';
import { ToolResultSchema } from './gate-protocol.js';
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

  /**
   * Calls a tool through the gate; rejects with the gate's ZotboxError when
   * denied or failed. The name and input are the model's, unchecked: the gate
   * checks them, so that a call refused for its name or input is still seen
   * (and reported) by the host rather than refused out of its sight.
   */
  call(tool: string, input: Record<string, unknown>): Promise<unknown> {
    if (this.closed) return Promise.reject(new ZotboxError('ZB_GATE_CLOSED', 'the gate client is closed.'));
    const id = this.nextId++;
    const message = { type: 'tool.call', id, tool, input };
    // Depth and size before the port: a value too deep to clone safely never travels; the gate is told it was refused.
    const tooBig = checkMessageLimits(message, MESSAGE_LIMITS.gate, `the ${tool} call`);
    if (tooBig !== undefined) {
      this.port.postMessage({ type: 'tool.refused', id, tool: tool.slice(0, 256), code: tooBig.code, reason: tooBig.message.slice(0, 2000) });
      return Promise.reject(tooBig);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.port.postMessage({ type: 'tool.cancel', id });
        reject(new ZotboxError('ZB_GATE_TIMEOUT', `the ${tool} call got no answer within ${this.timeoutMs} ms.`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.port.postMessage(message);
      } catch (error) {
        // Input that cannot be cloned never leaves the worker (the model's JSON always can).
        this.settle(id, (pending) => pending.reject(new ZotboxError('ZB_GATE_INVALID_MESSAGE', `the ${tool} call could not be sent: ${(error as Error).message}.`)));
      }
    });
  }

  /**
   * Tells the gate of a call the agent loop will not make (its answer ended
   * refused, filtered or paused), so the host reports it; never run. Resolves
   * once the host has answered (so the report is made before the run ends), or
   * when the call's time limit passes.
   */
  report(tool: string, input: Record<string, unknown>, code: ErrorCode, reason: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    const id = this.nextId++;
    const notice = { type: 'tool.refused', id, tool: tool.slice(0, 256), input, code, reason: reason.slice(0, 2000) };
    // An input too large to travel is left out; the notice still says the call was made.
    const fits = checkMessageLimits(notice, MESSAGE_LIMITS.gate, `the ${tool} call`) === undefined;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve();
      }, this.timeoutMs);
      this.pending.set(id, { resolve: () => resolve(), reject: () => resolve(), timer });
      this.port.postMessage(fits ? notice : { type: 'tool.refused', id, tool: notice.tool, code, reason: notice.reason });
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
