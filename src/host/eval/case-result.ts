// A case's result from its runs: its pass rate against its threshold, or why it
// did not run. A case that ended after the eval was interrupted and did not pass
// every repeat may have been cut short anywhere (a run, a judge, setup): it did
// not run, and --last-failed runs it again.
import type { CaseResult, CaseRun } from './eval-report.js';
import type { PlannedCase } from './eval-plan.js';
import { caseStatusOf } from './infrastructure.js';

export function passRate(runs: readonly CaseRun[]): number | null {
  if (runs.length === 0) return null;
  return runs.filter((run) => run.passed).length / runs.length;
}

export function caseResult(planned: PlannedCase, runs: readonly CaseRun[], repeat: number, endedAfterInterrupt: boolean): CaseResult {
  const cutShort = endedAfterInterrupt && (runs.length < repeat || runs.some((run) => !run.passed));
  if (cutShort) return { ...base(planned), status: 'not_run', not_run_reason: 'the eval was interrupted before the case finished', pass_rate: passRate(runs), runs: [...runs] };
  const rate = passRate(runs);
  return { ...base(planned), status: caseStatusOf(runs, planned.threshold), not_run_reason: null, pass_rate: rate, runs: [...runs] };
}

export function notRunCase(planned: PlannedCase, reason: string): CaseResult {
  return { ...base(planned), status: 'not_run', not_run_reason: reason, pass_rate: null, runs: [] };
}

function base(planned: PlannedCase): Pick<CaseResult, 'suite' | 'id' | 'index' | 'prompt' | 'line' | 'threshold'> {
  const line = planned.line;
  return { suite: planned.suite.loaded.name, id: planned.evalCase.id, index: planned.index, prompt: planned.evalCase.prompt, ...(line === undefined ? {} : { line }), threshold: planned.threshold };
}
