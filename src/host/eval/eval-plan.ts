// Planning an eval before any case runs: load every suite, its agent (checking
// the digest pin), every path it names (fixtures, replays, graders: inside the
// suite folder, no links), the grader sources and the judge's model, and choose
// the cases to run (--grep, the shard, --last-failed). Everything a suite gets
// wrong fails here, with exit 2, before anything is spent.
import { ZotboxError } from '../../errors.js';
import { resolveCanonicalPath } from '../../policy/path-resolve.js';
import { isInsideRoot } from '../../policy/scopes.js';
import { loadAgent, type LoadedAgent } from '../load/load-agent.js';
import type { ProviderChoice } from '../models/select-provider.js';
import type { ModelEndpoints } from '../providers/model-endpoints.js';
import { selectJudgeModel } from './judge.js';
import { isRemoteAgent, loadSuite, type LoadedSuite } from './load-suite.js';
import { caseInShard, caseKey } from './report/shard.js';
import { readSuiteFile, resolveSuitePath } from './suite-paths.js';
import type { EvalCase, Expectation } from './suite-schema.js';

/** The most bytes of one grader module. */
const MAX_GRADER_BYTES = 1024 * 1024;

export interface PlannedSuite {
  readonly loaded: LoadedSuite;
  readonly agent: LoadedAgent;
  /** Grader sources by their suite path. */
  readonly graders: ReadonlyMap<string, string>;
  /** The judge model of each judge expectation (keyed by the expectation itself). */
  readonly judges: ReadonlyMap<Expectation, ProviderChoice>;
}

export interface PlannedCase {
  readonly suite: PlannedSuite;
  readonly evalCase: EvalCase;
  /** suite/id: the shard hash, --grep and --last-failed match it. */
  readonly key: string;
  /** Position over every case of every suite, before selection. */
  readonly index: number;
  /** The case's line in its suite file, when known (GitHub annotations point at it). */
  readonly line: number | undefined;
  /** The fixture folder (canonical), or undefined for an empty workspace. */
  readonly fixture: string | undefined;
  /** The replay transcript (canonical), or undefined to use the model. */
  readonly replay: string | undefined;
  readonly maxTurns: number | undefined;
  readonly timeoutSeconds: number | undefined;
  readonly maxTokens: number | undefined;
  readonly threshold: number;
}

export interface EvalPlanOptions {
  readonly suiteFiles: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stateDirectory: string;
  /** Overrides every suite's model. */
  readonly model?: string;
  readonly grep?: RegExp;
  readonly shard?: { readonly index: number; readonly total: number };
  /** Only these case keys (--last-failed). */
  readonly only?: ReadonlySet<string>;
  readonly modelEndpoints?: ModelEndpoints;
  readonly signal?: AbortSignal;
  /** Canonical folders the command line allowed (--allow-scope): an unpinned agent may be read from inside them. */
  readonly allowedScopes?: readonly string[];
}

export interface EvalPlan {
  readonly suites: readonly PlannedSuite[];
  /** The selected cases, in index order. */
  readonly cases: readonly PlannedCase[];
}

export async function planEval(options: EvalPlanOptions): Promise<EvalPlan> {
  const suites: PlannedSuite[] = [];
  for (const file of options.suiteFiles) suites.push(await planSuite(loadSuite(file, options.cwd), options));
  refuseDuplicateNames(suites);
  const all: PlannedCase[] = [];
  for (const suite of suites) for (const [i, evalCase] of suite.loaded.suite.cases.entries()) all.push(planCase(suite, evalCase, all.length, suite.loaded.caseLines[i]));
  refuseEmptySelection(all, options);
  return { suites, cases: all.filter((planned) => isSelected(planned.key, options)) };
}

/**
 * A selection that names what is not there is a mistake, never a pass: --grep
 * that matches no case, or a --last-failed report whose failures are in none of
 * the suites given (adversarial14/last-failed-unknown-case). A shard with no case
 * is fine: with more shards than cases, some are empty.
 */
function refuseEmptySelection(all: readonly PlannedCase[], options: EvalPlanOptions): void {
  const keys = new Set(all.map((planned) => planned.key));
  const { grep, only } = options;
  if (grep !== undefined && !all.some((planned) => grep.test(planned.key))) {
    throw new ZotboxError('ZB_CLI_USAGE', `--grep /${grep.source}/ matches none of the ${all.length} cases (keys are SUITE/ID, such as ${all[0]?.key ?? 'main/first'}). Fix: check the pattern.`);
  }
  const missing = only === undefined ? [] : [...only].filter((key) => !keys.has(key));
  if (missing.length > 0) {
    throw new ZotboxError(
      'ZB_EVAL_REPORT_INVALID',
      `the --last-failed report names cases that are in none of the suites given: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? `, and ${missing.length - 5} more` : ''}. Fix: give the suites that report was written from (a renamed case cannot be matched).`,
      { details: { missing: missing.slice(0, 100) } },
    );
  }
}

async function planSuite(loaded: LoadedSuite, options: EvalPlanOptions): Promise<PlannedSuite> {
  const { reference, onlyByPin } = allowedAgentReference(loaded, options.allowedScopes ?? []);
  const agent = await loadAgent(reference, {
    cwd: loaded.directory,
    env: options.env,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }).catch((error: unknown) => {
    // Outside the suite folder, only the pin let it be read: what loading found there (names, bytes) must not reach the log.
    throw onlyByPin ? pinnedAgentRefused(loaded) : error;
  });
  const pin = loaded.suite.digest;
  if (pin !== undefined && pin !== agent.image.contentDigest && pin !== agent.image.artifactDigest) {
    if (onlyByPin) throw pinnedAgentRefused(loaded); // its digests would tell a guess at its content
    throw new ZotboxError(
      'ZB_EVAL_DIGEST_MISMATCH',
      `eval suite ${loaded.file} pins the agent to ${pin}, but ${loaded.suite.agent} has content digest ${agent.image.contentDigest}${agent.image.artifactDigest === undefined ? '' : ` and artifact digest ${agent.image.artifactDigest}`}. Fix: if the agent changed on purpose, update digest: in the suite (zotbox verify prints both digests).`,
      { details: { file: loaded.file, expected: pin, contentDigest: agent.image.contentDigest, artifactDigest: agent.image.artifactDigest ?? null } },
    );
  }
  const graders = new Map<string, string>();
  const judges = new Map<Expectation, ProviderChoice>();
  const judgeModels = new Map<string, ProviderChoice>();
  for (const expectation of loaded.suite.cases.flatMap((evalCase) => evalCase.expect)) {
    if ('grader' in expectation && !graders.has(expectation.grader)) graders.set(expectation.grader, readSuiteFile(loaded.directory, expectation.grader, 'a grader', MAX_GRADER_BYTES));
    if ('judge' in expectation) {
      const model = judgeModelId(expectation, loaded, options);
      const choice =
        judgeModels.get(model) ??
        selectJudgeModel({
          model,
          manifest: agent.layout.manifest,
          env: options.env,
          stateDirectory: options.stateDirectory,
          ...(options.modelEndpoints === undefined ? {} : { endpoints: options.modelEndpoints }),
        });
      judgeModels.set(model, choice);
      judges.set(expectation, choice);
    }
  }
  return { loaded, agent, graders, judges };
}

/**
 * The reference to load the suite's agent from: a local agent by its canonical
 * path (what was checked is what is read), inside the suite folder or an allowed
 * folder unless the suite pins its digest; a GitHub agent only when pinned.
 */
function allowedAgentReference(loaded: LoadedSuite, allowedScopes: readonly string[]): { readonly reference: string; readonly onlyByPin: boolean } {
  const pinned = loaded.suite.digest !== undefined;
  if (isRemoteAgent(loaded.suite.agent)) {
    if (pinned) return { reference: loaded.agentReference, onlyByPin: false };
    throw agentNotAllowed(loaded, `the GitHub agent ${loaded.suite.agent}`, `add digest: with the agent's digest to the suite (zotbox verify ${loaded.suite.agent} prints it)`);
  }
  const resolved = resolveCanonicalPath(loaded.agentReference);
  // A path that cannot be resolved cannot be shown to lie inside anything: only a pin lets it be read, and then loading it says nothing of it.
  const canonical = resolved.ok ? resolved.path : undefined;
  if (canonical !== undefined && (isInsideRoot(canonical, loaded.directory) || allowedScopes.some((allowed) => isInsideRoot(canonical, allowed)))) return { reference: canonical, onlyByPin: false };
  if (pinned) return { reference: canonical ?? loaded.agentReference, onlyByPin: true };
  const where = canonical ?? loaded.agentReference;
  throw agentNotAllowed(
    loaded,
    `the agent ${loaded.suite.agent} (${where}), outside the suite folder ${loaded.directory}`,
    `pin it with digest: in the suite (zotbox verify ${where} prints the digest), or, if you trust this suite with that folder, run the eval with --allow-scope ${where} (the report names it)`,
  );
}

/**
 * A pinned agent outside the suite folder that does not load as the pinned agent: said without anything of what
 * was found there (a suite from a pull request may name any host path), and without a cause to print with --debug.
 */
function pinnedAgentRefused(loaded: LoadedSuite): ZotboxError {
  return new ZotboxError(
    'ZB_EVAL_DIGEST_MISMATCH',
    `eval suite ${loaded.file} names the agent ${loaded.suite.agent}, outside the suite folder, pinned to ${loaded.suite.digest ?? ''}, and it is not that agent (or cannot be read as one); nothing of what is there is shown, since a suite from a pull request may name any path. Fix: check the path and the pin (zotbox verify ${loaded.suite.agent} prints its digests), or allow its folder with --allow-scope.`,
    { details: { file: loaded.file, expected: loaded.suite.digest ?? null } },
  );
}

function agentNotAllowed(loaded: LoadedSuite, what: string, fix: string): ZotboxError {
  return new ZotboxError(
    'ZB_EVAL_AGENT_NOT_ALLOWED',
    `eval suite ${loaded.file} names ${what}, without a digest pin; an eval reads no unpinned agent from outside the suite folder by default, so a suite from a pull request cannot reach the host. Fix: ${fix}.`,
    { details: { file: loaded.file, agent: loaded.suite.agent, flag: '--allow-scope' } },
  );
}

function judgeModelId(expectation: Extract<Expectation, { judge: unknown }>, loaded: LoadedSuite, options: Pick<EvalPlanOptions, 'model'>): string {
  const model = expectation.judge.model ?? options.model ?? loaded.suite.model;
  if (model === undefined) {
    throw new ZotboxError(
      'ZB_EVAL_SUITE_INVALID',
      `eval suite ${loaded.file}: a judge expectation names no model, and the suite has none (it replays). Fix: add model: to the judge, e.g. judge: { rubric: "...", model: claude-sonnet-4-5 }.`,
      {
        details: { file: loaded.file },
      },
    );
  }
  return model;
}

function planCase(suite: PlannedSuite, evalCase: EvalCase, index: number, line: number | undefined): PlannedCase {
  const { loaded } = suite;
  const defaults = loaded.suite.defaults;
  const fixture = evalCase.workspace ?? defaults.workspace;
  const replay = evalCase.replay ?? loaded.suite.replay;
  return {
    suite,
    evalCase,
    key: caseKey(loaded.name, evalCase.id),
    index,
    line,
    fixture: fixture === undefined ? undefined : resolveSuitePath(loaded.directory, fixture, 'directory', `the workspace of case ${evalCase.id}`),
    replay: replay === undefined ? undefined : resolveSuitePath(loaded.directory, replay, 'file', `the replay transcript of case ${evalCase.id}`),
    maxTurns: evalCase.max_turns ?? defaults.max_turns,
    timeoutSeconds: evalCase.timeout_s ?? defaults.timeout_s,
    maxTokens: evalCase.max_tokens ?? defaults.max_tokens,
    threshold: evalCase.threshold ?? defaults.threshold ?? 1,
  };
}

function isSelected(key: string, options: EvalPlanOptions): boolean {
  if (options.grep !== undefined && !options.grep.test(key)) return false;
  if (options.shard !== undefined && !caseInShard(key, options.shard)) return false;
  if (options.only !== undefined && !options.only.has(key)) return false;
  return true;
}

function refuseDuplicateNames(suites: readonly PlannedSuite[]): void {
  const seen = new Map<string, string>();
  for (const { loaded } of suites) {
    const other = seen.get(loaded.name);
    if (other !== undefined) {
      throw new ZotboxError(
        'ZB_EVAL_SUITE_INVALID',
        `eval suites ${other} and ${loaded.file} are both named "${loaded.name}"; case ids are suite/case, so names must differ. Fix: give one of them another name:.`,
        {
          details: { file: loaded.file },
        },
      );
    }
    seen.set(loaded.name, loaded.file);
  }
}
