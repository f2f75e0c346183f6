// What counts as an infrastructure error in an eval (issue 27 §3): a fault of the
// model server or of the host's sandbox, not of the agent under test. A case that
// did not pass because of one is an `error`, not a failure, in every reporter, and
// K of them in a row on one endpoint stop the eval from starting cases. Pure: the
// rules read codes and runs only.
import type { CaseRun } from './eval-report.js';

/**
 * Run errors that are the model server's: it could not be reached or answered with an
 * error after the provider's own retries (FAILED), went silent past its time limits
 * (TIMEOUT), broke the connection mid-answer (INTERRUPTED), or refused the API key
 * (AUTH). A case's own timeout_s (ZB_RUN_TIMEOUT) is not here: an agent that loops
 * reaches it too, so it stays the agent's failure.
 */
export const PROVIDER_FAULT_CODES: ReadonlySet<string> = new Set(['ZB_PROVIDER_FAILED', 'ZB_PROVIDER_TIMEOUT', 'ZB_PROVIDER_INTERRUPTED', 'ZB_PROVIDER_AUTH']);

/** Commands had to run confined and bubblewrap could not build the sandbox on this host. */
export const SANDBOX_FAULT_CODES: ReadonlySet<string> = new Set(['ZB_CONFINEMENT_UNAVAILABLE']);

/** How reports name the host's sandbox where a model fault names its endpoint. */
export const SANDBOX_ENDPOINT = 'the sandbox (bubblewrap) on this host';

export function isInfrastructureCode(code: string): boolean {
  return PROVIDER_FAULT_CODES.has(code) || SANDBOX_FAULT_CODES.has(code);
}

/** A run that did not pass and met an infrastructure fault: its verdict says nothing about the agent. */
export function isInfrastructureError(run: CaseRun): boolean {
  return !run.passed && run.infrastructure !== undefined;
}

/**
 * A case's status from its runs (never `not_run`): passed when its pass rate reaches
 * its threshold; otherwise failed when it would not reach it even with every
 * infrastructure error counted as a pass (the agent failed on its own), else error.
 */
export function caseStatusOf(runs: readonly CaseRun[], threshold: number): 'passed' | 'failed' | 'error' {
  if (runs.length === 0) return 'failed';
  const passed = runs.filter((run) => run.passed).length;
  if (passed / runs.length >= threshold) return 'passed';
  const errors = runs.filter(isInfrastructureError).length;
  return (passed + errors) / runs.length >= threshold ? 'error' : 'failed';
}
