// The eval's totals and status, computed from its cases alone: the runner and
// `zotbox eval merge` both call these, so a merged report's totals are exactly
// those a single unsharded run would have written. Pure: no I/O, no clock.
import { formatCostSum } from '../../models/format-cost.js';
import type { CaseResult, CaseRun, EvalReport, EvalTotals } from '../eval-report.js';

/**
 * Sums the cases in the order given (the runner and merge both pass them in
 * `index` order, so floating-point cost sums agree to the last bit).
 * `runs` counts repeats made (one per entry of `runs`, retries not counted);
 * `cost_usd` adds each run's cost, or, when the run has none (a model without
 * prices), the costs its judges did report.
 */
export function computeTotals(cases: readonly CaseResult[]): EvalTotals {
  const totals: EvalTotals = {
    cases: cases.length,
    passed: 0,
    failed: 0,
    errors: 0,
    not_run: 0,
    runs: 0,
    usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    cost_usd: 0,
  };
  for (const result of cases) {
    totals[result.status === 'error' ? 'errors' : result.status] += 1;
    for (const run of result.runs) {
      totals.runs += 1;
      totals.usage.input_tokens += run.usage.input_tokens;
      totals.usage.output_tokens += run.usage.output_tokens;
      totals.usage.cache_creation_input_tokens += run.usage.cache_creation_input_tokens;
      totals.usage.cache_read_input_tokens += run.usage.cache_read_input_tokens;
      totals.cost_usd += knownCost(run);
    }
  }
  return totals;
}

/**
 * The parts of a run's cost, each known (USD) or not (null): its cost when it has one;
 * else an unknown part, and what its judges reported. Summed, the known parts are knownCost.
 */
export function runCostParts(run: CaseRun): (number | null)[] {
  if (run.cost_usd !== null) return [run.cost_usd];
  return [null, ...run.expectations.flatMap((expectation) => (typeof expectation.cost_usd === 'number' ? [expectation.cost_usd] : []))];
}

/** What these cases cost, as every reporter prints it (format-cost.ts): "$0.0123", "$0.0123 + no price", "no price". */
export function formatCasesCost(cases: readonly CaseResult[]): string {
  return formatCostSum(cases.flatMap((result) => result.runs.flatMap(runCostParts)));
}

function knownCost(run: CaseRun): number {
  if (run.cost_usd !== null) return run.cost_usd;
  let judges = 0;
  for (const expectation of run.expectations) judges += expectation.cost_usd ?? 0;
  return judges;
}

/**
 * interrupted wins over all; then failed when a case failed; then error when a case
 * is an infrastructure error (the cases not run after them are its consequence);
 * then failed when a case did not run; passed when every case passed (an empty eval
 * or shard passes).
 */
export function reportStatus(cases: readonly CaseResult[], interrupted: boolean): EvalReport['status'] {
  if (interrupted) return 'interrupted';
  if (cases.some((result) => result.status === 'failed')) return 'failed';
  if (cases.some((result) => result.status === 'error')) return 'error';
  return cases.every((result) => result.status === 'passed') ? 'passed' : 'failed';
}
