// One run of one case: a fresh workspace copied from the fixture, a run plan for
// it (consent asked once per suite), the run on the shared pool with the case's
// limits, the expectations checked, and the workspace removed (unless kept). A
// provider fault is run again, in a fresh workspace, up to --retries times; a
// failed expectation never is.
import { ZotboxError, toZotboxError } from '../../errors.js';
import { addUsage, NO_USAGE, type RunUsage } from '../models/model-prices.js';
import type { ModelEndpoints } from '../providers/model-endpoints.js';
import { executeRun } from '../run/execute-run.js';
import { linkSignal } from '../run/linked-signal.js';
import type { AgentPool } from '../run/pool.js';
import type { RunEvent } from '../run/run-events.js';
import { prepareRun } from '../run/run-plan.js';
import type { ConfineMode } from '../executors/confine/mode.js';
import { createCaseWorkspace, type CaseWorkspace } from './case-workspace.js';
import { checkCase } from './check-case.js';
import type { CaseRun } from './eval-report.js';
import type { PlannedCase } from './eval-plan.js';
import { totalTokens } from './expectations.js';
import { RunRecorder } from './record-run.js';
import { reportFiles, type ReportedFiles } from './run-files.js';
import type { RunRecord } from './run-record.js';
import { callMatchers } from './expectations.js';
import type { GraderHost } from './graders/grader-host.js';
import { AGENT_DATA_PLACEHOLDER, WORKSPACE_PLACEHOLDER, type CaseDirectories, type SuiteConsent } from './suite-consent.js';
import { makeCaseDirectory } from './eval-root.js';
import { removeWorkspace } from './workspace-remove.js';
import type { TimedPatternTester } from './pattern-host.js';
import { CasePatterns, casePatternBudgetMs } from './pattern-budget.js';
import { isInfrastructureCode, SANDBOX_ENDPOINT, SANDBOX_FAULT_CODES } from './infrastructure.js';

/** Run failures worth a retry: the provider's, never the agent's or an expectation's. */
const RETRIED_CODES: ReadonlySet<string> = new Set(['ZB_PROVIDER_FAILED', 'ZB_PROVIDER_TIMEOUT', 'ZB_PROVIDER_INTERRUPTED']);

export interface CaseRunContext {
  readonly evalRoot: string;
  readonly pool: AgentPool;
  readonly consent: SuiteConsent;
  /** Runs the JS graders, in a process of their own. */
  readonly graders: GraderHost;
  /** Matches the suite's patterns off the main thread, within their bounds; each run counts its time against its own budget. */
  readonly patterns: TimedPatternTester;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stateDirectory: string;
  readonly model?: string;
  readonly confine?: ConfineMode;
  readonly programPath?: readonly string[];
  readonly retries: number;
  readonly keepWorkspaces: boolean;
  readonly modelEndpoints?: ModelEndpoints;
  /** The runs' model concurrency (--model-concurrency), fixed on their endpoint. */
  readonly modelConcurrency?: number;
  /** Sees each event of each run as it happens. */
  readonly onEvent?: (event: RunEvent) => void;
  /** The eval's: Ctrl-C, SIGTERM. */
  readonly signal: AbortSignal;
}

/** A run of a case as the scheduler sees it: its result, and the endpoints it reached (model endpoint, sandbox). */
export interface EndedRun {
  readonly run: CaseRun;
  /** Endpoints the run used: its model endpoint when it has one, and SANDBOX_ENDPOINT when a command ran. */
  readonly endpoints: readonly string[];
}

/** Runs repeat `repeat` of a case, with its retries, and grades it. Never throws for what the run or the case does. */
export async function runCaseRepeat(planned: PlannedCase, repeat: number, context: CaseRunContext): Promise<EndedRun> {
  const started = performance.now();
  let attempts = 0;
  let usage: RunUsage = NO_USAGE;
  let cost: number | null = 0;
  for (;;) {
    attempts++;
    const attempt = await runAttempt(planned, repeat, context);
    usage = addUsage(usage, attempt.run.usage);
    cost = cost === null || attempt.run.cost_usd === null ? null : cost + attempt.run.cost_usd;
    const retry = attempt.retryable && attempts <= context.retries && !context.signal.aborted;
    if (!retry) {
      const run = { ...attempt.run, attempts, usage, cost_usd: cost === null ? null : roundUsd(cost), duration_ms: Math.round(performance.now() - started) };
      return { run, endpoints: attempt.endpoints };
    }
  }
}

interface AttemptState {
  workspace?: CaseWorkspace;
  agentData?: string;
  /** The model endpoint of the run's plan, once prepared. */
  endpoint?: string;
}

interface Attempt {
  readonly run: CaseRun;
  readonly retryable: boolean;
  readonly endpoints: readonly string[];
}

async function runAttempt(planned: PlannedCase, repeat: number, context: CaseRunContext): Promise<Attempt> {
  const recorder = new RunRecorder();
  const directories: AttemptState = {};
  const outcome = await attemptIn(planned, repeat, context, recorder, directories).catch(
    (thrown: unknown): Attempt => ({ run: notStarted(repeat, thrown, recorder, endpointFor(planned, context, directories)), retryable: false, endpoints: usedEndpoints(directories, recorder) }),
  );
  // Interrupted: the eval root's removal takes this attempt's folders too (both lie in it), after the reports are written.
  if (context.keepWorkspaces || context.signal.aborted) return outcome;
  try {
    await directories.workspace?.remove(context.signal);
    if (directories.agentData !== undefined) await removeWorkspace(directories.agentData, context.signal);
    return outcome;
  } catch (thrown) {
    // Whatever the run left that cannot be removed fails its case, never the eval; the eval's temp directory is removed at the end.
    const error = toZotboxError(thrown);
    const cleanup = { kind: 'cleanup', passed: false, reason: `the case workspace could not be removed: ${error.code}: ${error.message}` };
    return { ...outcome, run: { ...outcome.run, passed: false, expectations: [...outcome.run.expectations, cleanup] }, retryable: false };
  }
}

/** What an infrastructure fault is counted against: the sandbox, or the run's model endpoint (its model id before it was prepared). */
function endpointFor(planned: PlannedCase, context: CaseRunContext, state: AttemptState): (code: string) => string {
  return (code) => (SANDBOX_FAULT_CODES.has(code) ? SANDBOX_ENDPOINT : (state.endpoint ?? `model ${context.model ?? planned.suite.loaded.suite.model ?? '(default)'}`));
}

function usedEndpoints(state: AttemptState, recorder: RunRecorder): string[] {
  return [...(state.endpoint === undefined ? [] : [state.endpoint]), ...(recorder.ranCommand ? [SANDBOX_ENDPOINT] : [])];
}

/** The run's infrastructure fault: its own error when that is one, else a command the sandbox could not run. */
function infrastructureOf(record: RunRecord, recorder: RunRecorder, endpoint: (code: string) => string, scrub: (text: string) => string): CaseRun['infrastructure'] {
  const fault = record.error !== null && isInfrastructureCode(record.error.code) ? record.error : recorder.sandboxFault;
  return fault === undefined ? undefined : { code: fault.code, message: scrub(fault.message), endpoint: endpoint(fault.code) };
}

async function attemptIn(planned: PlannedCase, repeat: number, context: CaseRunContext, recorder: RunRecorder, directories: AttemptState): Promise<Attempt> {
  const created = await createCaseWorkspace(context.evalRoot, planned.fixture);
  directories.workspace = created;
  const agentData = makeCaseDirectory(context.evalRoot, 'data-');
  directories.agentData = agentData;
  // One budget for all of this run's pattern matching, calls and final text alike (issue 22 §4).
  const patterns = new CasePatterns(context.patterns, casePatternBudgetMs(planned.timeoutSeconds), planned.key);
  recorder.watchCalls(callMatchers(planned.evalCase.expect), created.path, patterns);
  await executeCase(planned, { workspace: created.path, agentData }, recorder, context, directories);
  await recorder.settle();
  const record = recorder.record();
  // Reports name each case's directories by their placeholders: their temp paths differ from run to run and machine to machine.
  const scrub = (text: string) => text.replaceAll(created.path, WORKSPACE_PLACEHOLDER).replaceAll(agentData, AGENT_DATA_PLACEHOLDER);
  const expectations = (await checkCase(planned, repeat, record, created, { graders: context.graders, patterns }, context.signal)).map((result) => ({ ...result, reason: scrub(result.reason) }));
  const judgeCost = expectations.reduce<number | null>((sum, result) => (sum === null || result.cost_usd === null ? null : sum + (result.cost_usd ?? 0)), 0);
  const run: CaseRun = {
    repeat,
    attempts: 1,
    passed: expectations.every((result) => result.passed),
    status: record.status,
    error: record.error === null ? null : { code: record.error.code, message: scrub(record.error.message) },
    turns: record.turns,
    usage: record.usage,
    cost_usd: record.costUsd === null || judgeCost === null ? null : record.costUsd + judgeCost,
    duration_ms: 0,
    final_text: record.finalText,
    expectations,
    transcript_tail: scrub(recorder.tail()),
    calls: recorder.calls().map((call) => ({
      ...call,
      input: scrub(call.input),
      ...(call.reason === undefined ? {} : { reason: scrub(call.reason) }),
      ...(call.summary === undefined ? {} : { summary: scrub(call.summary) }),
    })),
  };
  const files = reportedFilesOf(created, scrub);
  const infrastructure = infrastructureOf(record, recorder, endpointFor(planned, context, directories), scrub);
  return {
    run: { ...run, ...files, ...(infrastructure === undefined ? {} : { infrastructure }) },
    retryable: record.error !== null && RETRIED_CODES.has(record.error.code),
    endpoints: usedEndpoints(directories, recorder),
  };
}

/** The run's changed files for the report; a workspace that cannot be walked any more leaves them out rather than failing the case. */
function reportedFilesOf(workspace: CaseWorkspace, scrub: (text: string) => string): Partial<ReportedFiles> {
  try {
    return reportFiles(workspace, scrub);
  } catch (error) {
    return { files_cut: `the changed files could not be listed: ${scrub(toZotboxError(error).message)}` };
  }
}

/** A run that could not start (a transcript that does not parse, a workspace that cannot be made): the case fails with why. */
function notStarted(repeat: number, thrown: unknown, recorder: RunRecorder, endpoint: (code: string) => string): CaseRun {
  const error = toZotboxError(thrown);
  return {
    ...(isInfrastructureCode(error.code) ? { infrastructure: { code: error.code, message: error.message, endpoint: endpoint(error.code) } } : {}),
    repeat,
    attempts: 1,
    passed: false,
    status: 'error',
    error: { code: error.code, message: error.message },
    turns: 0,
    usage: NO_USAGE,
    cost_usd: 0,
    duration_ms: 0,
    final_text: '',
    expectations: [],
    transcript_tail: recorder.tail(),
  };
}

async function executeCase(planned: PlannedCase, directories: CaseDirectories, recorder: RunRecorder, context: CaseRunContext, state: AttemptState): Promise<void> {
  // Linked, not listened to: every case in flight shares the eval's signal, which gets one listener for all of them.
  const limits = linkSignal(context.signal);
  const timer =
    planned.timeoutSeconds === undefined
      ? undefined
      : setTimeout(() => {
          const seconds = planned.timeoutSeconds ?? 0;
          limits.abort(
            new ZotboxError('ZB_RUN_TIMEOUT', `case ${planned.key} reached its time limit of ${seconds} s (timeout_s) and was stopped. Fix: raise timeout_s in the suite.`, {
              details: { timeoutSeconds: seconds },
            }),
          );
        }, planned.timeoutSeconds * 1000);
  try {
    const plan = await prepareRun({
      agent: planned.suite.agent,
      cwd: directories.workspace,
      workspace: directories.workspace,
      agentDataDirectory: directories.agentData,
      ...(planned.replay === undefined ? {} : { replayFile: planned.replay }),
      ...(planned.replay !== undefined ? {} : modelFor(planned, context)),
      ...(context.confine === undefined ? {} : { confine: context.confine }),
      ...(context.programPath === undefined ? {} : { programPath: context.programPath }),
      env: context.env,
      stateDirectory: context.stateDirectory,
      obtainConsent: (request) => context.consent.obtain(request, directories),
      ...(context.modelEndpoints === undefined ? {} : { modelEndpoints: context.modelEndpoints }),
      ...(context.modelConcurrency === undefined ? {} : { modelConcurrency: context.modelConcurrency }),
      signal: limits.signal,
    });
    if (plan.provider.endpoint !== undefined) state.endpoint = plan.provider.endpoint;
    let usage: RunUsage = NO_USAGE;
    for await (const event of executeRun(plan, {
      prompt: planned.evalCase.prompt,
      session: 'none',
      pool: context.pool,
      signal: limits.signal,
      ...(planned.maxTurns === undefined ? {} : { maxTurns: planned.maxTurns }),
    })) {
      recorder.add(event);
      context.onEvent?.(event);
      if (event.type === 'usage' && planned.maxTokens !== undefined) {
        usage = addUsage(usage, event);
        if (totalTokens({ usage }) > planned.maxTokens && !limits.signal.aborted) limits.abort(tokenLimitError(planned, totalTokens({ usage })));
      }
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    limits.unlink();
  }
}

function modelFor(planned: PlannedCase, context: CaseRunContext): { model?: string } {
  const model = context.model ?? planned.suite.loaded.suite.model;
  return model === undefined ? {} : { model };
}

function tokenLimitError(planned: PlannedCase, used: number): ZotboxError {
  const limit = planned.maxTokens ?? 0;
  return new ZotboxError(
    'ZB_EVAL_TOKEN_LIMIT',
    `case ${planned.key} used ${used} tokens, over its max_tokens limit of ${limit}, and was stopped. Fix: raise max_tokens in the suite, or make the task smaller.`,
    {
      details: { limit, used },
    },
  );
}

function roundUsd(dollars: number): number {
  return Math.round(dollars * 1_000_000) / 1_000_000;
}
