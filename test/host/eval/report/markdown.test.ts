// The Markdown summary: status, totals, a table per suite, failures with their
// reasons; text from the report cannot inject markup or break the table.
import test from 'ava';
import { formatMarkdownSummary } from '../../../../src/host/eval/report/markdown.js';
import { escapeMarkdownInline } from '../../../../src/host/eval/report/markdown-text.js';
import { sampleReport, sampleRun } from '../../../fixtures/eval-reports.js';

test('the heading says the status and the totals line counts cases, runs, tokens, cost and time', (t) => {
  const lines = formatMarkdownSummary(sampleReport()).split('\n');
  t.is(lines[0], '## ❌ zotbox eval failed');
  t.is(lines[2], '**7 cases:** 3 passed, 3 failed, 0 errors, 1 not run · 12 runs · 1,500 tokens in, 100 out · \\$2.38 + no price · 1m 0.0s');
});

test('a passed eval and a shard say so', (t) => {
  const report = sampleReport();
  report.status = 'passed';
  report.shard = { index: 2, total: 3 };
  const lines = formatMarkdownSummary(report).split('\n');
  t.is(lines[0], '## ✅ zotbox eval passed');
  t.true(lines[2]!.startsWith('**7 cases (shard 2/3):**'));
});

test('each suite has a table with one row per case: result, pass rate, turns, tokens, cost', (t) => {
  const text = formatMarkdownSummary(sampleReport());
  t.true(text.includes('### refactor\n'));
  t.true(text.includes('### docs-qa\n'));
  t.is(text.split('\n').filter((line) => line === '| Case | Result | Pass rate | Turns | Tokens | Cost |').length, 2);
  t.true(text.includes('\n| rename-symbol | ✅ passed | 2/2 (threshold 100%) | 6 | 320 | \\$0.5000 |\n'));
  t.true(text.includes('\n| flaky-ok | ✅ passed | 1/2 (threshold 50%) | 6 | 320 | \\$0.5000 |\n'));
  t.true(text.includes('\n| cites-source | ❌ failed | 0/2 (threshold 100%) | 6 | 320 | \\$0.3750 + no price |\n'));
  t.true(text.includes('\n| long-one | ⏭️ not run | — | — | — | — |\n'));
});

test('Failures lists each failed case with its failing reasons; Not run lists the reasons', (t) => {
  const text = formatMarkdownSummary(sampleReport());
  const failures = text.slice(text.indexOf('### Failures'), text.indexOf('### Not run'));
  t.deepEqual(
    failures.split('\n').filter((line) => line.startsWith('- ')),
    [
      '- **refactor / extract-fn**: 1 of 2 runs passed, threshold 100%',
      '- **refactor / no-start**: 0 of 2 runs passed, threshold 100%',
      '- **docs-qa / cites-source**: 0 of 2 runs passed, threshold 100%',
    ],
  );
  t.true(failures.includes('  - repeat 2: file\\_json: src/a.ts: expected a function named extract\n'));
  t.true(failures.includes('  - repeat 1: could not start: ZB\\_EVAL\\_FIXTURE\\_INVALID: fixture holds a socket\n'));
  t.false(failures.includes('flaky-ok'), 'a case that passed its threshold is no failure');
  t.true(text.includes('### Not run\n\n- **docs-qa / long-one**: --max-cost-usd 5 reached\n'));
});

test('a suite without cases in this report says so instead of an empty table', (t) => {
  const report = sampleReport();
  report.cases = report.cases.filter((result) => result.suite === 'refactor');
  t.true(formatMarkdownSummary(report).includes('### docs-qa\n\nevals/docs-qa.yaml · docs-qa-agent@\u200b1.0.0 · model replay\n\nNo cases of this suite in this report.\n'));
});

test('no Failures section when nothing failed', (t) => {
  const report = sampleReport();
  report.cases = report.cases.filter((result) => result.status === 'passed');
  const text = formatMarkdownSummary(report);
  t.false(text.includes('### Failures'));
  t.false(text.includes('### Not run'));
});

test('inline escaping is stated by hand', (t) => {
  t.is(escapeMarkdownInline('a|b'), 'a\\|b');
  t.is(escapeMarkdownInline('`code`'), '\\`code\\`');
  t.is(escapeMarkdownInline('one\ntwo\r\nthree'), 'one two three');
  t.is(escapeMarkdownInline('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert\\(1\\)&gt;');
  t.is(escapeMarkdownInline('[click](https://evil.example)'), '\\[click\\]\\(https:\u200b//evil.example\\)', 'a zero-width space keeps a URL from being linked');
  t.is(escapeMarkdownInline('**bold** _it_ # h ~~s~~ ![i](x) &amp;'), '\\*\\*bold\\*\\* \\_it\\_ \\# h \\~\\~s\\~\\~ \\!\\[i\\]\\(x\\) &amp;amp;');
  t.is(escapeMarkdownInline('bell\u0007'), 'bell\\\\u0007', 'renders as bell\\u0007 (the backslash itself escaped)');
  t.is(escapeMarkdownInline('C:\\dir'), 'C:\\\\dir');
  t.is(escapeMarkdownInline('x'.repeat(600)), `${'x'.repeat(500)}…`);
});

test('a hostile case id and reason cannot break the table or inject markup', (t) => {
  const report = sampleReport();
  const hostile = 'x | y |\n| --- |\n<script>alert(1)</script> `tick` [l](javascript:alert(1))';
  report.suites = [report.suites[0]!];
  report.cases = [{ ...report.cases[1]!, id: hostile, runs: [sampleRun(1, { passed: false, expectations: [{ kind: 'judge', passed: false, reason: hostile }] })] }];
  const text = formatMarkdownSummary(report);
  const rows = text.split('\n').filter((line) => line.startsWith('| '));
  t.is(rows.length, 3, 'header, separator and one row: the newline in the id made no row');
  for (const row of rows) t.is(row.split(/(?<!\\)\|/).length, 8, `${row} has six cells`);
  t.false(/<[a-z/]/i.test(text), 'no HTML tag survives');
  t.false(/(?<!\\)`/.test(text), 'no unescaped backtick');
  t.false(/(?<!\\)\[/.test(text), 'no unescaped link bracket');
});
