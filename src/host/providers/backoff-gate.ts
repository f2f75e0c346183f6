// The shared backoff of one model endpoint (issue 11, item 2): when any request
// is told to slow down, every request on the endpoint waits until the backoff
// ends before it sends, whichever run it belongs to. It owns only time and
// state; it never sends anything itself. Waits longer than the cap fail fast.
import { ZotboxError } from '../../errors.js';
import { cancelledRequest, untilAborted, type EndpointClock } from './endpoint-clock.js';

export interface BackoffPolicy {
  /** First wait when the server names none; doubles per consecutive backoff. */
  readonly baseMs: number;
  /** Cap of that exponential wait (before jitter). */
  readonly maxBackoffMs: number;
  /** The longest zotbox waits for an endpoint; a longer retry-after fails requests at once. */
  readonly maxWaitMs: number;
}

/** What became of a request that passed the gate. Exactly one call counts; later ones are ignored. */
export interface GateTicket {
  /** The endpoint answered without asking to wait (any status but a throttle). */
  answered(): void;
  /** The endpoint asked to wait: `retryAfterMs` when it said how long. */
  throttled(status: number, retryAfterMs: number | undefined): void;
  /** No answer: a connection error or a cancellation. */
  unanswered(): void;
}

export class BackoffGate {
  /** Clock time before which nothing is sent. */
  private until = 0;
  /**
   * Clock time before which requests fail at once: the endpoint asked for a wait
   * longer than zotbox waits. Never more than maxWaitMs ahead, so one bad answer
   * (a retry-after in the year 9999) refuses the endpoint for at most that long,
   * not for the life of the process: then a probe asks the endpoint again.
   */
  private refuseUntil = 0;
  /** When the endpoint said it would take requests again (for the message). */
  private askedUntil = 0;
  /** Backoffs since the endpoint last answered a probe; the exponent when no retry-after is given. */
  private consecutive = 0;
  private lastStatus = 0;
  /** Set by a backoff, cleared when a probe is answered. */
  private recovering = false;
  /** The one request sent after a backoff, until its outcome is known. */
  private probe: Promise<void> | undefined;
  private waitingCount = 0;

  constructor(
    private readonly label: string,
    private readonly clock: EndpointClock,
    private readonly policy: BackoffPolicy,
    private readonly random: () => number,
  ) {}

  /** Requests held here now (waiting out a backoff or a probe). */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Milliseconds left in the current backoff (0 when none). */
  get remainingMs(): number {
    return Math.max(0, this.until - this.clock.now());
  }

  /**
   * Resolves when this request may be sent. No thundering herd: when a backoff
   * ends, only one request (the probe) is sent; the others wait for its answer.
   * If it is throttled again, nobody else has added to the load; if it is
   * answered, the rest go, at most the concurrency limit at once, because each
   * of them holds a slot of the endpoint's limiter while it waits here.
   */
  async pass(signal: AbortSignal): Promise<GateTicket> {
    this.waitingCount++;
    try {
      return await this.waitForTurn(signal);
    } finally {
      this.waitingCount--;
    }
  }

  private async waitForTurn(signal: AbortSignal): Promise<GateTicket> {
    for (;;) {
      if (signal.aborted) throw cancelledRequest(signal.reason);
      const now = this.clock.now();
      if (now < this.refuseUntil) throw this.waitTooLong(this.askedUntil - now);
      const remaining = this.until - now;
      if (remaining > 0) {
        await this.clock.sleep(remaining, signal);
        continue;
      }
      if (this.probe !== undefined) {
        await untilAborted(this.probe, signal);
        continue;
      }
      return this.recovering ? this.probeTicket() : this.ticket(() => {});
    }
  }

  private probeTicket(): GateTicket {
    let settle!: () => void;
    this.probe = new Promise<void>((resolve) => (settle = resolve));
    return this.ticket((answered) => {
      if (answered) {
        this.recovering = false;
        this.consecutive = 0;
      }
      this.probe = undefined;
      settle();
    });
  }

  /** `settled` runs once, after a throttle has already moved the deadline. */
  private ticket(settled: (answered: boolean) => void): GateTicket {
    let done = false;
    const once = (action: () => void) => {
      if (done) return;
      done = true;
      action();
    };
    return {
      answered: () => once(() => settled(true)),
      unanswered: () => once(() => settled(false)),
      throttled: (status, retryAfterMs) =>
        once(() => {
          this.backOff(status, retryAfterMs);
          settled(false);
        }),
    };
  }

  private backOff(status: number, retryAfterMs: number | undefined): void {
    const exponential = Math.min(this.policy.baseMs * 2 ** this.consecutive, this.policy.maxBackoffMs);
    // Jitter spreads retries of separate processes that were throttled together.
    const delay = retryAfterMs ?? Math.round(exponential * (0.5 + this.random() / 2));
    this.consecutive++;
    this.lastStatus = status;
    this.recovering = true;
    const now = this.clock.now();
    if (delay > this.policy.maxWaitMs) {
      this.refuseUntil = now + this.policy.maxWaitMs;
      this.askedUntil = now + delay;
      this.until = Math.max(this.until, this.refuseUntil);
      return;
    }
    this.until = Math.max(this.until, now + delay);
  }

  private waitTooLong(remaining: number): ZotboxError {
    const seconds = Math.ceil(remaining / 1000);
    return new ZotboxError(
      'ZB_PROVIDER_FAILED',
      `${this.label} is rate limited (HTTP ${this.lastStatus}) for another ${seconds} s, longer than zotbox waits (${Math.round(this.policy.maxWaitMs / 1000)} s). Try again later, or lower the model concurrency (max_concurrency in models.json, --model-concurrency) so fewer requests hit the limit.`,
      { details: { status: this.lastStatus, retryAfterMs: remaining, endpoint: this.label } },
    );
  }
}
