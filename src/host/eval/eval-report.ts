// The JSON eval report (docs/eval.md), versioned: `zotbox eval --reporter json=FILE`
// writes it, `zotbox eval merge` and `--last-failed` read it back, so it is a
// trust boundary too and is parsed with this schema. Every other reporter
// (JUnit, Markdown, GitHub) renders from it. Timings are the only fields that
// differ between two runs of the same suites with the same outcomes.
import { z } from 'zod';

export const EVAL_REPORT_VERSION = 1;

const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const Usage = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
});
export type EvalUsage = z.infer<typeof Usage>;

/** One expectation's verdict. `kind` is the expectation's key (status, file_json, grader, ...). */
export const ExpectationResultSchema = z.strictObject({
  kind: z.string(),
  passed: z.boolean(),
  /** Why it passed or failed, in words. */
  reason: z.string(),
  /** A grader's or judge's score, when it gave one (0 to 1). */
  score: z.number().optional(),
  /** What a judge cost, in USD (null when its model has no prices). */
  cost_usd: z.number().nullable().optional(),
});
export type ExpectationResult = z.infer<typeof ExpectationResultSchema>;

/** One tool call of a run as the HTML report shows it: what the agent asked, the gate's decision, the result. */
export const CallTraceSchema = z.strictObject({
  tool: z.string(),
  /** The call's input as JSON. */
  input: z.string(),
  /** The gate's decision; null when none came (the run ended first). */
  allowed: z.boolean().nullable(),
  code: z.string().optional(),
  reason: z.string().optional(),
  /** Whether the tool ran without error; null when no result came. */
  ok: z.boolean().nullable(),
  summary: z.string().optional(),
});
export type CallTrace = z.infer<typeof CallTraceSchema>;

/** A file the run changed, as the HTML report shows it (run-files.ts): a unified diff of its text before and after, or why there is none. */
export const ReportedFileSchema = z.strictObject({
  path: z.string(),
  change: z.enum(['added', 'modified', 'deleted']),
  /** Bytes after the run (0 when deleted). */
  size: z.number().int().nonnegative(),
  /** `@@` hunks of the fixture's text against the text after the run (an added file against nothing). */
  diff: z.string().optional(),
  /** The diff passed its bound and was cut; its last line says so. */
  diff_cut: z.boolean().optional(),
  /** Why there is no diff: not text, over the bound read, not a regular file, the fixture's text unreadable, or the run's diff budget spent. */
  omitted: z.enum(['binary', 'too_large', 'not_a_regular_file', 'before_unreadable', 'budget', 'deleted']).optional(),
});
export type ReportedFile = z.infer<typeof ReportedFileSchema>;

/** One run of a case (one of --repeat K). */
export const CaseRunSchema = z.strictObject({
  /** 1-based, up to --repeat. */
  repeat: z.number().int().positive(),
  /** Runs made for this repeat: 1, plus one per --retries used on a provider fault. */
  attempts: z.number().int().positive(),
  passed: z.boolean(),
  /** The run's status (run.end), or `error` when it could not start. */
  status: z.enum(['completed', 'max_turns', 'cancelled', 'refused', 'content_filtered', 'failed', 'error']),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  turns: z.number().int().nonnegative(),
  usage: Usage,
  /** The run's cost plus its judges', in USD; null when a model in it has no prices. */
  cost_usd: z.number().nullable(),
  duration_ms: z.number().nonnegative(),
  final_text: z.string(),
  expectations: z.array(ExpectationResultSchema),
  /** The last lines of the run in text form, for a failure's context (JUnit system-out). */
  transcript_tail: z.string(),
  /**
   * The infrastructure fault the run met, when it met one (infrastructure.ts): the model
   * server failed or went silent, or the sandbox could not be built. Absent when none.
   * A run that did not pass with one is an error, not the agent's failure.
   */
  infrastructure: z.strictObject({ code: z.string(), message: z.string(), endpoint: z.string() }).optional(),
  /** The run's last tool calls (at most MAX_TRACED_CALLS), in order, for the HTML report. */
  calls: z.array(CallTraceSchema).optional(),
  /** The files the run changed, with diffs (run-files.ts, bounded); absent when the run did not get to run. */
  files: z.array(ReportedFileSchema).optional(),
  /** What of the changed files is not in `files`, in words; absent when nothing. */
  files_cut: z.string().optional(),
});
export type CaseRun = z.infer<typeof CaseRunSchema>;

export const CaseResultSchema = z.strictObject({
  /** The suite's name. */
  suite: z.string(),
  id: z.string(),
  /** Position of the case in the whole eval: suites in command-line order, cases in file order. Merge restores this order. */
  index: z.number().int().nonnegative(),
  /**
   * passed: the pass rate reached the threshold; failed: it did not, and would not have
   * with every infrastructure error passed; error: it did not because of infrastructure
   * errors (case-status.ts); not_run: never started (a cap, --fail-fast, an interruption,
   * infrastructure errors in a row).
   */
  status: z.enum(['passed', 'failed', 'error', 'not_run']),
  /** The case's prompt, as the suite gives it (cut like a final text). */
  prompt: z.string().optional(),
  /** The case's line in its suite file (1-based), for annotations; absent when unknown. */
  line: z.number().int().positive().optional(),
  /** Why a case did not run. */
  not_run_reason: z.string().nullable(),
  threshold: z.number().min(0).max(1),
  /** Passed runs over runs made (null when none ran). */
  pass_rate: z.number().min(0).max(1).nullable(),
  runs: z.array(CaseRunSchema),
});
export type CaseResult = z.infer<typeof CaseResultSchema>;

export const SuiteSummarySchema = z.strictObject({
  name: z.string(),
  /** The suite file as given on the command line. */
  file: z.string(),
  agent: z.strictObject({
    reference: z.string(),
    name: z.string(),
    version: z.string(),
    content_digest: Digest,
    artifact_digest: Digest.nullable(),
  }),
  /** The permissions consented to, expanded; `${workspace}` stands for each case's private workspace. */
  permissions: z.strictObject({
    read: z.array(z.string()),
    write: z.array(z.string()),
    bash: z.strictObject({ mode: z.string(), allow: z.array(z.string()) }),
    confinement: z.string(),
  }),
  consent: z.enum(['flag', 'environment', 'receipt', 'prompt']),
  /** The model the cases run on (a catalog id, or `replay`). */
  model: z.string(),
  /** How many cases the suite holds (all shards). */
  cases: z.number().int().nonnegative(),
});
export type SuiteSummary = z.infer<typeof SuiteSummarySchema>;

export const EvalTotalsSchema = z.strictObject({
  cases: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Cases that did not pass because of infrastructure errors. */
  errors: z.number().int().nonnegative().default(0),
  not_run: z.number().int().nonnegative(),
  runs: z.number().int().nonnegative(),
  usage: Usage,
  /** Every run's and judge's cost that had prices, in USD. */
  cost_usd: z.number().nonnegative(),
});
export type EvalTotals = z.infer<typeof EvalTotalsSchema>;

export const EvalReportSchema = z.strictObject({
  zotbox_eval_report: z.literal(EVAL_REPORT_VERSION),
  zotbox_version: z.string(),
  /**
   * passed: every case passed; failed: a case failed, or did not run and none is an error;
   * error: no case failed, and one is an error; interrupted: stopped by a signal before the end.
   */
  status: z.enum(['passed', 'failed', 'error', 'interrupted']),
  /** The shard this report covers, or null for a whole eval (and a merged one). */
  shard: z.strictObject({ index: z.number().int().positive(), total: z.number().int().positive() }).nullable(),
  options: z.strictObject({
    repeat: z.number().int().positive(),
    retries: z.number().int().nonnegative(),
    grep: z.string().nullable(),
    max_cost_usd: z.number().nullable(),
    max_tokens: z.number().int().nullable(),
    /** --max-infra-errors: infrastructure errors in a row on one endpoint that stop the eval (0: never). */
    max_infra_errors: z.number().int().nonnegative().default(3),
    fail_fast: z.boolean(),
    /** --last-failed chose the cases: a suite's cases may be fewer than it declares. */
    last_failed: z.boolean(),
    /** The folders --allow-scope allowed beyond each case's workspace and ${agent_data} (canonical); none by default. */
    allow_scope: z.array(z.string()).default([]),
  }),
  started_at: z.string(),
  finished_at: z.string(),
  duration_ms: z.number().nonnegative(),
  suites: z.array(SuiteSummarySchema),
  totals: EvalTotalsSchema,
  /** Every case the eval (or shard) covers, in index order; --grep leaves the others out. */
  cases: z.array(CaseResultSchema),
});
export type EvalReport = z.infer<typeof EvalReportSchema>;
