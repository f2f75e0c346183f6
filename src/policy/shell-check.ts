// The result type of the bash gate's checks: a value, or a denial with its code
// and a reason that says what to do instead. Checks return these and never throw.
import type { ErrorCode } from '../errors.js';

/**
 * A program denied only because it is not in the allowlist (issue 27 §6): the one denial a user may waive
 * at the terminal (--approve). Every other denial carries none, and so can never be approved.
 */
export interface Unlisted {
  /** The program's name as the allowlist would hold it. */
  readonly name: string;
  /** Where it was found on the fixed PATH (canonical), shown in the approval prompt. */
  readonly program: string;
  /** Set when zotbox has no argument rule for it: nothing checks its arguments, only the sandbox bounds it (the prompt says so). */
  readonly noArgumentRule?: true;
}

export type Check<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: ErrorCode; readonly reason: string; readonly unlisted?: Unlisted };

export function deny<T>(code: ErrorCode, reason: string): Check<T> {
  return { ok: false, code, reason };
}

/** A denial passed up from a command a wrapper or find -exec runs, its reason prefixed; whether it is approvable is kept. */
export function denyWithin<T>(denial: { readonly code: ErrorCode; readonly reason: string; readonly unlisted?: Unlisted }, prefix: string): Check<T> {
  return { ok: false, code: denial.code, reason: `${prefix}${denial.reason}`, ...(denial.unlisted === undefined ? {} : { unlisted: denial.unlisted }) };
}
