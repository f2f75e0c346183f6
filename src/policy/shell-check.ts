// The result type of the bash gate's checks: a value, or a denial with its code
// and a reason that says what to do instead. Checks return these and never throw.
import type { ErrorCode } from '../errors.js';

export type Check<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: ErrorCode; readonly reason: string };

export function deny<T>(code: ErrorCode, reason: string): Check<T> {
  return { ok: false, code, reason };
}
