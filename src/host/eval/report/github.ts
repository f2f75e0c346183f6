// GitHub Actions output: workflow-command annotations for failed and not-run
// cases, and the Markdown summary appended to the job's step summary. Every string
// from the report is escaped by GitHub's workflow-command rules, so no text in it
// can end a command or start another. Reads only the env object it is given.
import { appendFileSync } from 'node:fs';
import { fileSystemError } from '../../../errors.js';
import type { CaseResult, EvalReport } from '../eval-report.js';
import { formatMarkdownSummary } from './markdown.js';

/** GitHub shows at most 10 error and 10 warning annotations per step; past that, one says how many more. */
const MAX_ANNOTATIONS_PER_KIND = 10;

/** A command's message: %, CR and LF, so it stays on its line. */
export function escapeCommandData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A command's property value: also `:` and `,`, which end a property. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function command(kind: 'error' | 'warning', file: string | undefined, line: number | undefined, title: string, message: string): string {
  const fileProperty = file === undefined ? '' : `file=${escapeCommandProperty(file)},${line === undefined ? '' : `line=${line},`}`;
  return `::${kind} ${fileProperty}title=${escapeCommandProperty(title)}::${escapeCommandData(message)}`;
}

function failureMessage(result: CaseResult): string {
  const passed = result.runs.filter((run) => run.passed).length;
  const lines = [`${passed} of ${result.runs.length} runs passed (threshold ${Math.round(result.threshold * 100)}%).`];
  for (const run of result.runs) {
    if (run.passed) continue;
    const failing = run.expectations.filter((expectation) => !expectation.passed);
    if (run.infrastructure !== undefined) lines.push(`repeat ${run.repeat}: infrastructure error at ${run.infrastructure.endpoint}: ${run.infrastructure.code}: ${run.infrastructure.message}`);
    else if (run.error !== null) lines.push(`repeat ${run.repeat}: ${run.status === 'error' ? 'could not start' : `ended ${run.status}`}: ${run.error.code}: ${run.error.message}`);
    else if (failing.length === 0) lines.push(`repeat ${run.repeat}: ended ${run.status}`);
    for (const expectation of failing) lines.push(`repeat ${run.repeat}: ${expectation.kind}: ${expectation.reason}`);
  }
  return lines.join('\n');
}

/**
 * One `::error` per failed case and per case that is an infrastructure error, and one
 * `::warning` per case that did not run, each on one line and, when the report knows
 * it, at the case's line in its suite file.
 */
export function githubAnnotations(report: EvalReport): string[] {
  const fileOf = new Map(report.suites.map((suite) => [suite.name, suite.file]));
  const annotate = (kind: 'error' | 'warning', cases: CaseResult[], message: (result: CaseResult) => string, what: string) => {
    const shown = cases.length > MAX_ANNOTATIONS_PER_KIND ? cases.slice(0, MAX_ANNOTATIONS_PER_KIND - 1) : cases;
    const lines = shown.map((result) => command(kind, fileOf.get(result.suite), result.line, `${result.suite} / ${result.id} ${verdictOf(result)}`, message(result)));
    if (shown.length < cases.length) lines.push(command(kind, undefined, undefined, `${cases.length - shown.length} more cases ${what}`, 'See the step summary or the JSON report for all of them.'));
    return lines;
  };
  const notPassed = report.cases.filter((result) => result.status === 'failed' || result.status === 'error');
  return [
    ...annotate('error', notPassed, failureMessage, notPassed.some((result) => result.status === 'error') ? 'failed or errored' : 'failed'),
    ...annotate(
      'warning',
      report.cases.filter((result) => result.status === 'not_run'),
      (result) => result.not_run_reason ?? 'not run',
      'not run',
    ),
  ];
}

function verdictOf(result: CaseResult): string {
  if (result.status === 'error') return 'errored (infrastructure)';
  return result.status === 'not_run' ? 'not run' : result.status;
}

/**
 * Appends the Markdown summary to the file GITHUB_STEP_SUMMARY names, when
 * GITHUB_ACTIONS is "true"; otherwise does nothing. Never truncates the file
 * (other steps' summaries share it). Returns whether it wrote.
 */
export function appendStepSummary(report: EvalReport, env: Readonly<Record<string, string | undefined>>): boolean {
  const file = env.GITHUB_STEP_SUMMARY;
  if (env.GITHUB_ACTIONS !== 'true' || file === undefined || file === '') return false;
  try {
    // The leading newline keeps the heading on a line of its own after whatever an earlier step wrote.
    appendFileSync(file, `\n${formatMarkdownSummary(report)}`);
  } catch (cause) {
    throw fileSystemError('append the eval summary to the GitHub step summary', file, cause);
  }
  return true;
}
