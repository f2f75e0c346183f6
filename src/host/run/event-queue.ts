// An async queue of one run's events: the run pushes, the caller iterates. Events
// are held only until the caller takes them.
import type { RunEvent } from './run-events.js';

export class EventQueue {
  private readonly items: RunEvent[] = [];
  private waiting: (() => void) | undefined;
  private done = false;

  push(event: RunEvent): void {
    this.items.push(event);
    this.waiting?.();
  }

  finish(): void {
    this.done = true;
    this.waiting?.();
  }

  async *drain(): AsyncGenerator<RunEvent> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
  }
}
