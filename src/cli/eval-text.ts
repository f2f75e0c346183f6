// The text forms of an eval for a person: one line per finished case, the live
// progress line, and the final table with the failures' reasons and the totals.
// Fields from suites, agents and models pass `field` (no control characters), and
// the caller writes everything through the terminal-text sanitizer.
import { formatCasesCost, type CaseResult, type EvalReport } from '../api/eval.js';
import { formatCostSum } from '../api/cost.js';
import { field } from './terminal-output.js';

const count = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function caseTokens(result: CaseResult): number {
  return result.runs.reduce((sum, run) => sum + run.usage.input_tokens + run.usage.output_tokens + run.usage.cache_creation_input_tokens + run.usage.cache_read_input_tokens, 0);
}

function mark(result: CaseResult): string {
  return result.status === 'passed' ? '✔' : result.status === 'failed' ? '✘' : result.status === 'error' ? '!' : '–';
}

/**
 * The first reason a case did not pass. An infrastructure error comes first (the model server or
 * the sandbox failed, so the expectations that failed after it say nothing about the agent); else
 * its first failed expectation, or how its run ended.
 */
export function failureReason(result: CaseResult): string {
  if (result.status === 'not_run') return result.not_run_reason ?? 'not run';
  const fault = result.status === 'error' ? result.runs.find((run) => !run.passed && run.infrastructure !== undefined)?.infrastructure : undefined;
  if (fault !== undefined) return `infrastructure error at ${fault.endpoint}: ${fault.code}: ${fault.message}`;
  for (const run of result.runs) {
    if (run.passed) continue;
    const expectation = run.expectations.find((e) => !e.passed);
    if (expectation !== undefined) return `${expectation.kind}: ${expectation.reason}`;
    if (run.error !== null) return `${run.error.code}: ${run.error.message}`;
  }
  return `pass rate ${rate(result)} is under the threshold ${result.threshold}`;
}

function rate(result: CaseResult): string {
  const passed = result.runs.filter((run) => run.passed).length;
  return `${passed}/${result.runs.length}`;
}

/** One finished case, one line: `✔ suite/id  1/1  3 turns  1,234 tokens  0.8 s`. */
export function caseLine(result: CaseResult): string {
  const turns = result.runs.reduce((sum, run) => sum + run.turns, 0);
  const time = result.runs.reduce((sum, run) => sum + run.duration_ms, 0);
  const head = `${mark(result)} ${field(`${result.suite}/${result.id}`)}`;
  if (result.status === 'not_run') return `${head}  not run: ${field(result.not_run_reason ?? '')}\n`;
  const facts = `${rate(result)}  ${turns} turns  ${count(caseTokens(result))} tokens  ${seconds(time)}`;
  return result.status === 'passed' ? `${head}  ${facts}\n` : `${head}  ${facts}  ${field(clip(failureReason(result), 160))}\n`;
}

export interface ProgressCounts {
  readonly done: number;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly elapsedMs: number;
  /** The cost parts of the runs ended so far (runCostParts): known in USD, or null. */
  readonly costs: readonly (number | null)[];
}

/** The live line: `12/40 cases · 10 passed · 2 failed · 14.2 s · $0.0123` (and `· 1 error` when there are some). */
export function progressLine(counts: ProgressCounts): string {
  const errors = counts.errors === 0 ? '' : ` · ${counts.errors} ${counts.errors === 1 ? 'error' : 'errors'}`;
  return `${counts.done}/${counts.total} cases · ${counts.passed} passed · ${counts.failed} failed${errors} · ${seconds(counts.elapsedMs)} · ${formatCostSum(counts.costs)}`;
}

/** The final table, the failures with their reasons, and the totals line. */
export function finalTable(report: EvalReport): string {
  const rows = report.cases.map((result) => [
    `${mark(result)} ${field(`${result.suite}/${result.id}`)}`,
    result.status === 'not_run' ? 'not run' : result.status,
    result.status === 'not_run' ? '' : rate(result),
    count(result.runs.reduce((sum, run) => sum + run.turns, 0)),
    count(caseTokens(result)),
    result.status === 'not_run' ? '' : formatCasesCost([result]),
  ]);
  const header = ['case', 'result', 'passed', 'turns', 'tokens', 'cost'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => columns(row[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell + ' '.repeat((widths[i] ?? 0) - columns(cell)))
      .join('  ')
      .trimEnd();
  const failures = report.cases
    .filter((result) => result.status !== 'passed')
    .map((result) => `  ${mark(result)} ${field(`${result.suite}/${result.id}`)}: ${field(clip(failureReason(result), 400))}`);
  return [line(header), ...rows.map(line), '', ...(failures.length === 0 ? [] : ['Not passed:', ...failures, '']), totalsLine(report), ''].join('\n');
}

export function totalsLine(report: EvalReport): string {
  const t = report.totals;
  const tokens = t.usage.input_tokens + t.usage.output_tokens + t.usage.cache_creation_input_tokens + t.usage.cache_read_input_tokens;
  const status = report.status.toUpperCase();
  const totals = `${status}: ${t.passed} passed, ${t.failed} failed, ${t.errors} errors (infrastructure), ${t.not_run} not run · ${t.runs} run${t.runs === 1 ? '' : 's'} · ${count(tokens)} tokens · ${formatCasesCost(report.cases)} · ${seconds(report.duration_ms)}`;
  // What this eval was allowed beyond each case's own folders is said where every reader looks.
  const allowed = report.options.allow_scope;
  return allowed.length === 0 ? totals : `Allowed beyond each case's workspace (--allow-scope): ${allowed.map(field).join(', ')}\n${totals}`;
}

/** Columns a cell takes: one per code point (the ✔ and ✘ marks are one each). */
function columns(text: string): number {
  return Array.from(text).length;
}

function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
