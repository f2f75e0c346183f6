// What a report read back (merge, --last-failed) must say of itself: each case's
// status follows from its runs and threshold, each run's verdict from its
// expectations, and the totals and status from the cases. A report is not signed
// (a CI artifact is as trustworthy as the jobs that wrote it), but one that
// contradicts itself is refused, never merged to a pass (adversarial14b).
import type { CaseResult, EvalReport } from '../eval-report.js';
import { caseStatusOf } from '../infrastructure.js';
import { computeTotals, reportStatus } from './totals.js';

/** The first contradiction in the report, in words, or undefined when it has none. */
export function findContradiction(report: EvalReport): string | undefined {
  for (const result of report.cases) {
    const problem = caseContradiction(result, report.options.repeat);
    if (problem !== undefined) return `case ${result.suite}/${result.id} ${problem}`;
  }
  if (JSON.stringify(computeTotals(report.cases)) !== JSON.stringify(report.totals)) return 'has totals that are not the sum of its cases';
  const status = reportStatus(report.cases, report.status === 'interrupted');
  if (status !== report.status) return `says ${report.status}, but its cases make it ${status}`;
  return undefined;
}

function caseContradiction(result: CaseResult, repeat: number): string | undefined {
  for (const run of result.runs) {
    const allPassed = run.expectations.length > 0 && run.expectations.every((expectation) => expectation.passed);
    if (run.passed !== allPassed) return `has run ${run.repeat} marked ${run.passed ? 'passed' : 'failed'} against its expectations`;
  }
  const passed = result.runs.filter((run) => run.passed).length;
  const rate = result.runs.length === 0 ? null : passed / result.runs.length;
  if (rate !== result.pass_rate) return `has pass rate ${String(result.pass_rate)}, but its runs make it ${String(rate)}`;
  if (result.status === 'not_run') return undefined;
  if (result.runs.length !== repeat) return `is ${result.status} with ${result.runs.length} runs of ${repeat}`;
  const status = caseStatusOf(result.runs, result.threshold);
  if (status !== result.status) return `is marked ${result.status}, but its pass rate ${String(rate)} against its threshold ${result.threshold} and its infrastructure errors make it ${status}`;
  return undefined;
}
