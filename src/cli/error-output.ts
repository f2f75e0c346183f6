// How the CLI prints an error: the one line on stderr (every command, and a run
// that did not complete), and the JSON error line on stdout with --json. Detail
// keys are snake_case here, at the output boundary, like every other field zotbox
// prints; the library's ZotboxError.details keep their camelCase names.
import { inspect } from 'node:util';
import type { ZotboxError } from '../errors.js';

/** One clear line per error; with debug, the stack and every cause follow. */
export function formatError(error: ZotboxError, debug: boolean): string {
  let text = `zotbox: error[${error.code}]: ${error.message}\n`;
  if (!debug) return text;
  let current: unknown = error;
  let depth = 0;
  while (current instanceof Error && depth < 10) {
    text += `${depth === 0 ? '' : 'caused by: '}${current.stack ?? String(current)}\n`;
    current = current.cause;
    depth++;
  }
  // A thrown non-Error (a string, a plain object) is shown as written, not as "[object Object]".
  if (current !== undefined && !(current instanceof Error)) text += `caused by: ${typeof current === 'string' ? current : inspect(current)}\n`;
  return text;
}

/** `{"type":"error","code":…,"message":…,"details":{…}}` and a newline: one NDJSON line, details always present. */
export function errorJsonLine(error: ZotboxError): string {
  return `${JSON.stringify({ type: 'error', code: error.code, message: error.message, details: snakeCaseKeys(error.details ?? {}) })}\n`;
}

/** Object keys at any depth with each lower-to-upper step written as `_` and the lower letter (retryAfterMs → retry_after_ms); values are untouched. */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key.replace(/([a-z0-9])([A-Z])/g, (_match, before: string, upper: string) => `${before}_${upper.toLowerCase()}`), snakeCaseKeys(inner)]),
  );
}
