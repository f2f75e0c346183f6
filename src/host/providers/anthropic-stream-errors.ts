// The errors an Anthropic stream can end in, each saying what happened and what
// to do. Only builds errors: deciding when a stream is broken is the decoder's job.
import { ZotboxError } from '../../errors.js';
import { ErrorEventSchema } from './anthropic-events.js';

/** Error types the server may well not repeat: the driver may retry the turn when no output had started. */
const RETRYABLE_ERROR_TYPES: ReadonlySet<string> = new Set(['overloaded_error', 'api_error']);

/** Data the API never sends. */
export function unreadable(what: string): ZotboxError {
  return new ZotboxError('ZB_PROVIDER_FAILED', `anthropic sent a stream zotbox cannot read: ${what}. Check that the base URL points at the Anthropic Messages API or a server that speaks it exactly.`);
}

/** An `error` event; its data (JSON or not) is quoted. */
export function errorEvent(data: string): ZotboxError {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = undefined;
  }
  const parsed = ErrorEventSchema.safeParse(json);
  const errorType = parsed.success ? parsed.data.error.type : 'unknown_error';
  const quoted = parsed.success ? `${errorType}: ${parsed.data.error.message ?? '(no message)'}` : JSON.stringify(data.slice(0, 200));
  const retryable = RETRYABLE_ERROR_TYPES.has(errorType);
  const fix = retryable ? 'The server may not repeat it: try the turn again, or continue the session later.' : 'Check the request, the model id and the account; it was not retried.';
  return new ZotboxError('ZB_PROVIDER_FAILED', `anthropic reported an error in the middle of its answer: ${quoted}. ${fix}`, { details: { errorType, retryable } });
}

export function unknownStopReason(reason: string): ZotboxError {
  return new ZotboxError(
    'ZB_PROVIDER_FAILED',
    `anthropic ended its answer with stop_reason ${JSON.stringify(reason)}, which zotbox does not know; acting on it would be guessing. Update zotbox, or report the stop reason if your zotbox is current.`,
    { details: { stopReason: reason } },
  );
}

/** The body ended before the answer did. */
export function interrupted(why: string): ZotboxError {
  return new ZotboxError(
    'ZB_PROVIDER_INTERRUPTED',
    `the stream from anthropic ended before the answer did (${why}). A proxy or the connection probably closed it; try the turn again, or continue the session.`,
  );
}
