// How one run stops. Cancelling (Ctrl-C, --timeout, the caller's signal, or the
// caller leaving its iteration) aborts the model call in flight, kills the
// command in flight, refuses further tool calls and tells the worker to stop at
// its next step, all through this run's own ports: the runs sharing its worker
// are never touched. A fault (a planted git program) stops the run the same way
// and makes it end "failed".
import { ZotboxError } from '../../errors.js';

/** How long a cancelled worker gets to stop by itself before the run stops waiting for it. */
export const HARD_STOP_AFTER_MS = 10_000;

export class RunCancellation {
  private readonly controller = new AbortController();
  private hardStopTimer: NodeJS.Timeout | undefined;
  private settled = false;
  private rejectHardStop: ((error: ZotboxError) => void) | undefined;
  /** Set when the run is stopped for a fault rather than cancelled: it ends "failed" with this error. */
  fatal: ZotboxError | undefined;
  /** Why the run was cancelled, once it was: ZB_GATE_CANCELLED, or the reason the caller gave (a time limit). */
  reason: ZotboxError | undefined;
  /**
   * Rejects HARD_STOP_AFTER_MS after a cancel if the run has not ended: a worker
   * that does not stop when asked (it should never happen) is left behind rather
   * than terminated, since terminating the thread would end the runs sharing it.
   */
  readonly hardStop: Promise<never>;

  constructor(private readonly onCancel: (error: ZotboxError) => void) {
    this.hardStop = new Promise<never>((_resolve, reject) => (this.rejectHardStop = reject));
    // Only raced against the task; when nothing awaits it, its rejection is expected.
    this.hardStop.catch(() => undefined);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Cancels the run; `reason` (a ZotboxError the caller's signal carried) is what its run.end says, else ZB_GATE_CANCELLED. */
  cancel(reason?: ZotboxError): void {
    if (this.settled || this.controller.signal.aborted) return;
    const error = new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.');
    this.reason = reason ?? error;
    this.controller.abort(error);
    this.onCancel(error);
    this.hardStopTimer = setTimeout(() => this.rejectHardStop?.(error), HARD_STOP_AFTER_MS);
    this.hardStopTimer.unref();
  }

  stop(reason: ZotboxError): void {
    this.fatal ??= reason;
    this.cancel();
  }

  /** The run ended: nothing is cancelled after this. */
  settle(): void {
    this.settled = true;
    if (this.hardStopTimer !== undefined) clearTimeout(this.hardStopTimer);
  }
}
