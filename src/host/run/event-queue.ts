// An async queue of one run's events: the run pushes, the caller iterates. Events
// are held only until the caller takes them. `idle` tells when the caller has
// handled every event so far: an interactive run asks for the next message only
// then, so a prompt is never drawn above output still to be shown (issue 13).
import type { RunEvent } from './run-events.js';

export class EventQueue {
  private readonly items: RunEvent[] = [];
  private waiting: (() => void) | undefined;
  private done = false;
  /** The caller has asked for an event that is not there yet: every earlier one was taken and handled. */
  private callerWaiting = false;
  private idleWaiters: (() => void)[] = [];

  push(event: RunEvent): void {
    this.items.push(event);
    this.waiting?.();
  }

  finish(): void {
    this.done = true;
    this.waiting?.();
    this.wakeIdle();
  }

  /**
   * Resolves once the caller has handled every event pushed so far and asks for the
   * next (a for-await loop asks only when its body is done), or the queue finished.
   */
  idle(): Promise<void> {
    if (this.done || (this.callerWaiting && this.items.length === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async *drain(): AsyncGenerator<RunEvent> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.done) return;
      this.callerWaiting = true;
      this.wakeIdle();
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.callerWaiting = false;
      this.waiting = undefined;
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
