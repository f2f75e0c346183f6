// The run.end event of one run, from how its task ended and why it stopped.
// However the worker noticed a cancel (a refused call, an aborted model call), a
// cancelled run is "cancelled"; a run stopped for a fault is "failed" with it.
import { ZotboxError, fromWireError, toZotboxError } from '../../errors.js';
import type { AgentTaskOutcome } from '../../worker/pool-task.js';
import type { RunUsage } from '../models/model-prices.js';
import type { RunEvent } from './run-events.js';

export interface RunStopState {
  /** The tokens of every model turn of the run, and their cost in USD (null when the model has no prices). */
  readonly usage: RunUsage;
  readonly costUsd: number | null;
  readonly fatal: ZotboxError | undefined;
  readonly cancelled: boolean;
  /** A fault reading the user's next message (interactive runs). */
  readonly inputError: ZotboxError | undefined;
}

type RunEnd = RunEvent & { type: 'run.end' };
const CANCELLED = { code: 'ZB_GATE_CANCELLED', message: 'the run was cancelled.' } as const;

/** The task returned (the loop ended, or failed and said why). */
export function endFromOutcome(result: AgentTaskOutcome, state: RunStopState): RunEnd {
  const at = new Date().toISOString();
  const done = { turns: result.turns, final_text: result.finalText, usage: state.usage, cost_usd: state.costUsd };
  if (state.fatal !== undefined) return { type: 'run.end', status: 'failed', ...done, error: { code: state.fatal.code, message: state.fatal.message }, at };
  if (state.cancelled) return { type: 'run.end', status: 'cancelled', ...done, error: { ...CANCELLED }, at };
  if (state.inputError !== undefined && result.status !== 'failed')
    return { type: 'run.end', status: 'failed', ...done, error: { code: state.inputError.code, message: state.inputError.message }, at };
  if (result.status === 'failed') {
    const error = result.error === undefined ? new ZotboxError('ZB_INTERNAL_BUG', 'the run failed without saying why.') : fromWireError(result.error);
    return { type: 'run.end', status: 'failed', ...done, error: { code: error.code, message: error.message }, at };
  }
  return { type: 'run.end', status: result.status, ...done, at };
}

/** The task threw: the worker crashed, entry.pre failed, or the run was abandoned after a cancel. */
export function endFromThrown(thrown: unknown, state: RunStopState): RunEnd {
  const at = new Date().toISOString();
  const spent = { usage: state.usage, cost_usd: state.costUsd };
  if (state.fatal !== undefined) return { type: 'run.end', status: 'failed', turns: 0, final_text: '', ...spent, error: { code: state.fatal.code, message: state.fatal.message }, at };
  if (state.cancelled) return { type: 'run.end', status: 'cancelled', turns: 0, final_text: '', ...spent, error: { ...CANCELLED }, at };
  const error = crashError(thrown);
  return { type: 'run.end', status: 'failed', turns: 0, final_text: '', ...spent, error: { code: error.code, message: error.message }, at };
}

function crashError(thrown: unknown): ZotboxError {
  const error = toZotboxError(thrown);
  if (error.code !== 'ZB_INTERNAL_BUG') return error;
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  return new ZotboxError(
    'ZB_WORKER_CRASHED',
    `the worker running the agent failed (${text}); only the runs on that worker were affected. Retry it; if it keeps failing, report it with --debug output.`,
    { cause: thrown },
  );
}
