// --last-failed: the cases a report says to run again.
import test from 'ava';
import { casesToRerun } from '../../../../src/host/eval/report/last-failed.js';
import { sampleReport } from '../../../fixtures/eval-reports.js';

test('failed and not-run cases are rerun; passed ones (a tolerated failed run included) are not', (t) => {
  t.deepEqual(casesToRerun(sampleReport()), new Set(['refactor/extract-fn', 'refactor/no-start', 'docs-qa/cites-source', 'docs-qa/long-one']));
});

test('a passed report reruns nothing', (t) => {
  const report = sampleReport();
  report.cases = report.cases.filter((result) => result.status === 'passed');
  t.deepEqual(casesToRerun(report), new Set());
});
