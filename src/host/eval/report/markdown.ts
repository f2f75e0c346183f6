// The Markdown summary (a CI step summary, a PR comment): status, totals, a table
// per suite, then why each failed case failed. Renders from the JSON report only;
// every string from it goes through escapeMarkdownInline.
import type { CaseResult, EvalReport, EvalUsage } from '../eval-report.js';
import { escapeMarkdownInline as md } from './markdown-text.js';
import { computeTotals, formatCasesCost } from './totals.js';

const STATUS_MARK = { passed: '✅', failed: '❌', error: '⛔', interrupted: '⚠️', not_run: '⏭️' } as const;

export function formatMarkdownSummary(report: EvalReport): string {
  const allowed = report.options.allow_scope;
  const lines = [
    `## ${STATUS_MARK[report.status]} zotbox eval ${report.status}`,
    '',
    totalsLine(report),
    '',
    ...(allowed.length === 0 ? [] : [`**Allowed beyond each case's workspace (--allow-scope):** ${allowed.map(md).join(', ')}`, '']),
  ];
  for (const suite of report.suites) {
    const cases = report.cases.filter((result) => result.suite === suite.name);
    lines.push(`### ${md(suite.name)}`, '', `${md(suite.file)} · ${md(`${suite.agent.name}@${suite.agent.version}`)} · model ${md(suite.model)}`, '');
    if (cases.length === 0) lines.push('No cases of this suite in this report.');
    else lines.push('| Case | Result | Pass rate | Turns | Tokens | Cost |', '| --- | --- | --- | --- | --- | --- |', ...cases.map(caseRow));
    lines.push('');
  }
  lines.push(...errorSection(report), ...failureSection(report), ...notRunSection(report));
  return `${lines.join('\n').trimEnd()}\n`;
}

function totalsLine(report: EvalReport): string {
  const { totals } = report;
  const tokensIn = totals.usage.input_tokens + totals.usage.cache_creation_input_tokens + totals.usage.cache_read_input_tokens;
  const shard = report.shard === null ? '' : ` (shard ${report.shard.index}/${report.shard.total})`;
  return (
    `**${totals.cases} cases${shard}:** ${totals.passed} passed, ${totals.failed} failed, ${totals.errors} errors, ${totals.not_run} not run · ${totals.runs} runs · ` +
    `${count(tokensIn)} tokens in, ${count(totals.usage.output_tokens)} out · ${md(formatCasesCost(report.cases))} · ${duration(report.duration_ms)}`
  );
}

function caseRow(result: CaseResult): string {
  const verdict = result.status === 'not_run' ? `${STATUS_MARK.not_run} not run` : `${STATUS_MARK[result.status]} ${result.status}`;
  if (result.runs.length === 0) return `| ${md(result.id)} | ${verdict} | — | — | — | — |`;
  const passed = result.runs.filter((run) => run.passed).length;
  const rate = `${passed}/${result.runs.length} (threshold ${Math.round(result.threshold * 100)}%)`;
  const turns = result.runs.reduce((sum, run) => sum + run.turns, 0);
  const totals = computeTotals([result]);
  return `| ${md(result.id)} | ${verdict} | ${rate} | ${turns} | ${count(allTokens(totals.usage))} | ${md(formatCasesCost([result]))} |`;
}

function failureSection(report: EvalReport): string[] {
  const failed = report.cases.filter((result) => result.status === 'failed');
  if (failed.length === 0) return [];
  const lines = ['### Failures', ''];
  for (const result of failed) {
    const passed = result.runs.filter((run) => run.passed).length;
    lines.push(`- **${md(result.suite)} / ${md(result.id)}**: ${passed} of ${result.runs.length} runs passed, threshold ${Math.round(result.threshold * 100)}%`);
    for (const run of result.runs) {
      if (run.passed) continue;
      const prefix = report.options.repeat > 1 ? `repeat ${run.repeat}: ` : '';
      const failing = run.expectations.filter((expectation) => !expectation.passed);
      if (run.error !== null) lines.push(`  - ${prefix}${run.status === 'error' ? 'could not start' : `ended ${run.status}`}: ${md(`${run.error.code}: ${run.error.message}`)}`);
      else if (failing.length === 0) lines.push(`  - ${prefix}ended ${run.status}`);
      for (const expectation of failing) lines.push(`  - ${prefix}${md(expectation.kind)}: ${md(expectation.reason)}`);
    }
  }
  lines.push('');
  return lines;
}

/** Cases that did not pass because of infrastructure: the cause first, so a broken server does not read as a broken agent. */
function errorSection(report: EvalReport): string[] {
  const errored = report.cases.filter((result) => result.status === 'error');
  if (errored.length === 0) return [];
  const lines = ['### Errors (infrastructure, not the agent)', ''];
  for (const result of errored) {
    const cause = result.runs.find((run) => !run.passed && run.infrastructure !== undefined)?.infrastructure;
    lines.push(`- **${md(result.suite)} / ${md(result.id)}**: ${cause === undefined ? 'infrastructure error' : md(`${cause.code} at ${cause.endpoint}: ${cause.message}`)}`);
  }
  lines.push('');
  return lines;
}

function notRunSection(report: EvalReport): string[] {
  const notRun = report.cases.filter((result) => result.status === 'not_run');
  if (notRun.length === 0) return [];
  return ['### Not run', '', ...notRun.map((result) => `- **${md(result.suite)} / ${md(result.id)}**: ${md(result.not_run_reason ?? 'not run')}`), ''];
}

const allTokens = (usage: EvalUsage) => usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
const count = (value: number) => value.toLocaleString('en-US');

function duration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m ${(seconds % 60).toFixed(1)}s`;
}
