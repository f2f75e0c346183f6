// A FIFO concurrency limiter: at most `limit` slots are held at once; waiters
// are admitted strictly in arrival order. A slot is released exactly once
// however often `release` is called, and a waiter whose signal aborts leaves
// the queue without taking a slot or disturbing anyone else.
import { cancelledRequest } from './endpoint-clock.js';

/** A held slot. `release` is idempotent: only its first call frees the slot. */
export interface Slot {
  release(): void;
}

interface Waiter {
  readonly admit: (slot: Slot) => void;
}

export class ConcurrencyLimiter {
  private heldCount = 0;
  private readonly waiters: Waiter[] = [];

  constructor(private currentLimit: number) {}

  get limit(): number {
    return this.currentLimit;
  }
  /** Slots held now. */
  get held(): number {
    return this.heldCount;
  }
  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiters.length;
  }

  /** True when a request asking now would wait (every slot is held, or others wait already). */
  get mustWait(): boolean {
    return this.waiters.length > 0 || this.heldCount >= this.currentLimit;
  }

  /** Changes the limit; raising it admits waiters, lowering it never revokes a held slot. */
  setLimit(limit: number): void {
    this.currentLimit = limit;
    this.admitWaiters();
  }

  /**
   * A slot, at once when one is free and nobody is queued, else in FIFO order.
   * Synchronous up to the queueing, so callers that start in order queue in order.
   */
  acquire(signal: AbortSignal): Promise<Slot> {
    if (signal.aborted) return Promise.reject(cancelledRequest(signal.reason));
    if (this.waiters.length === 0 && this.heldCount < this.currentLimit) return Promise.resolve(this.take());
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(cancelledRequest(signal.reason));
      };
      const waiter: Waiter = {
        admit: (slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      this.waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private take(): Slot {
    this.heldCount++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.heldCount--;
        this.admitWaiters();
      },
    };
  }

  private admitWaiters(): void {
    while (this.heldCount < this.currentLimit) {
      const waiter = this.waiters.shift();
      if (waiter === undefined) return;
      waiter.admit(this.take());
    }
  }
}
