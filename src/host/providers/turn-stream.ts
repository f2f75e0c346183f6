// One streamed model turn, whatever the wire format: post the request, read
// its server-sent events into the format's decoder, and turn every fault into a
// provider error. A stream that breaks before any output is sent again (like a
// 5xx); one that breaks after output started is not (the text would be said
// twice): it fails with the text received so far in details.partialText.
import { ZotboxError, isZotboxError } from '../../errors.js';
import type { AssistantTurn } from '../../policy/model-protocol.js';
import { contextWindowExceeded } from './context-window-error.js';
import { cancelledRequest } from './endpoint-clock.js';
import { ownRetryDelay, postForStream, type PostOptions, type ResponseBody } from './http.js';
import { isUndiciTimeout, timeoutError, DEFAULT_MODEL_TIMEOUTS } from './model-timeouts.js';
import { readServerSentEvents } from './sse.js';
import type { StreamDecoder } from './stream-decoder.js';

export interface TurnStreamOptions extends Omit<PostOptions, 'attemptsSpent'> {
  /** A fresh decoder for each attempt. */
  decoder(): StreamDecoder;
  /** True when a refused request (HTTP 400 and its quoted body) says the conversation is too long for the model. */
  isContextOverflow(status: number, body: string): boolean;
  /** The model and its window in tokens, for the context-overflow message. */
  readonly model: string;
  readonly contextWindow: number;
}

export async function streamTurn(options: TurnStreamOptions): Promise<AssistantTurn> {
  const maxRetries = options.maxRetries ?? 4;
  for (let attemptsSpent = 0; ; ) {
    const { body, close, attempts } = await postForStream({ ...options, attemptsSpent }).catch((error: unknown) => {
      throw contextOverflowOr(error, options);
    });
    const decoder = options.decoder();
    const silence = watchSilence(decoder, options, (error) => body.destroy(error));
    try {
      let whole = false;
      for await (const event of readServerSentEvents(body as AsyncIterable<Buffer>)) {
        if (whole) continue; // what follows the end of the turn is read, never decoded
        decoder.push(event);
        silence.heard();
        whole = decoder.complete;
        if (whole && !sourceEnded(body)) break;
      }
      return decoder.finish();
    } catch (fault) {
      if (options.signal.aborted) throw cancelledRequest(fault);
      // The turn was whole before reading what followed it failed: as if the reader had stopped at its end.
      if (decoder.complete) return decoder.finish();
      if (!decoder.started && attempts <= maxRetries && mayRetry(fault)) {
        await options.endpoint.clock.sleep(ownRetryDelay(options.endpoint, attempts - 1), options.signal);
        attemptsSpent = attempts;
        continue;
      }
      throw streamFault(fault, options, decoder.started, decoder.started ? decoder.partialText : '');
    } finally {
      silence.stop();
      await close();
    }
  }
}

/**
 * Whether the body's end has arrived, so that all that is left of it is already
 * buffered. A turn whose body has ended is read to that end: leaving the body's
 * iterator early makes Node destroy the unfinished body with an AbortError, and
 * undici turn that into a RequestAbortedError, two errors with stack traces per
 * turn (issue 26's profile). A body still open after the turn is left at once,
 * as before, so a server that keeps it open cannot hold the answer back.
 * `_readableState.ended` is Node's own flag for that (no public property says it);
 * were it ever missing, the body is left early, as before.
 */
function sourceEnded(body: ResponseBody): boolean {
  return (body as unknown as { _readableState?: { ended?: unknown } })._readableState?.ended === true;
}

/**
 * The idle limit, measured in the answer's progress rather than in bytes:
 * undici's body timeout restarts on every byte, so a server sending only
 * keep-alives (pings, SSE comments, empty deltas) would hold the turn forever.
 * Fails the body with ZB_PROVIDER_TIMEOUT when the decoder's progress has not
 * moved for the idle limit.
 */
function watchSilence(decoder: StreamDecoder, options: TurnStreamOptions, fail: (error: ZotboxError) => void): { heard(): void; stop(): void } {
  const timeouts = options.timeouts ?? DEFAULT_MODEL_TIMEOUTS;
  let progress = decoder.progress;
  const url = `${options.endpoint.baseUrl}${options.path}`;
  const timer = setTimeout(() => fail(timeoutError(options.endpoint.provider, url, timeouts, { code: 'UND_ERR_BODY_TIMEOUT' }, decoder.started ? decoder.partialText : '')), timeouts.idleMs);
  return {
    heard: () => {
      if (decoder.progress === progress) return;
      progress = decoder.progress;
      timer.refresh();
    },
    stop: () => clearTimeout(timer),
  };
}

/** Before any output: a broken connection, an early end, or an error event the server may not repeat. */
function mayRetry(fault: unknown): boolean {
  if (!isZotboxError(fault)) return !isUndiciTimeout(fault);
  return fault.code === 'ZB_PROVIDER_INTERRUPTED' || fault.details?.retryable === true;
}

/** Every fault reading a stream as a provider error; never ZB_INTERNAL_BUG, since the network is not zotbox. */
function streamFault(fault: unknown, options: TurnStreamOptions, started: boolean, partialText: string): ZotboxError {
  const url = `${options.endpoint.baseUrl}${options.path}`;
  const provider = options.endpoint.provider;
  if (isUndiciTimeout(fault)) return timeoutError(provider, url, options.timeouts ?? DEFAULT_MODEL_TIMEOUTS, fault, partialText);
  const kept = partialText === '' ? '' : ' The text received so far is kept in the session; continue it (zotbox run --continue) to go on.';
  if (isZotboxError(fault)) {
    // An early end before any output was sent again as often as a 5xx; that it kept happening is a failure, not an interruption of an answer.
    if (!started && fault.code === 'ZB_PROVIDER_INTERRUPTED') return new ZotboxError('ZB_PROVIDER_FAILED', `${fault.message} It was sent again and kept ending before any output.`, { cause: fault });
    if (partialText === '') return fault;
    return new ZotboxError(fault.code, `${fault.message}${kept}`, { cause: fault, details: { ...fault.details, partialText } });
  }
  const reason = fault instanceof Error ? fault.message : String(fault);
  const what = `the connection to ${provider} at ${url} broke while it was answering (${reason}).`;
  if (!started) return new ZotboxError('ZB_PROVIDER_FAILED', `${what} It was sent again and kept breaking: check the server and your connection.`, { cause: fault });
  // Output had begun: sending it again would say it twice.
  return new ZotboxError('ZB_PROVIDER_INTERRUPTED', `${what}${kept || ' No text had arrived yet; an unfinished tool call is never run. Run it again, or continue the session.'}`, {
    cause: fault,
    details: partialText === '' ? {} : { partialText },
  });
}

/** HTTP 400 for a conversation the model cannot take: the context-window code, naming the window. */
function contextOverflowOr(error: unknown, options: TurnStreamOptions): unknown {
  if (!isZotboxError(error) || error.details?.status !== 400) return error;
  const body = typeof error.details.body === 'string' ? error.details.body : '';
  if (!options.isContextOverflow(400, body)) return error;
  return contextWindowExceeded(options.model, options.contextWindow, `${options.endpoint.provider} refused the request as too long: ${body}`);
}
