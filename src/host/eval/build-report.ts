// The eval's JSON report, assembled once every case has a result: the options
// as given, the suites with what was consented to, the cases in index order, and
// the totals and status computed from them (report/totals.ts).
import { ZOTBOX_VERSION } from '../../version.js';
import { EVAL_REPORT_VERSION, type CaseResult, type EvalReport } from './eval-report.js';
import type { EvalPlan, PlannedSuite } from './eval-plan.js';
import { boundReportTexts } from './report/text-bounds.js';
import { computeTotals, reportStatus } from './report/totals.js';
import type { EvalOptions } from './run-eval.js';
import type { SuiteConsent } from './suite-consent.js';
import { suiteSummary } from './suite-summary.js';
import { DEFAULT_MAX_INFRA_ERRORS } from './eval-scheduler.js';

export interface ReportParts {
  readonly plan: EvalPlan;
  readonly cases: readonly CaseResult[];
  readonly consents: ReadonlyMap<PlannedSuite, SuiteConsent>;
  readonly options: EvalOptions;
  /** The --allow-scope folders, canonical: the report names what the eval was allowed beyond each case. */
  readonly allowedScopes: readonly string[];
  readonly startedAt: Date;
  readonly interrupted: boolean;
}

/** The report every reporter renders, its large texts cut to the documented sizes (report/text-bounds.ts). */
export function buildReport({ plan, cases, consents, options, allowedScopes, startedAt, interrupted }: ReportParts): EvalReport {
  const finishedAt = new Date();
  return boundReportTexts({
    zotbox_eval_report: EVAL_REPORT_VERSION,
    zotbox_version: ZOTBOX_VERSION,
    status: reportStatus(cases, interrupted),
    shard: options.shard === undefined ? null : { index: options.shard.index, total: options.shard.total },
    options: {
      repeat: options.repeat ?? 1,
      retries: options.retries ?? 0,
      grep: options.grep ?? null,
      max_cost_usd: options.maxCostUsd ?? null,
      max_tokens: options.maxTokens ?? null,
      max_infra_errors: options.maxInfraErrors ?? DEFAULT_MAX_INFRA_ERRORS,
      fail_fast: options.failFast === true,
      last_failed: options.only !== undefined,
      allow_scope: [...allowedScopes],
    },
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_ms: finishedAt.getTime() - startedAt.getTime(),
    suites: plan.suites.map((suite) => suiteSummary(suite, consents.get(suite) as SuiteConsent, options.model)),
    totals: computeTotals(cases),
    cases: [...cases],
  });
}
