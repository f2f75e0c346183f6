// GitHub Actions output: annotations that cannot be forged by text in the report,
// and the step summary appended only inside Actions.
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appendStepSummary, escapeCommandData, escapeCommandProperty, githubAnnotations } from '../../../../src/host/eval/report/github.js';
import { formatMarkdownSummary } from '../../../../src/host/eval/report/markdown.js';
import { sampleReport, sampleRun } from '../../../fixtures/eval-reports.js';
import { tempDir } from '../../../fixtures/temp.js';

test('one ::error per failed case and one ::warning per case not run, with the suite file and reasons', (t) => {
  t.deepEqual(githubAnnotations(sampleReport()), [
    '::error file=evals/refactor.yaml,title=refactor / extract-fn failed::1 of 2 runs passed (threshold 100%25).%0Arepeat 2: file_json: src/a.ts: expected a function named extract',
    '::error file=evals/refactor.yaml,title=refactor / no-start failed::0 of 2 runs passed (threshold 100%25).%0Arepeat 1: could not start: ZB_EVAL_FIXTURE_INVALID: fixture holds a socket%0Arepeat 2: could not start: ZB_EVAL_FIXTURE_INVALID: fixture holds a socket',
    '::error file=evals/docs-qa.yaml,title=docs-qa / cites-source failed::0 of 2 runs passed (threshold 100%25).%0Arepeat 1: final_text: expected the answer to cite docs/faq.md%0Arepeat 2: judge: the judge found no citation',
    '::warning file=evals/docs-qa.yaml,title=docs-qa / long-one not run::--max-cost-usd 5 reached',
  ]);
});

test('issue 27 §3: an annotation names the case line in the suite file when the report knows it', (t) => {
  const report = sampleReport();
  report.cases = [{ ...report.cases[1]!, line: 42 }];
  t.true(githubAnnotations(report)[0]!.startsWith('::error file=evals/refactor.yaml,line=42,title=refactor / extract-fn failed::'));
});

test('a passed eval has no annotations', (t) => {
  const report = sampleReport();
  report.cases = report.cases.filter((result) => result.status === 'passed');
  t.deepEqual(githubAnnotations(report), []);
});

test('escaping follows the workflow-command rules', (t) => {
  t.is(escapeCommandData('100% done\r\nnext'), '100%25 done%0D%0Anext');
  t.is(escapeCommandProperty('a:b,c%\n'), 'a%3Ab%2Cc%25%0A');
});

test('a reason with newlines and :: cannot forge a second command', (t) => {
  const report = sampleReport();
  const forged = 'bad\n::error title=forged::pwned\r\n::add-mask::x\n%0A::warning::y';
  report.suites[0] = { ...report.suites[0]!, file: 'e,vil:file\n::error::z' };
  report.cases = [{ ...report.cases[1]!, id: 'id,with:colons', runs: [sampleRun(1, { passed: false, expectations: [{ kind: 'grader', passed: false, reason: forged }] })] }];
  const output = githubAnnotations(report).join('\n');
  const lines = output.split(/\r?\n|\r/);
  t.is(lines.length, 1, 'one annotation, one line');
  t.true(lines[0]!.startsWith('::error file=e%2Cvil%3Afile%0A%3A%3Aerror%3A%3Az,title=refactor / id%2Cwith%3Acolons failed::'));
  t.true(lines[0]!.endsWith('grader: bad%0A::error title=forged::pwned%0D%0A::add-mask::x%0A%250A::warning::y'), 'a literal %0A in the text stays literal (%250A)');
});

test('past 10 failed cases, 9 are annotated and a tenth says how many more', (t) => {
  const report = sampleReport();
  const failed = report.cases[1]!;
  report.cases = Array.from({ length: 12 }, (_, index) => ({ ...failed, id: `case-${index}`, index }));
  const annotations = githubAnnotations(report);
  t.is(annotations.length, 10);
  t.true(annotations[8]!.includes('title=refactor / case-8 failed::'));
  t.true(annotations[9]!.startsWith('::error title=3 more cases failed::'));
});

test('inside GitHub Actions the summary is appended to GITHUB_STEP_SUMMARY, never truncating it', (t) => {
  const file = path.join(tempDir(t), 'summary.md');
  writeFileSync(file, '# earlier step\n');
  t.true(appendStepSummary(sampleReport(), { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file }));
  t.true(appendStepSummary(sampleReport(), { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: file }));
  const summary = formatMarkdownSummary(sampleReport());
  t.is(readFileSync(file, 'utf8'), `# earlier step\n\n${summary}\n${summary}`);
});

test('outside GitHub Actions, or without GITHUB_STEP_SUMMARY, nothing is written', (t) => {
  const file = path.join(tempDir(t), 'summary.md');
  writeFileSync(file, 'untouched');
  t.false(appendStepSummary(sampleReport(), { GITHUB_STEP_SUMMARY: file }));
  t.false(appendStepSummary(sampleReport(), { GITHUB_ACTIONS: 'false', GITHUB_STEP_SUMMARY: file }));
  t.false(appendStepSummary(sampleReport(), { GITHUB_ACTIONS: 'true' }));
  t.false(appendStepSummary(sampleReport(), { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '' }));
  t.is(readFileSync(file, 'utf8'), 'untouched');
});

test('a step summary that cannot be written is ZB_IO_FAILED naming it', (t) => {
  const dir = tempDir(t);
  const error = t.throws(() => appendStepSummary(sampleReport(), { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: dir }), { code: 'ZB_IO_FAILED' } as never);
  t.true(error.message.includes(dir));
});
