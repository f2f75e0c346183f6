// What the grader harness hands back across the isolate boundary, parsed with a
// strict schema (the isolate is untrusted), and the closed-world check that turns
// the returned value into a GraderVerdict: exactly { pass, score?, reason }.
// Pure: no isolate, no I/O; it never trusts a field the schema did not check.
import { z } from 'zod';
import type { GraderVerdict } from '../grader-input.js';
import { REASON_MAX_CHARS } from './grader-harness.js';

const Field = z.strictObject({
  type: z.string(),
  // Any number, NaN and Infinity included: checkVerdict says what is wrong with it.
  value: z.union([z.string(), z.number().or(z.nan()).or(z.literal(Infinity)).or(z.literal(-Infinity)), z.boolean()]).optional(),
});
type Field = z.infer<typeof Field>;

const ReturnedValue = z.union([
  z.strictObject({
    type: z.literal('object'),
    plain: z.literal(true),
    keys: z.array(z.string()).max(20),
    keyCount: z.number().int().nonnegative(),
    symbols: z.number().int().nonnegative(),
    pass: Field,
    score: Field,
    reason: Field,
  }),
  z.strictObject({ type: z.literal('object'), plain: z.literal(false) }),
  z.strictObject({ type: z.string() }),
]);
type ReturnedValue = z.infer<typeof ReturnedValue>;

export const ThrownSchema = z.strictObject({ name: z.string(), message: z.string() });
export type Thrown = z.infer<typeof ThrownSchema>;

export const StartRecordSchema = z.discriminatedUnion('state', [z.strictObject({ state: z.literal('called') }), z.strictObject({ state: z.literal('no_grade'), found: z.string() })]);

export const ReadRecordSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('pending') }),
  z.strictObject({ state: z.literal('threw'), error: ThrownSchema }),
  z.strictObject({ state: z.literal('returned'), verdict: ReturnedValue }),
]);

export type VerdictCheck = { readonly ok: true; readonly verdict: GraderVerdict } | { readonly ok: false; readonly problem: string };

const VERDICT_KEYS: ReadonlySet<string> = new Set(['pass', 'score', 'reason']);

/** Checks what grade() settled with against the verdict shape; the problem names what was wrong. */
export function checkVerdict(value: ReturnedValue): VerdictCheck {
  if (!('plain' in value)) return refuse(`grade returned ${describeType(value.type)}, not an object`);
  if (!value.plain) return refuse('grade returned an object that is not a plain object (a class instance, Map, Date or the like)');
  if (value.symbols > 0) return refuse('the verdict has symbol keys; a verdict has only pass, reason and optionally score');
  const extra = value.keys.filter((key) => !VERDICT_KEYS.has(key));
  if (extra.length > 0 || value.keyCount > value.keys.length) {
    return refuse(
      `the verdict has key${extra.length === 1 ? '' : 's'} ${extra.map((key) => JSON.stringify(key)).join(', ')}, which a verdict does not have; it has exactly pass, reason and optionally score`,
    );
  }
  const has = (key: string) => value.keys.includes(key);
  if (!has('pass')) return refuse('the verdict has no pass');
  if (value.pass.type !== 'boolean' || typeof value.pass.value !== 'boolean') return refuse(`pass is ${describeType(value.pass.type)}, not a boolean`);
  if (!has('reason')) return refuse('the verdict has no reason');
  if (value.reason.type !== 'string' || typeof value.reason.value !== 'string') return refuse(`reason is ${describeType(value.reason.type)}, not a string`);
  const reason = boundedText(value.reason.value);
  if (!has('score')) return { ok: true, verdict: { pass: value.pass.value, reason } };
  const score = checkScore(value.score);
  if (typeof score === 'string') return refuse(score);
  return { ok: true, verdict: { pass: value.pass.value, score, reason } };
}

function checkScore(field: Field): number | string {
  if (field.type !== 'number' || typeof field.value !== 'number') return `score is ${describeType(field.type)}, not a number from 0 to 1 (leave it out when there is none)`;
  if (!Number.isFinite(field.value) || field.value < 0 || field.value > 1) return `score is ${String(field.value)}, outside 0 to 1`;
  return field.value;
}

/** A grader's text cut to REASON_MAX_CHARS (never inside a surrogate pair), with a note saying so. */
export function boundedText(text: string): string {
  if (text.length <= REASON_MAX_CHARS) return text;
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(REASON_MAX_CHARS - 1)) ? REASON_MAX_CHARS - 1 : REASON_MAX_CHARS;
  return `${text.slice(0, cut)} … [truncated: longer than ${REASON_MAX_CHARS} characters]`;
}

function describeType(type: string): string {
  if (type === 'undefined' || type === 'null') return type;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function refuse(problem: string): VerdictCheck {
  return { ok: false, problem };
}
