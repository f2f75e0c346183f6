// The JSON report: written atomically, read back through the schema, refused
// with ZB_EVAL_REPORT_INVALID naming the file and field.
import test from 'ava';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatJsonReport, readEvalReport, writeJsonReport } from '../../../../src/host/eval/report/json-report.js';
import { ZOTBOX_VERSION } from '../../../../src/version.js';
import { sampleReport } from '../../../fixtures/eval-reports.js';
import { tempDir } from '../../../fixtures/temp.js';

test('formatJsonReport is 2-space JSON with a trailing newline, keys in schema order', (t) => {
  const { zotbox_version, zotbox_eval_report, ...rest } = sampleReport();
  const text = formatJsonReport({ ...rest, zotbox_version, zotbox_eval_report });
  t.true(text.startsWith('{\n  "zotbox_eval_report": 1,\n  "zotbox_version": "0.1.0",\n  "status": "failed",\n'));
  t.true(text.endsWith('}\n'));
  t.false(text.endsWith('}\n\n'));
  t.deepEqual(JSON.parse(text), sampleReport());
});

test('formatJsonReport refuses a report it could not read back (a NaN cost)', (t) => {
  const report = sampleReport();
  report.totals.cost_usd = Number.NaN;
  const error = t.throws(() => formatJsonReport(report), { code: 'ZB_EVAL_REPORT_INVALID' } as never);
  t.like((error as unknown as { details: unknown }).details, { field: 'totals.cost_usd' });
});

test('writeJsonReport creates parents, leaves no temp file, and reads back equal', (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'out', 'nested', 'report.json');
  writeJsonReport(sampleReport(), file);
  t.deepEqual(readdirSync(path.dirname(file)), ['report.json']);
  t.is(readFileSync(file, 'utf8'), formatJsonReport(sampleReport()));
  t.deepEqual(readEvalReport(file), sampleReport());
});

test('writeJsonReport replaces an existing report whole', (t) => {
  const file = path.join(tempDir(t), 'report.json');
  writeFileSync(file, 'x'.repeat(100_000));
  writeJsonReport(sampleReport(), file);
  t.deepEqual(readEvalReport(file), sampleReport());
});

test('writeJsonReport to a path that is a directory fails with ZB_IO_FAILED and leaves no temp file', (t) => {
  const dir = tempDir(t);
  mkdirSync(path.join(dir, 'report.json'));
  t.throws(() => writeJsonReport(sampleReport(), path.join(dir, 'report.json')), { code: 'ZB_IO_FAILED' } as never);
  t.deepEqual(readdirSync(dir), ['report.json']);
});

const refused = test.macro((t, content: string | undefined, field: string, words: RegExp) => {
  const file = path.join(tempDir(t), 'report.json');
  if (content !== undefined) writeFileSync(file, content);
  const error = t.throws(() => readEvalReport(file), { code: 'ZB_EVAL_REPORT_INVALID' } as never);
  t.like((error as unknown as { details: unknown }).details, { path: file });
  if (field !== '') t.like((error as unknown as { details: unknown }).details, { field });
  t.true(error.message.includes(file), 'the message names the file');
  t.regex(error.message, words);
  t.regex(error.message, /Fix: /);
});

test('a missing report is refused', refused, undefined, '', /no such file|does not exist/);
test('a report that is not JSON is refused', refused, '{"zotbox_eval_report": 1,', '$', /not JSON/);
test('JSON that is not a report is refused', refused, '[1, 2]', 'zotbox_eval_report', /not a zotbox eval JSON report/);
test(
  'a report of another version says which version this zotbox reads',
  refused,
  '{"zotbox_eval_report": 2}',
  'zotbox_eval_report',
  new RegExp(`version 2 .*\\(${ZOTBOX_VERSION.replaceAll('.', '\\.')}\\) reads version 1`),
);

test('a report with a wrong field names the field', (t) => {
  const report = sampleReport() as unknown as { cases: { runs: { status: string }[] }[] };
  report.cases[1]!.runs[1]!.status = 'exploded';
  const file = path.join(tempDir(t), 'report.json');
  writeFileSync(file, JSON.stringify(report));
  const error = t.throws(() => readEvalReport(file), { code: 'ZB_EVAL_REPORT_INVALID' } as never);
  t.like((error as unknown as { details: unknown }).details, { field: 'cases[1].runs[1].status' });
  t.true(error.message.includes('cases[1].runs[1].status'));
});

test('a report with an unknown field is refused', (t) => {
  const file = path.join(tempDir(t), 'report.json');
  writeFileSync(file, JSON.stringify({ ...sampleReport(), extra: true }));
  t.throws(() => readEvalReport(file), { code: 'ZB_EVAL_REPORT_INVALID' } as never);
});
