// A report read back must not contradict itself; each contradiction, made by
// hand from the consistent sample report, is named.
import test from 'ava';
import type { EvalReport } from '../../../../src/host/eval/eval-report.js';
import { findContradiction } from '../../../../src/host/eval/report/consistency.js';
import { sampleReport } from '../../../fixtures/eval-reports.js';

test('the sample report is consistent', (t) => {
  t.is(findContradiction(sampleReport()), undefined);
});

const contradiction = test.macro((t, edit: (report: EvalReport) => void, expected: RegExp) => {
  const report = sampleReport();
  edit(report);
  t.regex(findContradiction(report) ?? 'consistent', expected);
});

const firstPassing = (report: EvalReport) => report.cases.find((result) => result.status === 'passed')!;
const firstFailed = (report: EvalReport) => report.cases.find((result) => result.status === 'failed')!;

test('a failed case marked passed', contradiction, (r) => void (firstFailed(r).status = 'passed'), /is marked passed, but its pass rate/);
test('a run marked passed whose expectation failed', contradiction, (r) => void (firstPassing(r).runs[0]!.expectations[0]!.passed = false), /run 1 marked passed against its expectations/);
test('a run marked passed without any expectation', contradiction, (r) => void (firstPassing(r).runs[0]!.expectations = []), /run 1 marked passed/);
test('a pass rate that is not its runs', contradiction, (r) => void (firstFailed(r).pass_rate = 1), /has pass rate 1, but its runs make it/);
test('a passed case with fewer runs than --repeat', contradiction, (r) => void firstPassing(r).runs.pop(), /runs of 2|pass rate/);
test('totals that are not the sum of the cases', contradiction, (r) => void (r.totals = { ...r.totals, failed: 0 }), /totals that are not the sum/);
test('a failing report that says passed', contradiction, (r) => void (r.status = 'passed'), /says passed, but its cases make it failed/);
