// How long zotbox waits for a model server: for the first byte of the answer
// (the response headers) and for each next piece of the streamed body. Both
// are per model (models.json) or per process (environment), with defaults that
// let a silent server fail in about a minute rather than hang a run.
import { ZotboxError } from '../../errors.js';

export interface ModelTimeouts {
  /** From sending the request to the response headers. */
  readonly firstByteMs: number;
  /** The longest silence between two pieces of the streamed body (Anthropic pings every few seconds). */
  readonly idleMs: number;
}

/**
 * 60 s to the headers: hosted APIs answer in well under a second and local
 * servers once the prompt is queued. 80 s of silence in a body: long enough for
 * a reasoning model that thinks before its first token, short enough that a
 * server that stopped sending fails within 90 s of its last byte.
 */
export const DEFAULT_MODEL_TIMEOUTS: ModelTimeouts = { firstByteMs: 60_000, idleMs: 80_000 };

/** The environment variables that set them for every model (seconds). */
export const TIMEOUT_VARIABLES = { firstByte: 'ZOTBOX_MODEL_FIRST_BYTE_TIMEOUT', idle: 'ZOTBOX_MODEL_IDLE_TIMEOUT' } as const;

/** The longest timeout zotbox takes: a day; more is a typo, not a wish. */
const MAX_TIMEOUT_S = 86_400;

/** Reads a timeout in seconds (models.json or the environment); `what` names where it came from. */
export function parseTimeoutSeconds(value: unknown, what: string): number {
  const seconds = typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_S) {
    throw new ZotboxError('ZB_OPTION_INVALID', `${what} must be a number of seconds above 0 and at most ${MAX_TIMEOUT_S}, got ${JSON.stringify(value)}. Fix: give the time in seconds, e.g. 120.`, {
      details: { option: what },
    });
  }
  return Math.round(seconds * 1000);
}

/**
 * The timeouts of one model: the model's own (models.json), else the
 * environment's, else the defaults; each of the two separately.
 */
export function resolveModelTimeouts(model: { readonly firstByteTimeoutMs?: number; readonly idleTimeoutMs?: number }, env: Readonly<Record<string, string | undefined>>): ModelTimeouts {
  const fromEnv = (name: string): number | undefined => {
    const raw = env[name];
    return raw === undefined || raw === '' ? undefined : parseTimeoutSeconds(raw, name);
  };
  return {
    firstByteMs: model.firstByteTimeoutMs ?? fromEnv(TIMEOUT_VARIABLES.firstByte) ?? DEFAULT_MODEL_TIMEOUTS.firstByteMs,
    idleMs: model.idleTimeoutMs ?? fromEnv(TIMEOUT_VARIABLES.idle) ?? DEFAULT_MODEL_TIMEOUTS.idleMs,
  };
}

/** undici's header and body timeouts (its connect timeout is a connection error, retried). */
export function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** ZB_PROVIDER_TIMEOUT for a silent server; `partialText` is what had arrived (kept in the session). */
export function timeoutError(provider: string, url: string, timeouts: ModelTimeouts, cause: unknown, partialText: string): ZotboxError {
  const headers = (cause as { code?: unknown } | null)?.code === 'UND_ERR_HEADERS_TIMEOUT';
  const waited = headers ? `no answer within ${timeouts.firstByteMs / 1000} s` : `nothing for ${timeouts.idleMs / 1000} s while streaming its answer`;
  const setting = headers ? `first_byte_timeout_s in models.json or ${TIMEOUT_VARIABLES.firstByte}` : `idle_timeout_s in models.json or ${TIMEOUT_VARIABLES.idle}`;
  return new ZotboxError(
    'ZB_PROVIDER_TIMEOUT',
    `${provider} at ${url} sent ${waited}. Check that the server is up and not overloaded; a model that is slow on purpose can be given longer (${setting}, in seconds).`,
    { cause, details: { timeout: headers ? 'first_byte' : 'idle', timeoutMs: headers ? timeouts.firstByteMs : timeouts.idleMs, ...(partialText === '' ? {} : { partialText }) } },
  );
}
