// The errors a Chat Completions stream can report in-band: an `{"error": ...}`
// chunk (OpenAI and gateways send one mid-stream) or an `event: error` event.
// Turns one into the ZotboxError the run ends with; never decides on retries
// itself, it only marks the faults a server may not repeat as retryable.
import { ZotboxError } from '../../errors.js';
import { contextWindowExceeded } from './context-window-error.js';

export interface StreamErrorContext {
  readonly model: string;
  readonly contextWindow: number;
}

interface ErrorFields {
  readonly message: string | undefined;
  readonly type: string | undefined;
  readonly code: string | number | undefined;
}

/**
 * Error types and codes a server may not repeat on a second try: OpenAI's
 * server_error, and Anthropic's overloaded_error and api_error as gateways
 * forward them. Numeric codes 500–599 too (OpenRouter sends HTTP statuses).
 */
const RETRYABLE = new Set(['server_error', 'overloaded_error', 'api_error']);

/** The error an error chunk or event describes; `payload` is its `error` field, or the whole event when it has none. */
export function streamError(payload: unknown, context: StreamErrorContext): ZotboxError {
  const fields = errorFields(payload);
  if (fields.code === 'context_length_exceeded' || fields.type === 'context_length_exceeded') {
    return contextWindowExceeded(context.model, context.contextWindow, `the server said: ${fields.message ?? 'context_length_exceeded'}`);
  }
  const quoted = [fields.message ?? 'no message', fields.type === undefined ? undefined : `type ${fields.type}`, fields.code === undefined ? undefined : `code ${fields.code}`]
    .filter((part) => part !== undefined)
    .join(', ');
  const retryable = isRetryable(fields);
  return new ZotboxError(
    'ZB_PROVIDER_FAILED',
    `the model server reported an error mid-stream: ${quoted}. Fix: ${retryable ? 'try again later' : 'check the model name, the request limits and the server logs'}.`,
    {
      details: { ...(fields.type === undefined ? {} : { type: fields.type }), ...(fields.code === undefined ? {} : { code: fields.code }), ...(retryable ? { retryable: true } : {}) },
    },
  );
}

function isRetryable(fields: ErrorFields): boolean {
  if (typeof fields.code === 'number') return fields.code >= 500 && fields.code <= 599;
  return (fields.type !== undefined && RETRYABLE.has(fields.type)) || (fields.code !== undefined && RETRYABLE.has(fields.code));
}

/** message, type and code where the payload has them with a usable type; a bare string is the message. */
function errorFields(payload: unknown): ErrorFields {
  if (typeof payload === 'string') return { message: clip(payload), type: undefined, code: undefined };
  if (typeof payload !== 'object' || payload === null) return { message: clip(String(payload)), type: undefined, code: undefined };
  const record = payload as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? clip(value) : undefined);
  const code = record['code'];
  return { message: text(record['message']), type: text(record['type']), code: typeof code === 'number' ? code : text(code) };
}

/** A server's error text is untrusted: only its start is quoted. */
function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
