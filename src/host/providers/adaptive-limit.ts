// The concurrency limit of a model endpoint nobody configured (issue 26, item 1):
// AIMD over the endpoint's FIFO limiter. It starts generous, halves on a throttle
// (429, 529, 503 with retry-after) at most once per round of requests, steps down
// gently while the time to the answer's first byte runs well above its long-run
// level, and climbs by one per round of answered requests while requests queue.
// A limit a caller fixes (max_concurrency, --model-concurrency, modelConcurrency,
// a registry default) ends the adapting for good. It reads no clock: it is told outcomes.
import type { ConcurrencyLimiter } from './concurrency-limiter.js';

export interface AdaptivePolicy {
  /** The limit an endpoint starts at. */
  readonly initial: number;
  /** Throttles never take the limit below this. */
  readonly min: number;
  /** The limit never climbs above this. */
  readonly max: number;
  /** Rising latency alone never takes the limit below this (a throttle may). */
  readonly latencyFloor: number;
  /** Latency counts as rising when its short-run average exceeds the long-run one by this factor. */
  readonly latencyTolerance: number;
}

/**
 * 256 matches an AgentPool's runs in flight (DEFAULT_MAX_RUNS): at the defaults
 * every run of a pool can have its model request out at once. A hosted API that
 * cannot take it answers 429, and the limit halves per round until it can; the
 * shared backoff keeps the waits the server asks for.
 */
export const DEFAULT_ADAPTIVE_POLICY: AdaptivePolicy = { initial: 256, min: 1, max: 1024, latencyFloor: 8, latencyTolerance: 2 };

/** Weights of the short-run and long-run latency averages (exponential moving averages). */
const SHORT_WEIGHT = 0.2;
const LONG_WEIGHT = 0.02;
/** The limit after a throttle, and after a round of rising latency, as a share of the limit before. */
const THROTTLE_FACTOR = 0.5;
const LATENCY_FACTOR = 0.9;

/** A request as the limit counts it: its place in the order requests were sent. */
export interface SentRequest {
  readonly sequence: number;
}

export class AdaptiveLimit {
  private fixedLimit = false;
  private sent = 0;
  /**
   * Requests sent before this one were already in flight when the limit last went
   * down: their throttles and slow answers are that decrease's cause, not a new one,
   * so a burst of 429s halves the limit once, not once per request.
   */
  private fence = 0;
  private answeredSinceClimb = 0;
  private shortLatencyMs: number | undefined;
  private longLatencyMs: number | undefined;

  constructor(
    private readonly limiter: ConcurrencyLimiter,
    private readonly policy: AdaptivePolicy = DEFAULT_ADAPTIVE_POLICY,
  ) {}

  /** False once a caller fixed the limit. */
  get adapting(): boolean {
    return !this.fixedLimit;
  }

  /** A caller's limit: it holds from now on, whatever the endpoint answers. */
  fix(limit: number): void {
    this.fixedLimit = true;
    this.limiter.setLimit(limit);
  }

  /** A request is about to be sent. */
  sending(): SentRequest {
    return { sequence: this.sent++ };
  }

  /** The endpoint asked to slow down. */
  throttled(request: SentRequest): void {
    if (this.fixedLimit || request.sequence < this.fence) return;
    this.lower(Math.max(this.policy.min, Math.floor(this.limiter.limit * THROTTLE_FACTOR)));
  }

  /** The endpoint answered (any status but a throttle) after `latencyMs` to the first byte. */
  answered(request: SentRequest, latencyMs: number): void {
    if (this.fixedLimit) return;
    const rising = this.observeLatency(latencyMs);
    const limit = this.limiter.limit;
    if (rising && request.sequence >= this.fence && limit > this.policy.latencyFloor) {
      this.lower(Math.max(this.policy.latencyFloor, Math.floor(limit * LATENCY_FACTOR)));
      return;
    }
    // Climbing only matters when the limit is what holds requests back.
    if (this.limiter.queued === 0 || rising) return;
    this.answeredSinceClimb++;
    if (this.answeredSinceClimb >= limit && limit < this.policy.max) {
      this.answeredSinceClimb = 0;
      this.limiter.setLimit(limit + 1);
    }
  }

  private lower(limit: number): void {
    this.fence = this.sent;
    this.answeredSinceClimb = 0;
    if (limit < this.limiter.limit) this.limiter.setLimit(limit);
  }

  /** Updates both averages; true when the short-run one is above the long-run one by the tolerance. */
  private observeLatency(latencyMs: number): boolean {
    const sample = Math.max(0, latencyMs);
    this.shortLatencyMs = this.shortLatencyMs === undefined ? sample : this.shortLatencyMs + SHORT_WEIGHT * (sample - this.shortLatencyMs);
    this.longLatencyMs = this.longLatencyMs === undefined ? sample : this.longLatencyMs + LONG_WEIGHT * (sample - this.longLatencyMs);
    // Below a millisecond, differences are noise of the event loop, not load.
    return this.shortLatencyMs > 1 && this.shortLatencyMs > this.longLatencyMs * this.policy.latencyTolerance;
  }
}
