// Asking a suite's consent before its first case runs: a run plan is prepared
// for an empty probe workspace under the eval's temp directory, exactly as a
// case's would be (loading, requirements, the model, scopes, confinement), so
// the question shows the permissions every case will run with, and anything that
// stops a case from starting (no model key, an unusable scope) stops the eval here.
import { makeCaseDirectory } from './eval-root.js';
import { prepareRun } from '../run/run-plan.js';
import type { PlannedSuite } from './eval-plan.js';
import { resolveSuitePath } from './suite-paths.js';
import type { EvalOptions } from './run-eval.js';
import type { SuiteConsent } from './suite-consent.js';

export interface ProbeContext {
  readonly evalRoot: string;
  readonly stateDirectory: string;
  readonly signal: AbortSignal;
  readonly options: EvalOptions;
}

export async function askSuiteConsent(suite: PlannedSuite, consent: SuiteConsent, context: ProbeContext): Promise<void> {
  const { options } = context;
  const { loaded } = suite;
  const directories = { workspace: makeCaseDirectory(context.evalRoot, 'consent-'), agentData: makeCaseDirectory(context.evalRoot, 'consent-data-') };
  const { workspace } = directories;
  const model = options.model ?? loaded.suite.model;
  // The model of the suite's first case (its replay, or the suite's model): a probe that cannot select it fails as every case would.
  const replayPath = loaded.suite.cases[0]?.replay ?? loaded.suite.replay;
  const replay = replayPath === undefined ? undefined : resolveSuitePath(loaded.directory, replayPath, 'file', 'a replay transcript');
  await prepareRun({
    agent: suite.agent,
    cwd: workspace,
    workspace,
    agentDataDirectory: directories.agentData,
    ...(replay !== undefined ? { replayFile: replay } : model === undefined ? {} : { model }),
    ...(options.confine === undefined ? {} : { confine: options.confine }),
    ...(options.programPath === undefined ? {} : { programPath: options.programPath }),
    env: options.env,
    stateDirectory: context.stateDirectory,
    yes: options.yes === true,
    remember: options.remember === true,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
    obtainConsent: (request) => consent.obtain(request, directories),
    ...(options.modelEndpoints === undefined ? {} : { modelEndpoints: options.modelEndpoints }),
    signal: context.signal,
  });
}
