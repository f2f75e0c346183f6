// The messages between the eval host and its grader process (grader-host.ts,
// grader-child.ts), over Node's IPC channel. Each side checks what it receives:
// the child runs code from suites, so the host trusts none of its answers.
import { z } from 'zod';
import { WireErrorSchema } from '../../../policy/gate-protocol.js';

export const GradeRequestSchema = z.strictObject({
  type: z.literal('grade'),
  id: z.number().int().nonnegative(),
  grader: z.strictObject({ source: z.string(), file: z.string() }),
  /** The GraderInput, as plain JSON (runGrader checks its size). */
  input: z.unknown(),
  limits: z.strictObject({ memoryMb: z.number().optional(), cpuTimeMs: z.number().optional() }),
});
export type GradeRequest = z.infer<typeof GradeRequestSchema>;

const Timing = z.strictObject({ startMs: z.number(), gradeMs: z.number() });

export const GradeAnswerSchema = z.strictObject({
  type: z.literal('graded'),
  id: z.number().int().nonnegative(),
  outcome: z.discriminatedUnion('ok', [
    z.strictObject({ ok: z.literal(true), verdict: z.strictObject({ pass: z.boolean(), reason: z.string(), score: z.number().min(0).max(1).optional() }), timing: Timing }),
    z.strictObject({ ok: z.literal(false), error: WireErrorSchema, timing: Timing }),
  ]),
});
export type GradeAnswer = z.infer<typeof GradeAnswerSchema>;
