// Merging shard reports gives the report one unsharded run would have written;
// anything that would make that untrue is refused by code.
import test from 'ava';
import type { EvalReport } from '../../../../src/host/eval/eval-report.js';
import { mergeEvalReports } from '../../../../src/host/eval/report/merge.js';
import { caseInShard, caseKey } from '../../../../src/host/eval/report/shard.js';
import { computeTotals, reportStatus } from '../../../../src/host/eval/report/totals.js';
import { sampleReport } from '../../../fixtures/eval-reports.js';

const SHARD_TIMES = [
  { started_at: '2025-05-01T10:00:05.000Z', finished_at: '2025-05-01T10:00:40.000Z' },
  { started_at: '2025-05-01T10:00:01.000Z', finished_at: '2025-05-01T10:00:20.000Z' },
  { started_at: '2025-05-01T10:00:03.000Z', finished_at: '2025-05-01T10:01:30.500Z' },
];

/** The sample eval as shard index/total would have written it. */
function shardOf(whole: EvalReport, index: number, total: number): EvalReport {
  const full = structuredClone(whole);
  const cases = full.cases.filter((result) => caseInShard(caseKey(result.suite, result.id), { index, total }));
  const times = SHARD_TIMES[(index - 1) % SHARD_TIMES.length]!;
  return { ...full, ...times, duration_ms: 1234, shard: { index, total }, cases, totals: computeTotals(cases), status: reportStatus(cases, false) };
}

function withoutTimings(report: EvalReport): unknown {
  const { started_at: _s, finished_at: _f, duration_ms: _d, ...rest } = report;
  return { ...rest, cases: rest.cases.map((result) => ({ ...result, runs: result.runs.map(({ duration_ms: _r, ...run }) => run) })) };
}

test('three shards merged in a shuffled order are the full report, timings aside', (t) => {
  const full = sampleReport();
  const shards = [shardOf(full, 2, 3), shardOf(full, 3, 3), shardOf(full, 1, 3)];
  t.deepEqual(
    shards.map((shard) => shard.cases.length),
    [1, 3, 3],
    'the pinned assignment puts 3, 1 and 3 of the 7 cases in shards 1, 2, 3',
  );
  const merged = mergeEvalReports(shards, ['b.json', 'c.json', 'a.json']);
  t.deepEqual(withoutTimings(merged), withoutTimings(full));
});

test('the merged span runs from the earliest start to the latest finish', (t) => {
  const full = sampleReport();
  const merged = mergeEvalReports([shardOf(full, 1, 3), shardOf(full, 2, 3), shardOf(full, 3, 3)]);
  t.is(merged.started_at, '2025-05-01T10:00:01.000Z');
  t.is(merged.finished_at, '2025-05-01T10:01:30.500Z');
  t.is(merged.duration_ms, 89_500);
});

test('a shard that passed and one that failed merge to failed; an interrupted shard makes it interrupted', (t) => {
  const full = sampleReport();
  const second = shardOf(full, 2, 3);
  t.is(second.status, 'passed');
  t.is(mergeEvalReports([shardOf(full, 1, 3), second, shardOf(full, 3, 3)]).status, 'failed');
  // The passing cases only, as --grep would have chosen them.
  const passingOnly = { ...full, options: { ...full.options, grep: 'passing' }, cases: full.cases.filter((result) => result.status === 'passed'), suites: full.suites };
  const interrupted = { ...shardOf(passingOnly, 1, 2), status: 'interrupted' as const };
  t.is(mergeEvalReports([interrupted, shardOf(passingOnly, 2, 2)]).status, 'interrupted');
  t.is(mergeEvalReports([shardOf(passingOnly, 1, 2), shardOf(passingOnly, 2, 2)]).status, 'passed');
});

test('one shard of one merges to the whole eval', (t) => {
  const full = sampleReport();
  t.deepEqual(withoutTimings(mergeEvalReports([shardOf(full, 1, 1)])), withoutTimings(full));
});

test('consent may differ between shards; the merged suite has the lowest shard index', (t) => {
  const full = sampleReport();
  const first = shardOf(full, 1, 2);
  const second = shardOf(full, 2, 2);
  second.suites = second.suites.map((suite) => ({ ...suite, consent: 'receipt' as const }));
  t.is(mergeEvalReports([second, first]).suites[0]!.consent, 'flag');
  t.is(
    mergeEvalReports([
      { ...first, suites: second.suites },
      { ...second, suites: full.suites },
    ]).suites[0]!.consent,
    'receipt',
  );
});

function mergeError(t: import('ava').ExecutionContext, reports: EvalReport[], code = 'ZB_EVAL_MERGE_MISMATCH') {
  const error = t.throws(() => mergeEvalReports(reports), { code } as never);
  t.regex(error.message, /Fix: /);
  return { message: error.message, details: (error as unknown as { details: Record<string, unknown> }).details };
}

test('an unsharded report is refused', (t) => {
  const full = sampleReport();
  t.regex(mergeError(t, [full]).message, /not a shard report/);
  t.regex(mergeError(t, [shardOf(full, 1, 2), full]).message, /report 2 is not a shard report/);
});

test('no reports is refused', (t) => {
  mergeError(t, []);
});

test('a missing shard is named', (t) => {
  const full = sampleReport();
  const { message, details } = mergeError(t, [shardOf(full, 1, 4), shardOf(full, 3, 4)]);
  t.deepEqual(details.missing, [2, 4]);
  t.regex(message, /2\/4, 4\/4 are missing/);
});

test('a shard given twice is named', (t) => {
  const full = sampleReport();
  const { details } = mergeError(t, [shardOf(full, 1, 2), shardOf(full, 2, 2), shardOf(full, 2, 2)]);
  t.is(details.duplicate, 2);
});

test('shards of different totals are refused', (t) => {
  const full = sampleReport();
  const { details } = mergeError(t, [shardOf(full, 1, 2), shardOf(full, 2, 3)]);
  t.deepEqual(details.totals, [2, 3]);
});

const differs = test.macro((t, change: (report: EvalReport) => void, field: string) => {
  const full = sampleReport();
  const second = shardOf(full, 2, 2);
  change(second);
  const { message, details } = mergeError(t, [shardOf(full, 1, 2), second]);
  t.is(details.field, field);
  t.true(message.includes(field), 'the message names the field');
});
test('different options are refused: repeat', differs, (r) => void (r.options = { ...r.options, repeat: 3 }), 'options.repeat');
test('different options are refused: retries', differs, (r) => void (r.options = { ...r.options, retries: 0 }), 'options.retries');
test('different options are refused: grep', differs, (r) => void (r.options = { ...r.options, grep: 'faq' }), 'options.grep');
test('different options are refused: cost cap', differs, (r) => void (r.options = { ...r.options, max_cost_usd: null }), 'options.max_cost_usd');
test('different options are refused: token cap', differs, (r) => void (r.options = { ...r.options, max_tokens: 10 }), 'options.max_tokens');
test('different options are refused: fail_fast', differs, (r) => void (r.options = { ...r.options, fail_fast: true }), 'options.fail_fast');
test(
  'a different agent digest is refused',
  differs,
  (r) => void (r.suites[1] = { ...r.suites[1]!, agent: { ...r.suites[1]!.agent, content_digest: `sha256:${'c'.repeat(64)}` } }),
  'suites[1].agent.content_digest',
);
test('a different model is refused', differs, (r) => void (r.suites[0] = { ...r.suites[0]!, model: 'claude-x' }), 'suites[0].model');
test('different permissions are refused', differs, (r) => void (r.suites[0] = { ...r.suites[0]!, permissions: { ...r.suites[0]!.permissions, write: [] } }), 'suites[0].permissions.write.length');
test('a different suite file is refused', differs, (r) => void (r.suites[0] = { ...r.suites[0]!, file: 'other.yaml' }), 'suites[0].file');
test('a suite more or fewer is refused', differs, (r) => void (r.suites = r.suites.slice(0, 1)), 'suites.length');
test('another zotbox version is refused', differs, (r) => void (r.zotbox_version = '0.2.0'), 'zotbox_version');

test('a case in two reports is refused, naming it', (t) => {
  const full = sampleReport();
  const first = shardOf(full, 1, 2);
  const second = shardOf(full, 2, 2);
  const clash = { ...second.cases[0]!, suite: first.cases[0]!.suite, id: first.cases[0]!.id };
  const { details } = mergeError(t, [first, { ...second, cases: [clash, ...second.cases.slice(1)] }]);
  t.is(details.case, caseKey(clash.suite, clash.id));
  const twice = mergeError(t, [{ ...first, cases: [first.cases[0]!, first.cases[0]!] }, second]);
  t.regex(twice.message, /twice in shard 1\/2/);
});

test('a case in the wrong shard is refused', (t) => {
  const full = sampleReport();
  const first = shardOf(full, 1, 2);
  const second = shardOf(full, 2, 2);
  const { details } = mergeError(t, [
    { ...first, cases: [...first.cases, second.cases[0]!] },
    { ...second, cases: second.cases.slice(1) },
  ]);
  t.is(details.case, caseKey(second.cases[0]!.suite, second.cases[0]!.id));
});

test('two cases with one index are refused', (t) => {
  const full = sampleReport();
  const first = shardOf(full, 1, 2);
  const second = shardOf(full, 2, 2);
  const { details } = mergeError(t, [first, { ...second, cases: [{ ...second.cases[0]!, index: first.cases[0]!.index }, ...second.cases.slice(1)] }]);
  t.is(details.index, first.cases[0]!.index);
});

test('a case of a suite the report does not list is ZB_EVAL_REPORT_INVALID', (t) => {
  const full = sampleReport();
  const first = shardOf(full, 1, 1);
  mergeError(t, [{ ...first, cases: [...first.cases.slice(1), { ...first.cases[0]!, suite: 'ghost' }] }], 'ZB_EVAL_REPORT_INVALID');
});

test('a start time that is not a time is ZB_EVAL_REPORT_INVALID', (t) => {
  mergeError(t, [{ ...shardOf(sampleReport(), 1, 1), started_at: 'yesterday' }], 'ZB_EVAL_REPORT_INVALID');
});
