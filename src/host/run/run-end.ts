// The run.end event of one run, from how its task ended and why it stopped.
// However the worker noticed a cancel (a refused call, an aborted model call), a
// cancelled run is "cancelled" with why (Ctrl-C, a time limit); a run stopped for
// a fault is "failed" with it. Every status but completed carries an error with
// its code, so a caller can always say what happened and what to do.
import { ZotboxError, fromWireError, toZotboxError } from '../../errors.js';
import type { AgentTaskOutcome } from '../../worker/pool-task.js';
import type { RunUsage } from '../models/model-prices.js';
import type { RunEvent } from './run-events.js';

export interface RunStopState {
  /** The tokens of every model turn of the run, and their cost in USD (null when the model has no prices). */
  readonly usage: RunUsage;
  readonly costUsd: number | null;
  readonly fatal: ZotboxError | undefined;
  /** Why the run was cancelled (ZB_GATE_CANCELLED, or the reason the caller's signal carried, such as ZB_RUN_TIMEOUT); undefined when it was not. */
  readonly cancelled: ZotboxError | undefined;
  /** A fault reading the user's next message (interactive runs). */
  readonly inputError: ZotboxError | undefined;
  /** The model turns allowed for one user message, named when the run stops at it. */
  readonly maxTurns: number;
  /** Turns made up to close a cancelled answer (answer-cancellation.ts): no model answered them, so they are not counted (issue 27). */
  readonly closingTurns: number;
}

type RunEnd = RunEvent & { type: 'run.end' };
type RunEndError = NonNullable<RunEnd['error']>;

const wire = (error: ZotboxError): RunEndError => ({ code: error.code, message: error.message });
const CANCELLED: RunEndError = { code: 'ZB_GATE_CANCELLED', message: 'the run was cancelled.' };

/** The error of a run the loop ended without a fault: which limit or stop, and what to do about it. */
function stopError(status: AgentTaskOutcome['status'], maxTurns: number): RunEndError | undefined {
  switch (status) {
    case 'max_turns':
      return {
        code: 'ZB_RUN_MAX_TURNS',
        message: `the agent reached its limit of ${maxTurns} model turn${maxTurns === 1 ? '' : 's'} for one message before finishing its answer. Fix: allow more with --max-turns N (library: maxTurns).`,
      };
    case 'refused':
      return { code: 'ZB_MODEL_REFUSED', message: 'the model declined to answer; its refusal is the final text. Fix: rephrase the request, or use another model (--model ID).' };
    case 'content_filtered':
      return {
        code: 'ZB_MODEL_CONTENT_FILTERED',
        message: "the provider's content filter stopped the answer; the text before it is the final text. Fix: rephrase the request, or use another model or deployment.",
      };
    case 'cancelled':
      return CANCELLED;
    case 'completed':
    case 'failed':
      return undefined;
  }
}

/** The task returned (the loop ended, or failed and said why). */
export function endFromOutcome(result: AgentTaskOutcome, state: RunStopState): RunEnd {
  const at = new Date().toISOString();
  const done = { turns: Math.max(0, result.turns - state.closingTurns), final_text: result.finalText, usage: state.usage, cost_usd: state.costUsd };
  if (state.fatal !== undefined) return { type: 'run.end', status: 'failed', ...done, error: wire(state.fatal), at };
  if (state.cancelled !== undefined) return { type: 'run.end', status: 'cancelled', ...done, error: wire(state.cancelled), at };
  if (state.inputError !== undefined && result.status !== 'failed') return { type: 'run.end', status: 'failed', ...done, error: wire(state.inputError), at };
  if (result.status === 'failed') {
    const error = result.error === undefined ? new ZotboxError('ZB_INTERNAL_BUG', 'the run failed without saying why.') : fromWireError(result.error);
    return { type: 'run.end', status: 'failed', ...done, error: wire(error), at };
  }
  const error = stopError(result.status, state.maxTurns);
  return { type: 'run.end', status: result.status, ...done, ...(error === undefined ? {} : { error }), at };
}

/** The task threw: the worker crashed, entry.pre failed, or the run was abandoned after a cancel. */
export function endFromThrown(thrown: unknown, state: RunStopState): RunEnd {
  const at = new Date().toISOString();
  const spent = { turns: 0, final_text: '', usage: state.usage, cost_usd: state.costUsd };
  if (state.fatal !== undefined) return { type: 'run.end', status: 'failed', ...spent, error: wire(state.fatal), at };
  if (state.cancelled !== undefined) return { type: 'run.end', status: 'cancelled', ...spent, error: wire(state.cancelled), at };
  return { type: 'run.end', status: 'failed', ...spent, error: wire(crashError(thrown)), at };
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
