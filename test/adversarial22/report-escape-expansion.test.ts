// Issue 22 review, item 6: "Large texts are cut with a marker at a documented
// size in the JSON report, never by crashing." The bound counts characters before
// escaping (64 KiB of final text a run, 128 MiB over the report), but JSON escapes
// each control character as six (\u0001), and 2-space JSON adds its indent on top.
// An agent that answers with 64 KiB of U+0001 in each of 1,400 runs (a suite of
// 140 cases at --repeat 10) stays far under the 128 MiB budget, so nothing is
// halved, and the report's JSON passes V8's string limit: formatJsonReport throws
// "Invalid string length", and since files are written all or none, no report at
// all is written. The runs are the same real run, repeated in the report as
// --repeat would (the eval itself would take minutes). Stated by hand: a report
// whose texts are within REPORT_TEXT_BUDGET serialises.
import test from 'ava';
import { boundReportTexts, REPORT_TEXT_BUDGET } from '../../src/host/eval/report/text-bounds.js';
import { formatJsonReport } from '../../src/host/eval/report/json-report.js';
import { evalIn, evalWorld, writeSuite, writeTranscript } from '../fixtures/eval-world.js';

const RUNS = 1400;

test('a report of runs whose final texts are control characters serialises', async (t) => {
  const world = evalWorld(t);
  const answer = '\u0001'.repeat(64 * 1024);
  const replay = writeTranscript(world, 'controls', [{ text: answer }]);
  const suite = writeSuite(world, 'controls', { cases: [{ id: 'answers', prompt: 'go', replay }] });
  const real = await evalIn(world, [suite]);
  const first = real.cases[0];
  const run = first?.runs[0];
  if (first === undefined || run === undefined) return t.fail('the eval gave no run');
  t.is(run.final_text, answer);
  const runs = Array.from({ length: RUNS }, (_, i) => ({ ...run, repeat: i + 1 }));
  const report = boundReportTexts({ ...real, options: { ...real.options, repeat: RUNS }, totals: { ...real.totals, runs: RUNS }, cases: [{ ...first, runs }] });
  // Within the budget: the bound leaves every text whole.
  t.true(RUNS * answer.length < REPORT_TEXT_BUDGET);
  t.notThrows(() => formatJsonReport(report));
});
