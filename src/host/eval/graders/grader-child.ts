// The grader process: runs the JS graders the eval host sends it, each in an
// isolate of its own (run-grader.ts), and answers with the outcome. It exists so
// that a grader isolated-vm cannot stop (a thread left spinning, which would keep
// any process from exiting) costs only this process, which the host then kills.
// Started with an empty environment and --no-node-snapshot; it holds no secrets.
import { toZotboxError } from '../../../errors.js';
import { runGrader } from './run-grader.js';
import { GradeRequestSchema, type GradeAnswer } from './grader-protocol.js';
import type { GraderInput } from '../grader-input.js';

process.on('message', (message: unknown) => {
  const request = GradeRequestSchema.safeParse(message);
  // Only the host writes to this channel; a message it did not mean is dropped.
  if (!request.success) return;
  const { id, grader, input, limits } = request.data;
  void runGrader(grader, input as GraderInput, {
    ...(limits.memoryMb === undefined ? {} : { memoryMb: limits.memoryMb }),
    ...(limits.cpuTimeMs === undefined ? {} : { cpuTimeMs: limits.cpuTimeMs }),
  }).then(
    (outcome) => answer({ type: 'graded', id, outcome: outcome.ok ? outcome : { ok: false, error: outcome.error.toWire(), timing: outcome.timing } }),
    // runGrader rejects only for limits out of range: a host mistake, answered so the host never waits for it.
    (thrown: unknown) => answer({ type: 'graded', id, outcome: { ok: false, error: toZotboxError(thrown).toWire(), timing: { startMs: 0, gradeMs: 0 } } }),
  );
});

function answer(message: GradeAnswer): void {
  process.send?.(message);
}

// The host went away: so does this process (a stuck isolate thread cannot stop a hard exit of the host's choosing, but a disconnect is ours).
process.on('disconnect', () => process.exit(0));
