// The eval report's large texts, cut to documented sizes (docs/eval.md, "Report
// bounds") before any reporter sees the report: an agent's answer, a run's
// transcript tail, an expectation's reason and an error's message are chosen by
// the agent under test or by what it left behind, so they must never make a
// reporter crash (V8 strings end at about 512 MiB) or one reporter disagree with
// another. Each text keeps its head and says how much was cut.
import type { CaseResult, CaseRun, EvalReport, ExpectationResult } from '../eval-report.js';

/** Characters (UTF-16 code units) kept of each text, at most. */
export const REPORT_TEXT_LIMITS = Object.freeze({
  finalText: 64 * 1024,
  transcriptTail: 64 * 1024,
  reason: 16 * 1024,
  errorMessage: 16 * 1024,
  /** One changed file's diff (run-files.ts bounds it at 16 KiB already; here the budget can halve it). */
  diff: 16 * 1024,
});

/**
 * All the report's texts together, as JSON writes them (a control character is six, `\u0001`): past this
 * the per-text limits are halved until they fit (never below MIN_TEXT_CHARS).
 */
export const REPORT_TEXT_BUDGET = 128 * 1024 * 1024;
const MIN_TEXT_CHARS = 256;

type Limits = { -readonly [K in keyof typeof REPORT_TEXT_LIMITS]: number };

/** `text` cut to `max` characters with a marker saying how many more there were; a surrogate pair is never split. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // the high half of a pair whose low half would be cut
  return `${text.slice(0, end)}\n…[zotbox: cut, ${text.length - end} more characters]`;
}

function boundRun(run: CaseRun, limits: Limits): CaseRun {
  return {
    ...run,
    error: run.error === null ? null : { code: run.error.code, message: cutText(run.error.message, limits.errorMessage) },
    final_text: cutText(run.final_text, limits.finalText),
    transcript_tail: cutText(run.transcript_tail, limits.transcriptTail),
    expectations: run.expectations.map((expectation): ExpectationResult => ({ ...expectation, reason: cutText(expectation.reason, limits.reason) })),
    ...(run.calls === undefined
      ? {}
      : {
          calls: run.calls.map((call) => ({
            ...call,
            input: cutText(call.input, limits.reason),
            ...(call.reason === undefined ? {} : { reason: cutText(call.reason, limits.reason) }),
            ...(call.summary === undefined ? {} : { summary: cutText(call.summary, limits.reason) }),
          })),
        }),
    ...(run.files === undefined ? {} : { files: run.files.map((file) => (file.diff === undefined ? file : { ...file, diff: cutText(file.diff, limits.diff) })) }),
  };
}

/** Characters JSON writes for the first `max` characters of `text` (escapes counted, quotes not). */
function jsonSize(text: string, max: number): number {
  return JSON.stringify(text.length <= max ? text : text.slice(0, max)).length - 2;
}

/** Characters the texts would take in the JSON report under `limits`, markers aside. */
function boundedSize(cases: readonly CaseResult[], limits: Limits): number {
  let total = 0;
  for (const result of cases) {
    total += jsonSize(result.prompt ?? '', limits.finalText);
    for (const run of result.runs) {
      total += jsonSize(run.final_text, limits.finalText) + jsonSize(run.transcript_tail, limits.transcriptTail);
      if (run.error !== null) total += jsonSize(run.error.message, limits.errorMessage);
      for (const expectation of run.expectations) total += jsonSize(expectation.reason, limits.reason);
      for (const file of run.files ?? []) total += jsonSize(file.diff ?? '', limits.diff) + jsonSize(file.path, limits.reason);
      for (const call of run.calls ?? []) total += jsonSize(call.input, limits.reason) + jsonSize(call.reason ?? '', limits.reason) + jsonSize(call.summary ?? '', limits.reason);
    }
  }
  return total;
}

/** The report with every large text within its limit, and all of them together within REPORT_TEXT_BUDGET. */
export function boundReportTexts(report: EvalReport): EvalReport {
  const limits: Limits = { ...REPORT_TEXT_LIMITS };
  while (boundedSize(report.cases, limits) > REPORT_TEXT_BUDGET && limits.finalText > MIN_TEXT_CHARS) {
    for (const key of Object.keys(limits) as (keyof Limits)[]) limits[key] = Math.max(MIN_TEXT_CHARS, Math.floor(limits[key] / 2));
  }
  return {
    ...report,
    cases: report.cases.map((result) => ({
      ...result,
      ...(result.prompt === undefined ? {} : { prompt: cutText(result.prompt, limits.finalText) }),
      runs: result.runs.map((run) => boundRun(run, limits)),
    })),
  };
}
