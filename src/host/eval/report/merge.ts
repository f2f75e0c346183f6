// `zotbox eval merge`: shard reports of one eval into the report a single
// unsharded run would have written (timings aside). It refuses, with
// ZB_EVAL_MERGE_MISMATCH, anything that would make that untrue: reports that are
// not shards, of different evals, a shard missing or twice, a case twice.
import { ZotboxError } from '../../../errors.js';
import { EVAL_REPORT_VERSION, type CaseResult, type EvalReport } from '../eval-report.js';
import { caseInShard, caseKey } from './shard.js';
import { computeTotals, reportStatus } from './totals.js';
import { findContradiction } from './consistency.js';
import { boundReportTexts } from './text-bounds.js';

interface Labelled {
  readonly report: EvalReport;
  readonly shard: { readonly index: number; readonly total: number };
  /** How messages name it: `shard 2/3 (file)`. */
  readonly label: string;
}

/**
 * Merges the reports of every shard of one eval, in any order. `names` (the files
 * they came from) only make messages clearer. The merged report has shard null;
 * cases in `index` order; totals and status recomputed from the cases (interrupted
 * if any shard was); started_at the earliest, finished_at the latest, duration_ms
 * the span between them. Each suite's `consent` is taken from the lowest shard.
 */
export function mergeEvalReports(reports: readonly EvalReport[], names: readonly string[] = []): EvalReport {
  const shards = labelShards(reports, names);
  requireEveryShardOnce(shards);
  const base = shards[0]!;
  for (const other of shards.slice(1)) requireSameEval(base, other);
  const cases = collectCases(shards);
  // Each shard's cases, totals and status must follow from its runs: one that contradicts itself is never merged to a pass.
  for (const shard of shards) {
    const contradiction = findContradiction(shard.report);
    if (contradiction !== undefined) throw invalid(`${shard.label}: ${contradiction}. Fix: give unedited reports written by zotbox eval.`, {});
  }
  requireEveryCase(shards, cases);
  const span = timeSpan(shards);
  // Each shard's texts are within their limits; together they may pass the report-wide budget.
  return boundReportTexts({
    zotbox_eval_report: EVAL_REPORT_VERSION,
    zotbox_version: base.report.zotbox_version,
    status: reportStatus(
      cases,
      shards.some((shard) => shard.report.status === 'interrupted'),
    ),
    shard: null,
    options: base.report.options,
    started_at: span.started_at,
    finished_at: span.finished_at,
    duration_ms: span.duration_ms,
    suites: base.report.suites,
    totals: computeTotals(cases),
    cases,
  });
}

function mismatch(message: string, details: Record<string, unknown> = {}): ZotboxError {
  return new ZotboxError('ZB_EVAL_MERGE_MISMATCH', message, { details });
}

/** A report that contradicts itself (hand-edited, or not written by zotbox). */
function invalid(message: string, details: Record<string, unknown>): ZotboxError {
  return new ZotboxError('ZB_EVAL_REPORT_INVALID', message, { details });
}

/** Refuses an empty list and unsharded reports; sorts by shard index (a stable base for consent and messages). */
function labelShards(reports: readonly EvalReport[], names: readonly string[]): Labelled[] {
  if (reports.length === 0) throw mismatch('there are no reports to merge. Fix: give the JSON report of every shard.');
  const shards = reports.map((report, position): Labelled => {
    const name = names[position] ?? `report ${position + 1}`;
    if (report.shard === null) {
      throw mismatch(`${name} is not a shard report (its shard is null), so it has nothing to merge with. Fix: give only the reports of zotbox eval --shard I/N runs.`, { report: name });
    }
    return { report, shard: report.shard, label: `shard ${report.shard.index}/${report.shard.total} (${name})` };
  });
  return shards.sort((a, b) => a.shard.index - b.shard.index);
}

function requireEveryShardOnce(shards: readonly Labelled[]): void {
  const total = shards[0]!.shard.total;
  const odd = shards.find((shard) => shard.shard.total !== total);
  if (odd !== undefined) {
    throw mismatch(`${shards[0]!.label} is one of ${total} shards but ${odd.label} is one of ${odd.shard.total}. Fix: merge the reports of one sharded eval.`, { totals: [total, odd.shard.total] });
  }
  const seen = new Map<number, string>();
  for (const shard of shards) {
    const earlier = seen.get(shard.shard.index);
    if (earlier !== undefined)
      throw mismatch(`shard ${shard.shard.index}/${total} was given twice: ${earlier} and ${shard.label}. Fix: give each shard's report once.`, { duplicate: shard.shard.index });
    seen.set(shard.shard.index, shard.label);
  }
  const missing: number[] = [];
  for (let index = 1; index <= total && missing.length < 20; index += 1) if (!seen.has(index)) missing.push(index);
  if (missing.length > 0) {
    throw mismatch(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${total}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing. Fix: give the report of every shard 1/${total} to ${total}/${total}.`,
      { missing },
    );
  }
}

/** Same zotbox version, options and suites (consent aside): otherwise the shards ran different evals. */
function requireSameEval(base: Labelled, other: Labelled): void {
  const what = (field: string, a: unknown, b: unknown) =>
    mismatch(
      `${base.label} and ${other.label} differ in ${field}: ${JSON.stringify(a)} and ${JSON.stringify(b)}, so they are not shards of one eval. Fix: merge reports of runs with the same suites, agents and options.`,
      {
        field,
        values: [a, b],
      },
    );
  if (base.report.zotbox_version !== other.report.zotbox_version) throw what('zotbox_version', base.report.zotbox_version, other.report.zotbox_version);
  const options = firstDifference(base.report.options, other.report.options, 'options');
  if (options !== undefined) throw what(options.field, options.a, options.b);
  const withoutConsent = (report: EvalReport) => report.suites.map(({ consent: _consent, ...suite }) => suite);
  const suites = firstDifference(withoutConsent(base.report), withoutConsent(other.report), 'suites');
  if (suites !== undefined) throw what(suites.field, suites.a, suites.b);
}

/** The first place two JSON values differ, as a field path and the two values there. */
function firstDifference(a: unknown, b: unknown, field: string): { field: string; a: unknown; b: unknown } | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return { field: `${field}.length`, a: a.length, b: b.length };
    for (let index = 0; index < a.length; index += 1) {
      const found = firstDifference(a[index], b[index], `${field}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${field}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : { field, a, b };
}

/** Every case once, in its shard, of a known suite, no index twice; sorted by index. */
function collectCases(shards: readonly Labelled[]): CaseResult[] {
  const suites = new Map(shards[0]!.report.suites.map((suite) => [suite.name, { declared: suite.cases, found: 0 }]));
  const byKey = new Map<string, string>();
  const byIndex = new Map<number, string>();
  const cases: CaseResult[] = [];
  for (const shard of shards) {
    for (const result of shard.report.cases) {
      const key = caseKey(result.suite, result.id);
      const suite = suites.get(result.suite);
      if (suite === undefined) throw invalid(`${shard.label} has case ${key} of suite ${JSON.stringify(result.suite)}, which its suites do not list. Fix: give unedited reports.`, { case: key });
      const earlier = byKey.get(key) ?? byIndex.get(result.index);
      if (earlier !== undefined) {
        const where = earlier === shard.label ? `twice in ${earlier}` : `in both ${earlier} and ${shard.label}`;
        throw mismatch(`case ${key} (index ${result.index}) is ${where}. Fix: give each shard's report once, from one eval.`, { case: key, index: result.index });
      }
      if (!caseInShard(key, shard.shard)) {
        throw mismatch(`${shard.label} has case ${key}, which belongs to another shard; the shards were not cut by this zotbox's assignment. Fix: run every shard with the same zotbox version.`, {
          case: key,
        });
      }
      byKey.set(key, shard.label);
      byIndex.set(result.index, shard.label);
      suite.found += 1;
      if (suite.found > suite.declared)
        throw invalid(`suite ${JSON.stringify(result.suite)} lists ${suite.declared} cases but the shards hold more. Fix: give unedited reports.`, { suite: result.suite });
      cases.push(result);
    }
  }
  return cases.sort((a, b) => a.index - b.index);
}

/** Without --grep or --last-failed, every case of every suite ran in some shard: a shard that left one out is not the eval's. */
function requireEveryCase(shards: readonly Labelled[], cases: readonly CaseResult[]): void {
  const { grep, last_failed: lastFailed } = shards[0]!.report.options;
  if (grep !== null || lastFailed) return;
  for (const suite of shards[0]!.report.suites) {
    const found = cases.filter((result) => result.suite === suite.name).length;
    if (found < suite.cases) {
      throw invalid(
        `suite ${JSON.stringify(suite.name)} lists ${suite.cases} cases but the shards hold ${found}, and no --grep or --last-failed chose them. Fix: give unedited reports of every shard.`,
        {
          suite: suite.name,
        },
      );
    }
  }
}

function timeSpan(shards: readonly Labelled[]): { started_at: string; finished_at: string; duration_ms: number } {
  const moment = (shard: Labelled, field: 'started_at' | 'finished_at') => {
    const value = Date.parse(shard.report[field]);
    if (Number.isNaN(value)) throw invalid(`${shard.label} has ${field} ${JSON.stringify(shard.report[field])}, which is not a time. Fix: give unedited reports.`, { field });
    return { text: shard.report[field], value };
  };
  const starts = shards.map((shard) => moment(shard, 'started_at')).sort((a, b) => a.value - b.value);
  const finishes = shards.map((shard) => moment(shard, 'finished_at')).sort((a, b) => b.value - a.value);
  const first = starts[0]!;
  const last = finishes[0]!;
  return { started_at: first.text, finished_at: last.text, duration_ms: Math.max(0, last.value - first.value) };
}
