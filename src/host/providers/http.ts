// HTTP for model providers: a streaming POST through the endpoint's budget
// (one dispatcher, a concurrency slot held until the body is done, the shared
// backoff on 429/529/503-with-retry-after), per-request retries of 408, other
// 5xx and connection errors, a time limit on the first byte, clear errors for
// auth failures and wrong base URLs. It never creates a dispatcher of its own.
import { request, type Dispatcher } from 'undici';
import { ZotboxError } from '../../errors.js';
import { ZOTBOX_VERSION } from '../../version.js';
import { cancelledRequest } from './endpoint-clock.js';
import type { Slot } from './concurrency-limiter.js';
import type { ModelEndpoint } from './model-endpoints.js';
import { baseUrlHint } from './base-url-hint.js';
import { parseRetryAfterMs } from './retry-after.js';
import { DEFAULT_MODEL_TIMEOUTS, isUndiciTimeout, timeoutError, type ModelTimeouts } from './model-timeouts.js';

export interface PostOptions {
  readonly endpoint: ModelEndpoint;
  /** Appended to the endpoint's base URL, e.g. /v1/messages. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly signal: AbortSignal;
  /** Retries after the first attempt (default 4); waiting out another run's backoff is not one. */
  readonly maxRetries?: number;
  /** Attempts already spent on this request (a stream that broke before any output); default 0. */
  readonly attemptsSpent?: number;
  /** Time to the response headers, and the longest silence in the body (default DEFAULT_MODEL_TIMEOUTS). */
  readonly timeouts?: ModelTimeouts;
  /** Told, before it waits, when the request must wait for one of the endpoint's slots. */
  readonly onQueued?: (wait: EndpointWait) => void;
}

/** A request that waits for a slot of its endpoint: how many wait before it, and the limit now. */
export interface EndpointWait {
  /** The endpoint's host (and port), as run.queued names it. */
  readonly endpoint: string;
  readonly ahead: number;
  readonly limit: number;
}

/** Every request says who sends it: servers and gateways log it, and some refuse requests without one. */
export const USER_AGENT = `zotbox/${ZOTBOX_VERSION}`;

export type ResponseBody = Dispatcher.ResponseData['body'];

export interface StreamingResponse {
  readonly body: ResponseBody;
  /**
   * Ends the request: destroys an unfinished body and resolves once its concurrency
   * slot is free. A function property, not a method: callers destructure it.
   */
  readonly close: () => Promise<void>;
  /** Attempts spent, this one included: a caller that retries the request counts on from here. */
  readonly attempts: number;
}

/**
 * Statuses that slow the whole endpoint down: 429 (rate limited), 529
 * (Anthropic: overloaded), and 503 when the server says how long to wait. A 503
 * without retry-after is treated like other 5xx: this request retries alone.
 */
function isThrottle(status: number, headers: Dispatcher.ResponseData['headers']): boolean {
  return status === 429 || status === 529 || (status === 503 && (headers['retry-after'] !== undefined || headers['retry-after-ms'] !== undefined));
}

/** Exponential backoff with jitter for a request retrying on its own (408, 5xx, connection errors, a broken stream). */
export function ownRetryDelay(endpoint: ModelEndpoint, attempt: number): number {
  return Math.round(Math.min(endpoint.policy.baseMs * 2 ** attempt, endpoint.policy.maxBackoffMs) * (0.5 + endpoint.random() / 2));
}

/**
 * POSTs JSON and returns the streaming body once the status is 200. The slot
 * taken here is held until the body ends, fails, is destroyed or `close` is
 * called, whichever comes first, and is released exactly once.
 */
export async function postForStream(options: PostOptions): Promise<StreamingResponse> {
  const { limiter } = options.endpoint;
  if (options.onQueued !== undefined && limiter.mustWait) options.onQueued({ endpoint: new URL(options.endpoint.baseUrl).host, ahead: limiter.queued, limit: limiter.limit });
  const slot = await limiter.acquire(options.signal);
  let sent: { body: ResponseBody; attempts: number };
  try {
    sent = await sendWithRetries(options);
  } catch (error) {
    slot.release();
    throw error;
  }
  return holdSlotUntilBodyEnds(sent.body, slot, sent.attempts);
}

function holdSlotUntilBodyEnds(body: ResponseBody, slot: Slot, attempts: number): StreamingResponse {
  // undici bodies auto-destroy, so 'close' follows the end, an error, an abort
  // and a destroy alike; by then undici has also let go of the connection, so
  // the next request admitted can reuse it.
  if (body.closed) slot.release();
  const closed = body.closed
    ? Promise.resolve()
    : new Promise<void>((resolve) =>
        body.once('close', () => {
          slot.release();
          resolve();
        }),
      );
  // A reader sees body errors through its own iterator or text(); this listener
  // only keeps a body nobody reads any more from throwing them as uncaught.
  body.on('error', () => {});
  return {
    body,
    attempts,
    close: async () => {
      if (!body.destroyed) body.destroy();
      await closed;
      slot.release();
    },
  };
}

async function sendWithRetries(options: PostOptions): Promise<{ body: ResponseBody; attempts: number }> {
  const { endpoint, signal } = options;
  const maxRetries = options.maxRetries ?? 4;
  const timeouts = options.timeouts ?? DEFAULT_MODEL_TIMEOUTS;
  const url = `${endpoint.baseUrl}${options.path}`;
  for (let attempt = options.attemptsSpent ?? 0; ; attempt++) {
    const ticket = await endpoint.gate.pass(signal);
    const sent = endpoint.adaptive.sending();
    const sentAt = endpoint.clock.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'POST',
        dispatcher: endpoint.dispatcher,
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...options.headers },
        body: JSON.stringify(options.body),
        headersTimeout: timeouts.firstByteMs,
        bodyTimeout: timeouts.idleMs,
        signal,
      });
    } catch (cause) {
      ticket.unanswered();
      if (signal.aborted) throw cancelledRequest(cause);
      // A server that stays silent is not asked again: the user hears within the limit, not five limits later.
      if (isUndiciTimeout(cause)) throw timeoutError(endpoint.provider, url, timeouts, cause, '');
      if (attempt < maxRetries) {
        await endpoint.clock.sleep(ownRetryDelay(endpoint, attempt), signal);
        continue;
      }
      throw new ZotboxError('ZB_PROVIDER_FAILED', `${endpoint.provider}: cannot reach ${url}: ${(cause as Error).message}. Check the base URL and your connection.`, { cause });
    }
    const status = response.statusCode;
    const throttled = isThrottle(status, response.headers);
    // The time to the first byte is the endpoint's load as the limit sees it; a throttle halves the limit.
    if (throttled) endpoint.adaptive.throttled(sent);
    else endpoint.adaptive.answered(sent, endpoint.clock.now() - sentAt);
    if (status === 200) {
      ticket.answered();
      if (isEventStream(response.headers)) return { body: response.body, attempts: attempt + 1 };
      // Closed world: an answer that is not an event stream is not read as one. Not
      // sent again: a server that ignored stream: true has generated (and billed) a whole answer.
      const text = await readErrorBody(response.body);
      if (signal.aborted) throw cancelledRequest();
      throw notAStream(endpoint, url, response.headers['content-type'], text);
    }
    // Tell the gate first, so other runs stop sending before this body is read.
    if (throttled) ticket.throttled(status, parseRetryAfterMs(response.headers, endpoint.clock.now()));
    else ticket.answered();
    // Reading the error body to its end also returns the connection to the pool;
    // one that cannot be read (a dropped connection) still leaves the status to report.
    const text = await readErrorBody(response.body);
    if (signal.aborted) throw cancelledRequest();
    const retryable = throttled || status === 408 || status >= 500;
    if (retryable && attempt < maxRetries) {
      // A throttled request waits in the gate, with everyone else, on its next pass.
      if (!throttled) await endpoint.clock.sleep(ownRetryDelay(endpoint, attempt), signal);
      continue;
    }
    throw statusError(endpoint, url, status, text, retryable ? attempt + 1 : undefined);
  }
}

/** text/event-stream, with or without parameters (charset). */
function isEventStream(headers: Dispatcher.ResponseData['headers']): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && /^text\/event-stream\s*(;|$)/i.test(type.trim());
}

function notAStream(endpoint: ModelEndpoint, url: string, contentType: unknown, text: string): ZotboxError {
  const type = typeof contentType === 'string' ? contentType : 'no content-type';
  return new ZotboxError(
    'ZB_PROVIDER_FAILED',
    `${endpoint.provider} at ${url} answered 200 with ${type}, not an event stream (text/event-stream): it (or a proxy before it) ignored stream: true. zotbox reads only streamed answers; check the base URL points at the model API, not at a proxy that buffers answers. The answer began: ${text.slice(0, 200)}`,
    { details: { status: 200, contentType: type } },
  );
}

/** The error for a final non-200 answer, with the fix the status suggests. */
function statusError(endpoint: ModelEndpoint, url: string, status: number, text: string, attempts: number | undefined): ZotboxError {
  if (status === 401 || status === 403) {
    return new ZotboxError('ZB_PROVIDER_AUTH', `${endpoint.provider} refused the API key (HTTP ${status}). Check the key in your environment and that it may use this model.`, {
      details: { status },
    });
  }
  // The quoted body stays in details so a provider can tell a full context window from other refusals.
  const quoted = text.slice(0, 300);
  const details = { status, body: quoted };
  if (status === 404) {
    return new ZotboxError('ZB_PROVIDER_FAILED', `${endpoint.provider} answered HTTP 404 for ${url}: ${quoted}. ${baseUrlHint(endpoint.provider, endpoint.baseUrl)}`, { details });
  }
  return new ZotboxError('ZB_PROVIDER_FAILED', `${endpoint.provider} answered HTTP ${status}${attempts === undefined ? '' : ` after ${attempts} attempts`}: ${quoted}`, { details });
}

/** The first 64 KiB of an error answer (the message quotes 300 characters); the rest is not read into memory. */
async function readErrorBody(body: AsyncIterable<Buffer | string> & { destroy(): unknown }): Promise<string> {
  const limit = 64 * 1024;
  let text = '';
  try {
    for await (const chunk of body) {
      text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (text.length >= limit) {
        body.destroy(); // the connection is dropped rather than drained: a huge body is not worth reading
        break;
      }
    }
  } catch {
    // A body that cannot be read (a dropped connection) still leaves the status to report.
  }
  return text.slice(0, limit);
}
