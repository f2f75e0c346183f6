// Totals and status are computed from the cases alone (the runner and merge share them).
import test from 'ava';
import { computeTotals, reportStatus } from '../../../../src/host/eval/report/totals.js';
import { sampleReport } from '../../../fixtures/eval-reports.js';

test('computeTotals of the sample cases equals the totals stated by hand', (t) => {
  const report = sampleReport();
  t.deepEqual(computeTotals(report.cases), report.totals);
});

test('computeTotals of no cases is all zero', (t) => {
  t.deepEqual(computeTotals([]), {
    cases: 0,
    passed: 0,
    failed: 0,
    errors: 0,
    not_run: 0,
    runs: 0,
    usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    cost_usd: 0,
  });
});

test('a run without a price adds only the judge costs it has', (t) => {
  const [, , , , , citesSource] = sampleReport().cases;
  // run 1 costs 0.25; run 2 has no price and one judge that cost 0.125.
  t.is(computeTotals([citesSource!]).cost_usd, 0.375);
});

test('reportStatus: passed iff every case passed; not_run fails; interrupted wins', (t) => {
  const cases = sampleReport().cases;
  const passed = cases.filter((result) => result.status === 'passed');
  const notRun = cases.filter((result) => result.status === 'not_run');
  t.is(reportStatus(passed, false), 'passed');
  t.is(reportStatus(notRun, false), 'failed');
  t.is(reportStatus(cases, false), 'failed');
  t.is(reportStatus(passed, true), 'interrupted');
  t.is(reportStatus([], false), 'passed', 'an empty shard passes');
});
