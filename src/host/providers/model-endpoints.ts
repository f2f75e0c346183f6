// The model budget of a process (issue 11, item 2): one entry per provider
// endpoint (provider + base URL), each with one keep-alive undici dispatcher, a
// FIFO concurrency limit (adaptive unless a caller fixes it, issue 26) and a
// shared backoff, used by every run that talks to that endpoint. The one module-level value is PROCESS_MODEL_ENDPOINTS, the
// documented default; callers may pass their own registry instead.
import { Agent } from 'undici';
import { ZotboxError } from '../../errors.js';
import { AdaptiveLimit, DEFAULT_ADAPTIVE_POLICY, type AdaptivePolicy } from './adaptive-limit.js';
import { BackoffGate, type BackoffPolicy } from './backoff-gate.js';
import { ConcurrencyLimiter } from './concurrency-limiter.js';
import { SYSTEM_CLOCK, type EndpointClock } from './endpoint-clock.js';
import { DEFAULT_MODEL_TIMEOUTS } from './model-timeouts.js';

/**
 * Requests in flight per endpoint at first when nothing is configured. The limit
 * then adapts (adaptive-limit.ts): it halves on a throttle, steps down while
 * latency climbs and climbs again. A server that serves one request at a time sets
 * max_concurrency: 1 in models.json (docs/models.md), which fixes it.
 */
export const DEFAULT_MODEL_CONCURRENCY = DEFAULT_ADAPTIVE_POLICY.initial;

export const DEFAULT_BACKOFF_POLICY: BackoffPolicy = { baseMs: 1000, maxBackoffMs: 30_000, maxWaitMs: 60_000 };

export interface ModelEndpointsOptions {
  /**
   * A fixed concurrency for every endpoint no caller configured. Without it those
   * endpoints start at DEFAULT_MODEL_CONCURRENCY and adapt.
   */
  readonly defaultConcurrency?: number;
  /** How unconfigured endpoints adapt (default DEFAULT_ADAPTIVE_POLICY). */
  readonly adaptive?: Partial<AdaptivePolicy>;
  readonly clock?: EndpointClock;
  /** For the jitter of backoffs without retry-after; [0, 1). */
  readonly random?: () => number;
  readonly backoff?: Partial<BackoffPolicy>;
}

export interface EndpointAddress {
  /** The wire format, e.g. anthropic or openai: part of the key, and the name in messages. */
  readonly provider: string;
  readonly baseUrl: string;
  /** Requests in flight at most; the smallest value any caller gives an endpoint wins. */
  readonly maxConcurrency?: number;
}

/** One provider endpoint: its dispatcher, its limiter and its backoff. */
export interface ModelEndpoint {
  /** `provider base-url`, the base URL normalized (lower-case origin, no trailing slash). */
  readonly key: string;
  readonly provider: string;
  /** The normalized base URL; request paths are appended to it. */
  readonly baseUrl: string;
  readonly dispatcher: Agent;
  readonly limiter: ConcurrencyLimiter;
  /** Moves the limiter's limit with the endpoint's answers, until a caller fixes it. */
  readonly adaptive: AdaptiveLimit;
  readonly gate: BackoffGate;
  readonly clock: EndpointClock;
  /** Also paces a request retrying on its own (408, 5xx, connection errors). */
  readonly policy: BackoffPolicy;
  readonly random: () => number;
}

/** Checks a concurrency setting; a library caller gets the same rule as the CLI. */
export function checkConcurrency(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ZotboxError(
      'ZB_MODEL_UNAVAILABLE',
      `${what} must be a whole number of at least 1, got ${String(value)}. Fix: give the number of model requests that may be in flight at once on one endpoint.`,
      {
        details: { concurrency: String(value) },
      },
    );
  }
  return value;
}

/** The base URL an endpoint is known by; only plain http(s) URLs are accepted. */
export function normalizeBaseUrl(provider: string, baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw badBaseUrl(provider, baseUrl, 'is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badBaseUrl(provider, baseUrl, `uses ${url.protocol} rather than http: or https:`);
  if (url.username !== '' || url.password !== '') throw badBaseUrl(provider, baseUrl, 'holds credentials, which belong in the API key variable');
  if (url.search !== '' || url.hash !== '') throw badBaseUrl(provider, baseUrl, 'has a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function badBaseUrl(provider: string, baseUrl: string, fault: string): ZotboxError {
  return new ZotboxError(
    'ZB_MODEL_UNAVAILABLE',
    `the ${provider} base URL ${JSON.stringify(baseUrl)} ${fault}. Fix: give an http(s) URL such as https://api.example.com (in the *_BASE_URL variable or base_url in models.json).`,
    {
      details: { provider, baseUrl },
    },
  );
}

export class ModelEndpoints {
  private readonly endpoints = new Map<string, ModelEndpoint>();
  /** Endpoints whose limit a caller set; the others still run at the default. */
  private readonly configured = new Set<string>();
  private readonly clock: EndpointClock;
  private readonly random: () => number;
  private readonly policy: BackoffPolicy;
  private readonly defaultConcurrency: number | undefined;
  private readonly adaptivePolicy: AdaptivePolicy;

  constructor(options: ModelEndpointsOptions = {}) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.random = options.random ?? Math.random;
    this.policy = { ...DEFAULT_BACKOFF_POLICY, ...options.backoff };
    this.defaultConcurrency = options.defaultConcurrency === undefined ? undefined : checkConcurrency(options.defaultConcurrency, 'the default model concurrency');
    this.adaptivePolicy = { ...DEFAULT_ADAPTIVE_POLICY, ...options.adaptive };
    checkConcurrency(this.adaptivePolicy.initial, 'the initial adaptive model concurrency');
  }

  /**
   * The endpoint for this provider and base URL, made on first use. The first
   * limit a caller gives replaces the default; later ones can only lower it: when
   * runs disagree, the strictest wins (house rule), since the provider's limit is
   * the same for all of them. A configured limit is fixed: it no longer adapts.
   */
  endpoint(address: EndpointAddress): ModelEndpoint {
    const baseUrl = normalizeBaseUrl(address.provider, address.baseUrl);
    const key = `${address.provider} ${baseUrl}`;
    const requested = address.maxConcurrency === undefined ? undefined : checkConcurrency(address.maxConcurrency, `the model concurrency of ${key}`);
    const existing = this.endpoints.get(key);
    const firstLimit = !this.configured.has(key);
    if (requested !== undefined) this.configured.add(key);
    if (existing !== undefined) {
      if (requested !== undefined && (firstLimit || requested < existing.limiter.limit)) existing.adaptive.fix(requested);
      return existing;
    }
    const fixed = requested ?? this.defaultConcurrency;
    const limiter = new ConcurrencyLimiter(fixed ?? this.adaptivePolicy.initial);
    const adaptive = new AdaptiveLimit(limiter, this.adaptivePolicy);
    if (fixed !== undefined) adaptive.fix(fixed);
    const endpoint: ModelEndpoint = {
      key,
      provider: address.provider,
      baseUrl,
      // Keep-alive is undici's default: sequential requests of every run reuse connections.
      // Each request sets its model's own first-byte and idle limits; these are only the fallback.
      dispatcher: new Agent({ connect: { timeout: 15_000 }, headersTimeout: DEFAULT_MODEL_TIMEOUTS.firstByteMs, bodyTimeout: DEFAULT_MODEL_TIMEOUTS.idleMs }),
      limiter,
      adaptive,
      gate: new BackoffGate(`${address.provider} at ${baseUrl}`, this.clock, this.policy, this.random),
      clock: this.clock,
      policy: this.policy,
      random: this.random,
    };
    this.endpoints.set(key, endpoint);
    return endpoint;
  }

  /** The endpoints made so far, in the order they were first used. */
  list(): readonly ModelEndpoint[] {
    return [...this.endpoints.values()];
  }

  /** Closes every dispatcher (for hosts and tests that own their registry). */
  async close(): Promise<void> {
    const all = [...this.endpoints.values()];
    this.endpoints.clear();
    this.configured.clear();
    await Promise.all(all.map((endpoint) => endpoint.dispatcher.close()));
  }
}

/** The process's budget: every provider uses it unless given another registry. */
export const PROCESS_MODEL_ENDPOINTS = new ModelEndpoints();
