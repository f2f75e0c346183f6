// How the CLI prints an error: the one line on stderr (every command, and a run
// that did not complete), and the JSON error line on stdout with --json. Detail
// keys are snake_case here, at the output boundary, like every other field zotbox
// prints; the library's ZotboxError.details keep their camelCase names.
import { inspect } from 'node:util';
import type { ZotboxError } from '../errors.js';

/** One clear line per error, then one per further problem it lists; with debug, the stack and every cause follow. */
export function formatError(error: ZotboxError, debug: boolean): string {
  let text = `zotbox: error[${error.code}]: ${error.message}\n`;
  for (const issue of furtherIssues(error)) text += `  also: ${escapeLineBreaks(issue.path)} ${escapeLineBreaks(issue.message)}.\n`;
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

/**
 * The problems after the first of an error that lists them all in details.issues
 * (ZB_MANIFEST_INVALID): its message names only the first, and a reader fixing a
 * manifest should see every one at once (issue 13). Malformed details show nothing.
 */
function furtherIssues(error: ZotboxError): readonly { path: string; message: string }[] {
  const issues = error.details?.['issues'];
  if (!Array.isArray(issues)) return [];
  const wellFormed = issues.every((issue: unknown) => {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown };
    return typeof path === 'string' && typeof message === 'string';
  });
  return wellFormed ? (issues as { path: string; message: string }[]).slice(1) : [];
}

/** Control characters as \\u escapes, so a problem stays on its own line (the sanitizer drops the rest, not newlines). */
function escapeLineBreaks(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
