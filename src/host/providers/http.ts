// HTTP for model providers: a streaming POST with retries (429, 5xx and
// connection errors, with backoff that honours retry-after) and clear errors
// for auth failures, plus a server-sent-events reader. undici, with connect and
// idle timeouts.
import { Agent, request, type Dispatcher } from 'undici';
import { ZotboxError } from '../../errors.js';

export interface PostOptions {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly signal: AbortSignal;
  readonly provider: string;
  readonly maxRetries?: number;
  /** Base of the exponential backoff, in ms (tests make it small). */
  readonly backoffMs?: number;
}

const dispatcher = (): Agent => new Agent({ connect: { timeout: 15_000 }, headersTimeout: 120_000, bodyTimeout: 120_000 });

function retryDelay(attempt: number, retryAfter: string | string[] | undefined, base: number): number {
  const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  const seconds = header === undefined ? Number.NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 60_000);
  return Math.min(base * 2 ** attempt, 30_000) * (0.5 + Math.random() / 2);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new ZotboxError('ZB_GATE_CANCELLED', 'the model request was cancelled.'));
    }, { once: true });
  });

/** POSTs JSON and returns the streaming response body once the status is 200. */
export async function postForStream(options: PostOptions): Promise<{ body: Dispatcher.ResponseData['body']; close: () => Promise<void> }> {
  const maxRetries = options.maxRetries ?? 4;
  const agent = dispatcher();
  for (let attempt = 0; ; attempt++) {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(options.url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (cause) {
      if (options.signal.aborted) {
        await agent.close();
        throw new ZotboxError('ZB_GATE_CANCELLED', 'the model request was cancelled.', { cause });
      }
      if (attempt < maxRetries) {
        await sleep(retryDelay(attempt, undefined, options.backoffMs ?? 1000), options.signal);
        continue;
      }
      await agent.close();
      throw new ZotboxError('ZB_PROVIDER_FAILED', `${options.provider}: cannot reach ${options.url}: ${(cause as Error).message}. Check the base URL and your connection.`, { cause });
    }
    if (response.statusCode === 200) return { body: response.body, close: () => agent.close() };
    const text = await response.body.text().catch(() => '');
    if (response.statusCode === 401 || response.statusCode === 403) {
      await agent.close();
      throw new ZotboxError('ZB_PROVIDER_AUTH', `${options.provider} refused the API key (HTTP ${response.statusCode}). Check the key in your environment and that it may use this model.`, {
        details: { status: response.statusCode },
      });
    }
    const retryable = response.statusCode === 429 || response.statusCode === 408 || response.statusCode >= 500;
    if (retryable && attempt < maxRetries) {
      await sleep(retryDelay(attempt, response.headers['retry-after'], options.backoffMs ?? 1000), options.signal);
      continue;
    }
    await agent.close();
    throw new ZotboxError('ZB_PROVIDER_FAILED', `${options.provider} answered HTTP ${response.statusCode}${retryable ? ` after ${attempt + 1} attempts` : ''}: ${text.slice(0, 300)}`, {
      details: { status: response.statusCode },
    });
  }
}

export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/** Parses a text/event-stream body into events (fields "event" and "data"; comments ignored). */
export async function* readServerSentEvents(body: AsyncIterable<Buffer | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = 'message';
        data = [];
      } else if (line.startsWith(':')) {
        continue;
      } else {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  }
  if (data.length > 0) yield { event, data: data.join('\n') };
}
