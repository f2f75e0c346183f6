// `zotbox eval`: plans the suites, asks consent once per suite, then runs the
// selected cases on one pool, many at once, in order of start; and writes the
// report. No new case starts once a cap is reached, after a failure with
// failFast, or after the eval's signal (Ctrl-C, SIGTERM); runs in flight are
// cancelled only by the signal. Every case workspace lives under one private
// temp directory, removed at the end whatever happened (unless kept).
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ZotboxError, toZotboxError } from '../../errors.js';
import { resolveCanonicalPath } from '../../policy/path-resolve.js';
import { requireUsableStateDirectory, resolveStateDirectory, stateDirectoryOrigin } from '../consent/state-dir.js';
import type { ConfineMode } from '../executors/confine/mode.js';
import type { ModelEndpoints } from '../providers/model-endpoints.js';
import { AgentPool } from '../run/pool.js';
import { GraderHost } from './graders/grader-host.js';
import { PatternHost } from './pattern-host.js';
import type { ConsentRequest } from '../consent/request-consent.js';
import { makeEvalRoot, removeEvalRoot } from './eval-root.js';
import { runCaseRepeat } from './case-run.js';
import type { CaseResult, CaseRun, EvalReport } from './eval-report.js';
import { planEval } from './eval-plan.js';
import { caseResult, notRunCase } from './case-result.js';
import { DEFAULT_MAX_INFRA_ERRORS, EvalScheduler } from './eval-scheduler.js';
import { askSuiteConsent } from './consent-probe.js';
import { buildReport } from './build-report.js';
import { refuseUnpricedModels } from './cost-cap.js';
import { suiteConsent, type SuiteConsent } from './suite-consent.js';

export interface EvalOptions {
  readonly suiteFiles: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Runs per case (default 1); the case passes when its pass rate reaches its threshold. */
  readonly repeat?: number;
  /** Runs again after a provider fault, at most this many times per run (default 0). */
  readonly retries?: number;
  /** Runs in flight at once (default 8). */
  readonly maxRuns?: number;
  /** Run the agent loops in this many pool processes instead of worker threads (AgentPoolOptions.processes); confined as `confine` says. */
  readonly processes?: number;
  /** Model requests in flight at once on each run's model endpoint, fixed (default: max_concurrency in models.json, else adaptive). */
  readonly modelConcurrency?: number;
  readonly grep?: string;
  readonly failFast?: boolean;
  /** Start no case once the runs and judges cost this much; every model that can spend must have prices (else ZB_EVAL_COST_UNKNOWN before any case). */
  readonly maxCostUsd?: number;
  readonly maxTokens?: number;
  /**
   * Start no case once this many runs in a row ended on an infrastructure error (the model
   * server down or silent, the sandbox unavailable) on one endpoint (default 3); 0 never stops.
   */
  readonly maxInfraErrors?: number;
  readonly shard?: { readonly index: number; readonly total: number };
  /** Only these case keys (suite/id), from --last-failed. */
  readonly only?: ReadonlySet<string>;
  readonly keepWorkspaces?: boolean;
  /**
   * Interrupted (the signal fired), the eval resolves with its report before its temp folder is removed, and hands the
   * removal here, so reports are written first: removing what a run left (tens of thousands of files) takes seconds, and
   * a CI runner that sends SIGKILL after its grace period would otherwise get no report. Without it, an interrupted
   * eval removes its temp folder before it resolves, as a finished one does.
   */
  readonly removeAfterReport?: (remove: () => Promise<void>) => void;
  /** Overrides every suite's model. */
  readonly model?: string;
  readonly confine?: ConfineMode;
  /** Program directories every case's commands find programs in first (run-plan.ts programPath). */
  readonly programPath?: readonly string[];
  /** Consent like -y, for this eval only; with remember, saved. */
  readonly yes?: boolean;
  readonly remember?: boolean;
  readonly stdin?: ConsentRequest['stdin'];
  readonly stdout?: ConsentRequest['stdout'];
  readonly stateDirectory?: string;
  readonly modelEndpoints?: ModelEndpoints;
  /** Where the case workspaces go (default: the system temp directory). */
  readonly tempDirectory?: string;
  /**
   * Folders (absolute, or relative to cwd) this eval may reach beyond each case's
   * workspace and \${agent_data}: agents may be granted scopes inside them, and an
   * unpinned agent may be read from them (--allow-scope). Never from a suite.
   */
  readonly allowScopes?: readonly string[];
  /** Stops the eval: no new case starts, runs in flight are cancelled, the report is marked interrupted. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: EvalProgress) => void;
}

export type EvalProgress =
  | { readonly type: 'eval.start'; readonly cases: number; readonly runs: number; readonly workspaces: string }
  | { readonly type: 'run.end'; readonly key: string; readonly run: CaseRun }
  | { readonly type: 'case.end'; readonly result: CaseResult }
  /**
   * Runs wait for their model endpoint (issue 26): told once per endpoint and eval,
   * the first time a run waits behind at least a whole round of requests (its limit).
   */
  | { readonly type: 'queued'; readonly endpoint: string; readonly ahead: number; readonly limit: number }
  /** Infrastructure errors in a row stopped the eval from starting cases; the reason says where and why. */
  | { readonly type: 'eval.stopping'; readonly reason: string }
  /** Something the user should know that did not change a result (a temp directory left behind). */
  | { readonly type: 'warning'; readonly message: string };

export const DEFAULT_EVAL_MAX_RUNS = 8;

/** Test seams: zotbox never passes them, and the API (src/index.ts) does not export them. */
export interface EvalSeams {
  /** The pattern host's clock (pattern-host.ts, PatternHostOptions.clock): what a case's pattern budget is counted by. */
  readonly patternClock?: () => number;
}

export function runEval(options: EvalOptions): Promise<EvalReport> {
  return runEvalWith(options, {});
}

/** runEval with test seams. */
export async function runEvalWith(options: EvalOptions, seams: EvalSeams): Promise<EvalReport> {
  const startedAt = new Date();
  const env = options.env;
  const stateDirectory = options.stateDirectory ?? resolveStateDirectory({ env, homeDirectory: homedir(), platform: process.platform });
  requireUsableStateDirectory(stateDirectory, { origin: options.stateDirectory === undefined ? stateDirectoryOrigin(env) : 'the stateDirectory option', write: true });
  const signal = options.signal ?? new AbortController().signal;
  const allowedScopes = (options.allowScopes ?? []).map((folder) => allowedScope(folder, options.cwd));
  const plan = await planEval({
    allowedScopes,
    suiteFiles: options.suiteFiles,
    cwd: options.cwd,
    env,
    stateDirectory,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.grep === undefined ? {} : { grep: new RegExp(options.grep, 'u') }),
    ...(options.shard === undefined ? {} : { shard: options.shard }),
    ...(options.only === undefined ? {} : { only: options.only }),
    ...(options.modelEndpoints === undefined ? {} : { modelEndpoints: options.modelEndpoints }),
    signal,
  });
  if (options.maxCostUsd !== undefined) {
    refuseUnpricedModels({ plan, maxCostUsd: options.maxCostUsd, env, stateDirectory, ...(options.model === undefined ? {} : { model: options.model }) });
  }
  const evalRoot = makeEvalRoot(options.tempDirectory ?? tmpdir());
  const pool = new AgentPool({
    maxRuns: options.maxRuns ?? DEFAULT_EVAL_MAX_RUNS,
    ...(options.processes === undefined ? {} : { processes: options.processes, ...(options.confine === undefined ? {} : { confine: options.confine }) }),
  });
  const graders = new GraderHost();
  // Terminated at once by the signal, whatever pattern it matches (issue 22 §4).
  const patterns = new PatternHost({ signal, ...(seams.patternClock === undefined ? {} : { clock: seams.patternClock }) });
  try {
    const consents = new Map(plan.suites.map((suite) => [suite, suiteConsent(evalRoot, suiteFileOf(suite.loaded.directory, suite.loaded.file), allowedScopes)]));
    // Before the first case and before any progress display: one question per suite, its cases
    // selected or not (a shard's report then records what every other shard's does).
    for (const [suite, consent] of consents) await askSuiteConsent(suite, consent, { evalRoot, stateDirectory, signal, options });
    const repeat = options.repeat ?? 1;
    options.onProgress?.({ type: 'eval.start', cases: plan.cases.length, runs: plan.cases.length * repeat, workspaces: evalRoot });
    const scheduler = new EvalScheduler({
      repeat,
      maxRuns: pool.maxRuns,
      failFast: options.failFast === true,
      maxCostUsd: options.maxCostUsd,
      maxTokens: options.maxTokens,
      maxInfraErrors: options.maxInfraErrors ?? DEFAULT_MAX_INFRA_ERRORS,
      signal,
      onInfrastructureStop: (reason) => options.onProgress?.({ type: 'eval.stopping', reason }),
    });
    // Endpoints whose long wait the user was told of (once each).
    const toldQueued = new Set<string>();
    const results = await scheduler.run(
      plan.cases,
      (planned, r) =>
        runCaseRepeat(planned, r, {
          evalRoot,
          pool,
          consent: consents.get(planned.suite) as SuiteConsent,
          graders,
          patterns,
          env,
          stateDirectory,
          retries: options.retries ?? 0,
          keepWorkspaces: options.keepWorkspaces === true,
          signal,
          ...(options.model === undefined ? {} : { model: options.model }),
          ...(options.confine === undefined ? {} : { confine: options.confine }),
          ...(options.programPath === undefined ? {} : { programPath: options.programPath }),
          ...(options.modelEndpoints === undefined ? {} : { modelEndpoints: options.modelEndpoints }),
          ...(options.modelConcurrency === undefined ? {} : { modelConcurrency: options.modelConcurrency }),
          onEvent: (event) => {
            if (event.type !== 'run.queued' || event.reason !== 'endpoint' || event.ahead < event.limit) return;
            const endpoint = event.endpoint ?? '';
            if (toldQueued.has(endpoint)) return;
            toldQueued.add(endpoint);
            options.onProgress?.({ type: 'queued', endpoint, ahead: event.ahead, limit: event.limit });
          },
        }).then((ended) => {
          options.onProgress?.({ type: 'run.end', key: planned.key, run: ended.run });
          return ended;
        }),
      (planned, outcome) => options.onProgress?.({ type: 'case.end', result: caseResult(planned, outcome.runs, repeat, outcome.interrupted) }),
    );
    const cases = plan.cases.map((planned, i) => {
      const outcome = results[i];
      return outcome === undefined || outcome.kind === 'not_run' ? notRunCase(planned, outcome?.reason ?? 'it never started') : caseResult(planned, outcome.runs, repeat, outcome.interrupted);
    });
    return buildReport({ plan, cases, consents, options, allowedScopes, startedAt, interrupted: signal.aborted });
  } finally {
    patterns.close();
    graders.close();
    await pool.close();
    if (options.keepWorkspaces !== true) {
      // A leftover is said, never fatal: the report is what the eval owes.
      const remove = () =>
        removeEvalRoot(evalRoot).catch((thrown: unknown) =>
          options.onProgress?.({ type: 'warning', message: `the eval's temp directory ${evalRoot} could not be removed: ${toZotboxError(thrown).message}` }),
        );
      if (signal.aborted && options.removeAfterReport !== undefined) options.removeAfterReport(remove);
      else await remove();
    }
  }
}

/** An --allow-scope folder, canonical as scopes are (links resolved), so that containment compares like with like. */
function allowedScope(folder: string, cwd: string): string {
  const resolved = resolveCanonicalPath(path.resolve(cwd, folder));
  if (!resolved.ok) throw new ZotboxError('ZB_CLI_USAGE', `--allow-scope ${folder} cannot be used: ${resolved.reason}. Fix: name a folder that exists.`);
  if (resolved.path === '/') throw new ZotboxError('ZB_CLI_USAGE', '--allow-scope / would allow the whole host. Fix: name the folder the agent needs.');
  return resolved.path;
}

function suiteFileOf(directory: string, file: string): string {
  return path.join(directory, path.basename(file));
}
