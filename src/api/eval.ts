// Public API entry: evaluations (`zotbox eval`): running suites, the JSON report
// and its reporters, shards and merge. Re-exports only; loaded by `zotbox eval`.
export { runEval, DEFAULT_EVAL_MAX_RUNS, type EvalOptions, type EvalProgress } from '../host/eval/run-eval.js';
export { EvalSuiteSchema, EvalCaseSchema, ExpectationSchema, type EvalSuite, type EvalCase, type Expectation } from '../host/eval/suite-schema.js';
export { EvalReportSchema, EVAL_REPORT_VERSION, type EvalReport, type CaseResult, type CaseRun, type ExpectationResult, type SuiteSummary } from '../host/eval/eval-report.js';
export type { GraderInput, GraderVerdict, ChangedFile } from '../host/eval/grader-input.js';
