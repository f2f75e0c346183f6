// Adversarial review of issue 14, second pass (a crafted shard report given to
// `zotbox eval merge`): merge checks that shards are complete and of one eval, but
// takes each case's result on trust. A shard can leave out a case it holds (its
// failure) or call a case passed that its own runs say failed, and the merged
// report, recomputed from those cases, says the whole eval passed.
import test from 'ava';
import type { CaseResult, EvalReport } from '../../src/host/eval/eval-report.js';
import { mergeEvalReports } from '../../src/host/eval/report/merge.js';
import { caseInShard, caseKey } from '../../src/host/eval/report/shard.js';
import { computeTotals, reportStatus } from '../../src/host/eval/report/totals.js';
import { sampleReport } from '../fixtures/eval-reports.js';

function shardOf(whole: EvalReport, index: number, total: number, cases?: CaseResult[]): EvalReport {
  const full = structuredClone(whole);
  const own = cases ?? full.cases.filter((result) => caseInShard(caseKey(result.suite, result.id), { index, total }));
  return { ...full, shard: { index, total }, cases: own, totals: computeTotals(own), status: reportStatus(own, false) };
}

function isFailed(result: CaseResult): boolean {
  return result.status !== 'passed';
}

test('a shard without --grep that leaves out one of its cases is refused, not merged to passed', (t) => {
  const full = sampleReport();
  t.is(full.options.grep, null, 'no --grep: every case of every suite is in some shard');
  const first = shardOf(full, 1, 1);
  // The attacker drops every case that did not pass; the suites still declare them all.
  const dropped = shardOf(
    full,
    1,
    1,
    first.cases.filter((result) => !isFailed(result)),
  );
  t.true(dropped.cases.length < full.cases.length);
  t.throws(() => mergeEvalReports([dropped], ['crafted.json']), { code: 'ZB_EVAL_REPORT_INVALID' } as never);
});

test('a case marked passed whose runs say it failed is refused, not merged to passed', (t) => {
  const full = sampleReport();
  // Every case "passed", though extract-fn's second run failed and its pass rate (0.5) is under its threshold (1).
  const forged = structuredClone(full)
    .cases.filter((result) => result.status !== 'not_run')
    .map((result): CaseResult => ({ ...result, status: 'passed' }));
  const extract = forged.find((result) => result.id === 'extract-fn')!;
  t.is(extract.threshold, 1);
  t.true(
    extract.runs.some((run) => !run.passed),
    'the report itself records a failed run',
  );
  t.throws(() => mergeEvalReports([shardOf(full, 1, 1, forged)], ['crafted.json']), { code: 'ZB_EVAL_REPORT_INVALID' } as never);
});
