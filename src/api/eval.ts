// Public API entry: evaluations (`zotbox eval`): running suites, the JSON report
// and its reporters, shards and merge. Re-exports only; loaded by `zotbox eval`.
export { runEval, DEFAULT_EVAL_MAX_RUNS, type EvalOptions, type EvalProgress } from '../host/eval/run-eval.js';
export { EvalSuiteSchema, type EvalSuite, type EvalCase, type Expectation } from '../host/eval/suite-schema.js';
export { EvalReportSchema, EVAL_REPORT_VERSION, type EvalReport, type CaseResult, type CaseRun, type ExpectationResult, type SuiteSummary } from '../host/eval/eval-report.js';
export type { GraderInput, GraderVerdict, ChangedFile } from '../host/eval/grader-input.js';
export { readEvalReport, formatJsonReport, writeReportFile, writeReportFiles } from '../host/eval/report/json-report.js';
export { mergeEvalReports } from '../host/eval/report/merge.js';
export { formatJunit } from '../host/eval/report/junit.js';
export { formatMarkdownSummary } from '../host/eval/report/markdown.js';
export { formatHtmlReport } from '../host/eval/report/html.js';
export { githubAnnotations, appendStepSummary } from '../host/eval/report/github.js';
export { formatCasesCost, runCostParts } from '../host/eval/report/totals.js';
export { casesToRerun } from '../host/eval/report/last-failed.js';
export { caseKey, caseInShard, parseShard, shardFromEnvironment, type Shard } from '../host/eval/report/shard.js';
