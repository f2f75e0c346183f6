// The report's large texts are cut to documented sizes before any reporter sees
// them (issue 22 §6): ten 60 MiB answers made JSON.stringify throw "Invalid string
// length" after JUnit and Markdown had been written saying "passed".
import test from 'ava';
import { formatJsonReport } from '../../../../src/host/eval/report/json-report.js';
import { formatJunit } from '../../../../src/host/eval/report/junit.js';
import { formatMarkdownSummary } from '../../../../src/host/eval/report/markdown.js';
import { boundReportTexts, cutText } from '../../../../src/host/eval/report/text-bounds.js';
import { sampleReport, sampleRun } from '../../../fixtures/eval-reports.js';

test('a text within its limit is kept as it is; a longer one keeps its head and says how much was cut', (t) => {
  t.is(cutText('abcdef', 6), 'abcdef');
  t.is(cutText('abcdef', 4), 'abcd\n…[zotbox: cut, 2 more characters]');
});

test('a cut never splits a surrogate pair', (t) => {
  // "ab" then U+1F600 (two code units) then "cd": a cut after 3 units would keep half the emoji.
  t.is(cutText('ab\u{1F600}cd', 3), 'ab\n…[zotbox: cut, 4 more characters]');
});

test('ten answers of 60 MiB: the report serialises, every text cut to 64 KiB with its marker, and every reporter renders it', (t) => {
  const answer = 'a'.repeat(60 * 1024 * 1024); // one string, shared by the ten runs: 60 MiB of memory, not 600
  const report = sampleReport();
  const runs = Array.from({ length: 10 }, (_, index) =>
    sampleRun(index + 1, { final_text: answer, transcript_tail: answer, expectations: [{ kind: 'text_contains', passed: false, reason: answer }] }),
  );
  report.cases[0] = { ...report.cases[0]!, runs, status: 'failed', pass_rate: 0 };

  const bounded = boundReportTexts(report);
  const marker = `\n…[zotbox: cut, ${60 * 1024 * 1024 - 65_536} more characters]`;
  for (const run of bounded.cases[0]!.runs) {
    t.is(run.final_text, `${'a'.repeat(65_536)}${marker}`);
    t.is(run.transcript_tail, `${'a'.repeat(65_536)}${marker}`);
    t.is(run.expectations[0]!.reason, `${'a'.repeat(16_384)}\n…[zotbox: cut, ${60 * 1024 * 1024 - 16_384} more characters]`);
  }
  const json = formatJsonReport(bounded);
  t.true(json.length < 2 * 1024 * 1024);
  t.true(formatJunit(bounded).length > 0);
  t.true(formatMarkdownSummary(bounded).length > 0);
});

test('texts that together pass the report-wide budget are cut further, evenly, until they fit', (t) => {
  const answer = 'b'.repeat(65_536);
  const report = sampleReport();
  // 1,500 runs of a 64 KiB answer and tail: 187.5 MiB at the per-text limits, over the 128 MiB budget; halved, 93.75 MiB.
  const runs = Array.from({ length: 1500 }, (_, index) => sampleRun(index + 1, { final_text: answer, transcript_tail: answer }));
  report.cases[0] = { ...report.cases[0]!, runs };
  const bounded = boundReportTexts(report);
  const kept = bounded.cases[0]!.runs.map((run) => run.final_text.indexOf('\n…[zotbox: cut'));
  t.true(
    kept.every((length) => length === 32_768),
    'each answer halved once, to 32 KiB',
  );
  t.deepEqual(bounded.cases[1], report.cases[1], 'nothing else changed');
});
