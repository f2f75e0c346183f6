// The time a model endpoint waits by: `now` and an abortable `sleep`, injected
// so that tests drive backoffs with a fake clock instead of waiting. The system
// clock is the only one production uses. Cancellation is ZB_GATE_CANCELLED, as
// for every cancelled model request.
import { ZotboxError } from '../../errors.js';

export interface EndpointClock {
  /** Milliseconds since the epoch (HTTP-date retry-after is counted from it). */
  now(): number;
  /** Resolves after `ms`, or rejects with ZB_GATE_CANCELLED when `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export function cancelledRequest(cause?: unknown): ZotboxError {
  return new ZotboxError('ZB_GATE_CANCELLED', 'the model request was cancelled.', cause === undefined ? {} : { cause });
}

/**
 * Waits for `promise` unless `signal` aborts first; the listener is removed
 * either way, so a long-lived promise does not collect listeners.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelledRequest(signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledRequest(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    // The promise's own value or reason passes through unchanged: only the
    // cancellation is made here, and it is a ZotboxError.
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}

export const SYSTEM_CLOCK: EndpointClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    return untilAborted(elapsed, signal).finally(() => clearTimeout(timer));
  },
};
