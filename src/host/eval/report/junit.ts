// The JUnit XML reporter, for CI test views (GitHub test reporters, GitLab,
// Jenkins): one <testsuite> per eval suite, one <testcase> per case and repeat.
// Renders from the JSON report only; every string from it is escaped (xml-text.ts).
import type { CaseResult, CaseRun, EvalReport, SuiteSummary } from '../eval-report.js';
import { escapeXmlAttribute as attr, escapeXmlText as text } from './xml-text.js';

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  ms: number;
}

const MAX_MESSAGE_CHARS = 1000;

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function countsAttributes(counts: Counts): string {
  return `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${seconds(counts.ms)}"`;
}

/**
 * The report as JUnit XML. A failed run is a <failure> (its failing expectations'
 * reasons), a run that could not start or that did not pass on an infrastructure
 * error (the model server, the sandbox) an <error>, a case that never ran one
 * <skipped>. A failed run of a case that passed its threshold is not a failure:
 * the case passed, so the testcase passes and its <system-out> says the run failed.
 */
export function formatJunit(report: EvalReport): string {
  const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: report.duration_ms };
  const suites = report.suites.map((suite) => {
    const counts: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
    const testcases = report.cases.filter((result) => result.suite === suite.name).flatMap((result) => caseTestcases(result, report.options.repeat, counts));
    total.tests += counts.tests;
    total.failures += counts.failures;
    total.errors += counts.errors;
    total.skipped += counts.skipped;
    return [
      `  <testsuite name="${attr(suite.name)}" ${countsAttributes(counts)} timestamp="${attr(report.started_at)}">`,
      properties(suite, report.options.allow_scope),
      ...testcases,
      '  </testsuite>',
    ].join('\n');
  });
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="zotbox eval" ${countsAttributes(total)}>`, ...suites, '</testsuites>', ''].join('\n');
}

/** The suite's identity, and each folder --allow-scope allowed beyond each case's workspace (one `allow_scope` property a folder), so a CI view names it. */
function properties(suite: SuiteSummary, allowScope: readonly string[]): string {
  const entries: [string, string][] = [
    ['file', suite.file],
    ['agent', `${suite.agent.name}@${suite.agent.version}`],
    ['agent.content_digest', suite.agent.content_digest],
    ['model', suite.model],
    ...allowScope.map((folder): [string, string] => ['allow_scope', folder]),
  ];
  return ['    <properties>', ...entries.map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`), '    </properties>'].join('\n');
}

function caseTestcases(result: CaseResult, repeat: number, counts: Counts): string[] {
  if (result.status === 'not_run' || result.runs.length === 0) {
    counts.tests += 1;
    const [element, message] = result.status === 'not_run' ? ['skipped', result.not_run_reason ?? 'not run'] : ['error', 'the case failed without making a run'];
    if (element === 'skipped') counts.skipped += 1;
    else counts.errors += 1;
    return [`    <testcase name="${attr(result.id)}" classname="${attr(result.suite)}" time="0.000"><${element} message="${attr(message)}"/></testcase>`];
  }
  return result.runs.map((run) => runTestcase(result, run, repeat > 1 ? `${result.id} [repeat ${run.repeat}/${repeat}]` : result.id, counts));
}

function runTestcase(result: CaseResult, run: CaseRun, name: string, counts: Counts): string {
  counts.tests += 1;
  counts.ms += run.duration_ms;
  const lines = [`    <testcase name="${attr(name)}" classname="${attr(result.suite)}" time="${seconds(run.duration_ms)}">`];
  let note = '';
  if (!run.passed && result.status === 'passed') {
    note = `[zotbox] this run failed (${failureText(run).replaceAll('\n', '; ')}), but the case passed: pass rate ${result.pass_rate ?? 0} >= threshold ${result.threshold}.\n`;
  } else if (!run.passed && run.infrastructure !== undefined) {
    // The model server or the sandbox failed, not the agent: an <error>, as CI views show a broken test rig.
    counts.errors += 1;
    const { code, endpoint, message } = run.infrastructure;
    const cause = `infrastructure error at ${endpoint}: ${code}: ${message}`;
    lines.push(`      <error message="${attr(clip(cause))}" type="${attr(code)}">${text(`${cause}\n${failureText(run)}`)}</error>`);
  } else if (!run.passed && run.status === 'error') {
    counts.errors += 1;
    const message = run.error === null ? 'the run could not start' : `${run.error.code}: ${run.error.message}`;
    lines.push(`      <error message="${attr(clip(message))}" type="${attr(run.error?.code ?? 'error')}">${text(message)}</error>`);
  } else if (!run.passed) {
    counts.failures += 1;
    const failing = run.expectations.filter((expectation) => !expectation.passed);
    const type = failing.length > 0 ? [...new Set(failing.map((expectation) => expectation.kind))].join(',') : run.status;
    const body = failureText(run);
    lines.push(`      <failure message="${attr(clip(body.replaceAll('\n', '; ')))}" type="${attr(type)}">${text(body)}</failure>`);
  }
  if (note !== '' || run.transcript_tail !== '') lines.push(`      <system-out>${text(note + run.transcript_tail)}</system-out>`);
  lines.push('    </testcase>');
  return lines.join('\n');
}

/** The failing expectations, one `kind: reason` a line; the run's status and error when none failed. */
function failureText(run: CaseRun): string {
  const failing = run.expectations.filter((expectation) => !expectation.passed).map((expectation) => `${expectation.kind}: ${expectation.reason}`);
  if (failing.length > 0) return failing.join('\n');
  return run.error === null ? `the run ended ${run.status}` : `the run ended ${run.status}: ${run.error.code}: ${run.error.message}`;
}

function clip(message: string): string {
  return message.length <= MAX_MESSAGE_CHARS ? message : `${message.slice(0, MAX_MESSAGE_CHARS)}…`;
}
