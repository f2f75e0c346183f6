// Admission for a pool's runs: at most `limit` hold a slot at once, and the rest
// wait in the order they asked. A waiter whose signal aborts leaves the queue
// without taking a slot; a slot is released exactly once.
import { ZotboxError } from '../../errors.js';

export type ReleaseSlot = () => void;

interface Waiter {
  readonly grant: (release: ReleaseSlot) => void;
  readonly reject: (error: unknown) => void;
}

export class RunSlots {
  private held = 0;
  private readonly waiters: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new ZotboxError('ZB_OPTION_INVALID', `maxRuns must be a whole number of at least 1 (got ${String(limit)}); it is how many runs the pool keeps in flight at once.`);
  }

  /** Runs holding a slot now. */
  get inFlight(): number {
    return this.held;
  }

  /** Runs waiting for a slot now. */
  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves with the slot's release once the run may start; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted === true) return Promise.reject(abortReason(signal));
    if (this.held < this.limit && this.waiters.length === 0) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        if (signal !== undefined) reject(abortReason(signal));
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        reject,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private take(): ReleaseSlot {
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      const next = this.waiters.shift();
      if (next !== undefined) next.grant(this.take());
    };
  }
}

/** Why a wait was abandoned: the signal's reason when it is an error, else a cancellation. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new ZotboxError('ZB_GATE_CANCELLED', 'the wait for a run slot was cancelled.');
}
