// How long a provider asked us to wait: `retry-after-ms` (milliseconds, as
// OpenAI and Anthropic send it), else `retry-after` in seconds or as an HTTP
// date (RFC 9110 §10.2.3). Pure: no clock of its own, no I/O. A header that is
// none of these is ignored (undefined), never guessed at.

type HeaderValue = string | string[] | undefined;

const first = (value: HeaderValue): string | undefined => (Array.isArray(value) ? value[0] : value)?.trim();

/** A non-negative decimal number, as the whole header; anything else is undefined. */
function parseNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The wait in milliseconds the headers ask for, counted from `now` (ms since the
 * epoch, for the date form); a date in the past is 0. Undefined when neither
 * header is present and readable.
 */
export function parseRetryAfterMs(headers: Readonly<Record<string, HeaderValue>>, now: number): number | undefined {
  const milliseconds = parseNumber(first(headers['retry-after-ms']));
  if (milliseconds !== undefined) return Math.ceil(milliseconds);
  const retryAfter = first(headers['retry-after']);
  const seconds = parseNumber(retryAfter);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  // An HTTP date always names a weekday and GMT; requiring both keeps Date.parse
  // from accepting free text such as "soon" or "5 minutes".
  if (retryAfter === undefined || !/^[A-Za-z]{3}, .* GMT$/.test(retryAfter)) return undefined;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
