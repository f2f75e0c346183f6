// entry.pre as a command, for one run: run here, in the host, through the plan's
// decider and executors like any model call, and reported as the same events.
// Its output goes to the model with the first prompt.
import { toZotboxError } from '../../errors.js';
import { PRE_CALL_ID, runPreCommand } from './entry-pre.js';
import type { EventQueue } from './event-queue.js';
import { measureResult, summarizeResult } from './run-gate.js';
import type { RunPlan } from './run-plan.js';

/** The command's output, or undefined when entry.pre is not a command. Throws ZB_RUN_PRE_FAILED. */
export async function runPreForRun(plan: RunPlan, queue: EventQueue, signal: AbortSignal): Promise<string | undefined> {
  const pre = plan.pre;
  if (pre.kind !== 'command') return undefined;
  queue.push({ type: 'tool.call', id: PRE_CALL_ID, tool: 'bash', input: { command: pre.command } });
  let output: string;
  try {
    output = await runPreCommand(pre.command, {
      decide: plan.decide,
      execute: plan.execute,
      signal,
      onDecision: (verdict) =>
        queue.push({
          type: 'gate.decision',
          id: PRE_CALL_ID,
          tool: 'bash',
          allowed: verdict.allow,
          ...(verdict.audit.argv === undefined ? {} : { argv: verdict.audit.argv.map((a) => [...a]) }),
          ...(verdict.audit.paths === undefined ? {} : { paths: [...verdict.audit.paths] }),
          ...(verdict.audit.pathsComplete === undefined ? {} : { paths_complete: verdict.audit.pathsComplete }),
          ...(verdict.allow ? {} : { code: verdict.code, reason: verdict.reason }),
        }),
    });
  } catch (error) {
    queue.push({ type: 'tool.result', id: PRE_CALL_ID, tool: 'bash', ok: false, summary: toZotboxError(error).message });
    throw error;
  }
  queue.push({ type: 'tool.result', id: PRE_CALL_ID, tool: 'bash', ok: true, summary: summarizeResult(output), ...measureResult(output) });
  return output;
}
