// Preparing a run plan: everything about an agent and a workspace that does not
// change from one run to the next, done once. Loading, requirements, the model,
// the state directories, the scopes, the confinement, consent, and the gate's
// decider and executors. A plan can then be executed many times, concurrently
// (execute-run.ts); nothing in it is mutated by a run.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { AgentImage } from '../../archive/index.js';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { createGateDecider, type GateDecide } from '../../policy/gate-decider.js';
import { refuseApprovalFor, type AskApproval } from './command-approver.js';
import type { ApprovedCall } from '../../policy/gate-server.js';
import type { Manifest } from '../../policy/manifest.js';
import { compileScopes, type CompiledScopes } from '../../policy/scopes.js';
import type { ShellContext } from '../../policy/shell-decision.js';
import type { ConsentSummary } from '../consent/receipt.js';
import { createCallNetwork } from '../net/call-network.js';
import type { NetResolver } from '../net/net-proxy.js';
import { runNetRules } from '../net/run-net.js';
import { requestConsent, summarizePermissions, type ConsentOutcome, type ConsentRequest } from '../consent/request-consent.js';
import { ensureAgentDirectories } from '../consent/agent-directory.js';
import { requireUsableStateDirectory, resolveStateDirectory, stateDirectoryOrigin, stateVariablesOf } from '../consent/state-dir.js';
import { canonicalStateContext, refuseScopesInStateDirectory } from '../consent/state-scopes.js';
import { refuseProgramDirectoriesInWriteScopes, resolveProgramDirectories, searchPathWith, trustedDirectoriesWith, type ProgramDirectory } from '../executors/program-directories.js';
import { createCommandIsolation } from '../executors/confine/command-isolation.js';
import { commandLimitCeiling, detectLimitEnforcement, lowerCommandLimits, type LimitSetting } from '../executors/confine/command-limits.js';
import type { CommandLimitKey } from '../../policy/manifest-fields.js';
import { userGitEnvironment } from '../executors/confine/control-locations.js';
import { currentControlLocations } from '../executors/confine/protected-locations.js';
import { stateDirectoryAliases, stateDirectoryPlaces } from '../executors/confine/state-aliases.js';
import { resolveConfinement, summarizeConfinement, type ConfineMode, type Confinement } from '../executors/confine/mode.js';
import { createExecutor } from '../executors/execute-approved.js';
import { ImageExtraction, imageIndexOf, skillSummaries } from '../executors/image-files.js';
import { readPassedEnvironment } from '../executors/passed-environment.js';
import { listBundledSkills } from '../executors/skill.js';
import type { AgentSource } from '../load/open-agent.js';
import { loadAgent, type LoadedAgent } from '../load/load-agent.js';
import { checkRequirements } from '../load/requirements.js';
import { selectProvider, type ProviderChoice } from '../models/select-provider.js';
import type { ModelEndpoints } from '../providers/model-endpoints.js';
import type { PromptInput } from '../../worker/prompt.js';
import { parseEntryPre, type PreAction } from './entry-pre.js';

export interface PrepareRunOptions {
  /** A reference to load (directory, .zot, GitHub), or `agent`: one loadAgent already loaded. */
  readonly reference?: string;
  readonly agent?: LoadedAgent;
  /** Where relative references resolve and, without `workspace`, the workspace. */
  readonly cwd: string;
  readonly workspace?: string;
  /** Play this transcript instead of calling a live model (docs/replay.md); each run plays it from the start. */
  readonly replayFile?: string;
  /** A model id from the catalog (built-in or <state>/models.json). */
  readonly model?: string;
  /** Commands run confined (`required`, the default) or, only when the user opts out, unconfined (`off`). */
  readonly confine?: ConfineMode;
  /** Per tool call. */
  readonly toolTimeoutMs?: number;
  /**
   * Lower resource limits for each confined command than the agent's permissions.limits (or zotbox's defaults) set:
   * processes, memory_mib, cpu_seconds, file_size_mib. One above that ceiling is refused with ZB_COMMAND_LIMIT_RAISED.
   */
  readonly commandLimits?: { readonly [key in CommandLimitKey]?: number };
  /** Consent for this run only, without asking (like -y). */
  readonly yes?: boolean;
  /** With `yes` (or ZOTBOX_AGENT_CONSENT=1 in `env`), also save a consent receipt, so later runs need neither (like --remember). */
  readonly remember?: boolean;
  /**
   * The environment the host reads: API keys, base URLs, ZOTBOX_HOME, XDG_STATE_HOME,
   * ZOTBOX_AGENT_CONSENT. Default: only ZOTBOX_HOME and XDG_STATE_HOME from process.env
   * (the state directory follows the user's), nothing else (docs/library.md); pass
   * process.env to use the user's keys too.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stdin?: ConsentRequest['stdin'];
  readonly stdout?: ConsentRequest['stdout'];
  /** Overrides the state directory that `env` would give. */
  readonly stateDirectory?: string;
  /** At most this many model requests in flight on the model's endpoint, fixed (default: the model's max_concurrency, else adaptive). */
  readonly modelConcurrency?: number;
  /** The model budget to draw on (default PROCESS_MODEL_ENDPOINTS, shared by every run in the process). */
  readonly modelEndpoints?: ModelEndpoints;
  /** Cancels loading (a download, a large archive). */
  readonly signal?: AbortSignal;
  /** Set when the run will ask about commands outside the allowlist (--approve): refused before consent for an agent without one. */
  readonly approveCommand?: AskApproval;
  /**
   * How consent is obtained for the expanded permissions (default requestConsent:
   * receipts, -y, the environment, the prompt). `zotbox eval` asks once for all
   * the cases of a suite, whose workspaces differ only in their temp paths.
   */
  readonly obtainConsent?: (request: ConsentRequest) => Promise<ConsentOutcome>;
  /**
   * The directory `${agent_data}` names for this run, instead of the agent's own
   * <state>/agents/NAME-KEY/data: `zotbox eval` gives each case a fresh one, so no case
   * sees what another left, and an eval never writes the user's real agent data.
   */
  readonly agentDataDirectory?: string;
  /**
   * Program directories, absolute, searched before the fixed PATH in this order (nvm's, rustup's, a venv's bin):
   * each must exist, lie outside the write scopes and be writable by no one the sandbox can reach
   * (ZB_PROGRAM_PATH_UNSAFE); the sandbox binds it read-only with its toolchain home (docs/permissions.md).
   */
  readonly programPath?: readonly string[];
}

/** A prepared run: the agent, its workspace and everything consent covered. Read-only; execute it with executeRun. */
export interface RunPlan {
  readonly image: AgentImage;
  readonly manifest: Manifest;
  readonly source: AgentSource;
  readonly reference: string;
  /** The canonical workspace. */
  readonly workspace: string;
  readonly stateDirectory: string;
  readonly sessionsDirectory: string;
  readonly permissions: ConsentSummary;
  readonly confinement: Confinement;
  /** Each confined command's resource limits and how they are enforced; undefined when commands run unconfined. */
  readonly limits: LimitSetting | undefined;
  readonly consent: ConsentOutcome;
  readonly provider: ProviderChoice;
  readonly pre: PreAction;
  readonly skills: ReadonlySet<string>;
  /** The system prompt's pieces; each run adds the date. Shared by every run of the plan. */
  readonly prompt: Omit<PromptInput, 'date'>;
  readonly toolTimeoutMs: number;
  /** The gate's decision for one tool call. */
  readonly decide: GateDecide;
  /** The privileged executors, for approved calls only. */
  readonly execute: (approved: ApprovedCall, signal: AbortSignal) => Promise<unknown>;
  /** A run's hold on the extraction of the package the sandbox mounts at /zotbox; the returned function lets go. */
  readonly holdImage: () => () => void;
  /** The user's program directories in force (canonical), and the search path commands run with. */
  readonly programDirectories: readonly ProgramDirectory[];
  readonly searchPath: readonly string[];
}

/** Test seams: production never passes them, and src/index.ts exports neither this nor prepareRunWithSeams. */
export interface RunSeams {
  /** Resolves host names for the sandbox's proxy instead of the system resolver (tests map names to loopback upstreams). */
  readonly netResolver?: NetResolver;
}

/** Loads, checks and asks consent once. Throws (with a ZB_ code) when the agent cannot run here. */
export async function prepareRun(options: PrepareRunOptions): Promise<RunPlan> {
  return prepareRunWithSeams(options, {});
}

/** prepareRun with test seams (RunSeams). */
export async function prepareRunWithSeams(options: PrepareRunOptions, seams: RunSeams): Promise<RunPlan> {
  const env = options.env ?? {};
  const agent = await agentFor(options, env);
  const { image, layout, source, sourceIdentity, reference } = agent;
  const manifest = layout.manifest;
  checkRequirements(manifest, { platform: process.platform });
  // Without `env`, the state directory still follows the user's ZOTBOX_HOME and XDG_STATE_HOME (issue 27); nothing else is read from process.env.
  const stateEnv = options.env ?? stateVariablesOf(process.env);
  const stateDirectory = options.stateDirectory ?? resolveStateDirectory({ env: stateEnv, homeDirectory: homedir(), platform: process.platform });
  // Before the models file in it is read or anything is created there.
  requireUsableStateDirectory(stateDirectory, { origin: options.stateDirectory === undefined ? stateDirectoryOrigin(stateEnv) : 'the stateDirectory option', write: true });
  const provider = selectProvider({
    manifest,
    env,
    stateDirectory,
    ...(options.replayFile === undefined ? {} : { replayFile: options.replayFile }),
    ...(options.model === undefined ? {} : { explicitModel: options.model }),
    ...(options.modelEndpoints === undefined ? {} : { endpoints: options.modelEndpoints }),
    ...(options.modelConcurrency === undefined ? {} : { maxConcurrency: options.modelConcurrency }),
  });
  const workspace = canonicalWorkspace(options.workspace ?? options.cwd);
  // The agent's own directory belongs to its name and its source (issue 21): a namesake from elsewhere gets its own.
  const { data, sessions } = ensureAgentDirectories(stateDirectory, { name: manifest.name, source: sourceIdentity });
  const stateContext = canonicalStateContext(stateDirectory, options.agentDataDirectory ?? data);
  const stateAliases = stateDirectoryAliases(stateContext.stateDirectory).map((alias) => alias.path);
  const compiled = compileScopes(manifest.permissions.fs, { workspace, ...stateContext, ...(stateAliases.length === 0 ? {} : { stateAliases }) });
  refuseScopesInStateDirectory(compiled);
  const confinement = resolveConfinement(options.confine ?? 'required');
  // --approve for an agent with no allowlist, or without the sandbox, is refused before consent is asked.
  if (options.approveCommand !== undefined) refuseApprovalFor(manifest.permissions.bash.mode, manifest.name, confinement.kind !== 'unconfined');
  // The agent's package at /zotbox (issue 25): the file tools read it from the image; commands see it where the sandbox mounts it.
  const hidden = packageHiddenFromCommands(confinement, compiled);
  const scopes = { ...compiled, context: { ...compiled.context, image: imageIndexOf(image, hidden) } };
  const extraction = new ImageExtraction(image, path.join(stateDirectory, 'images'));
  // The ceiling is what consent shows and the receipt binds; an option may only lower it, refused before consent.
  const ceiling = commandLimitCeiling(manifest.permissions.limits);
  const commandLimits = lowerCommandLimits(ceiling, options.commandLimits, 'the command limits given (--limit-* or commandLimits)');
  const limits = confinement.kind === 'unconfined' ? undefined : { limits: commandLimits, enforcement: detectLimitEnforcement() };
  // Refuses net.allow where nothing could enforce it (--confine off), before consent.
  const netRules = runNetRules(manifest.permissions.net.allow, confinement.kind, manifest.name);
  const permissions = summarizePermissions(scopes, manifest.permissions.bash, summarizeConfinement(confinement), manifest.permissions.env.read, ceiling, manifest.permissions.net.allow);
  const programDirectories = resolveProgramDirectories(options.programPath ?? [], {
    homeDirectory: homedir(),
    ...(scopes.context.stateDirectory === undefined ? {} : { stateDirectory: scopes.context.stateDirectory }),
  });
  refuseProgramDirectoriesInWriteScopes(programDirectories, permissions.write);
  const consent = await (options.obtainConsent ?? requestConsent)({
    stateDirectory,
    name: manifest.name,
    source: sourceIdentity,
    version: manifest.version,
    contentDigest: image.contentDigest,
    artifactDigest: image.artifactDigest,
    permissions,
    yes: options.yes === true,
    remember: options.remember === true,
    workspace,
    env,
    stdin: options.stdin ?? (process.stdin as ConsentRequest['stdin']),
    stdout: options.stdout ?? process.stdout,
    reference,
    ...(source.kind === 'github' ? { remoteSource: source.remote } : {}),
    skillScripts: skillSummaries(image),
    model: { id: provider.model, host: provider.endpointHost },
  });
  const skills = listBundledSkills(image);
  const shell: ShellContext = {
    mode: manifest.permissions.bash.mode,
    allow: manifest.permissions.bash.allow,
    scopes,
    searchPath: searchPathWith(programDirectories),
    trustedDirectories: trustedDirectoriesWith(programDirectories),
    confined: confinement.kind !== 'unconfined',
    net: netRules,
  };
  // The user's own git, later, reads its global and system config from the user's environment: so do the protections.
  const userGit = userGitEnvironment(env, homedir());
  const controls = () => currentControlLocations(permissions.write, stateDirectoryPlaces(scopes.context.stateDirectory), userGit);
  const isolation = createCommandIsolation(
    confinement,
    {
      readRoots: permissions.read,
      writeRoots: permissions.write,
      ...(scopes.context.stateDirectory === undefined ? {} : { stateDirectory: scopes.context.stateDirectory }),
      agentData: scopes.context.agentData,
      userGit,
      programDirectories,
      ...(hidden === undefined ? { image: extraction } : {}),
      // Read once, here; only the command executors hold the values.
      passed: readPassedEnvironment(manifest.permissions.env.read, env),
    },
    undefined,
    limits,
    createCallNetwork(netRules, seams.netResolver),
  );
  // Runs of this plan hold its package; the last to end also ends the sandbox its commands reused.
  let holders = 0;
  const execute = createExecutor({
    image,
    workspace,
    bashTimeoutMs: 120_000,
    outputCapBytes: 64 * 1024,
    writeRoots: permissions.write,
    shell, // the gate's own: what the executor decides again is decided by the same policy
    controls,
    isolation,
  });
  return {
    image,
    manifest,
    source,
    reference,
    workspace,
    stateDirectory,
    sessionsDirectory: sessions,
    permissions,
    confinement,
    limits,
    consent,
    provider,
    pre: parseEntryPre(manifest.entry.pre),
    skills,
    prompt: {
      agentMd: image.readText('AGENT.md') ?? '',
      replaceSystemPrompt: manifest.replaceSystemPrompt,
      skills: [...skills].map((name) => ({ name, description: skillDescription(image.readText(`skills/${name}/SKILL.md`) ?? '') })),
      workspace,
      bashAvailable: manifest.permissions.bash.mode !== 'none',
    },
    toolTimeoutMs: options.toolTimeoutMs ?? 300_000,
    decide: createGateDecider({ shell, skills, controls }),
    execute,
    holdImage: () => {
      holders++;
      const free = extraction.acquire();
      return () => {
        if (--holders === 0) void isolation.release();
        free();
      };
    },
    programDirectories,
    searchPath: shell.searchPath,
  };
}

/** Why commands cannot see /zotbox in this run, or undefined when the sandbox mounts it. */
function packageHiddenFromCommands(confinement: Confinement, scopes: CompiledScopes): string | undefined {
  if (confinement.kind === 'unconfined') return 'confinement is off for this run (--confine off), and only the sandbox mounts /zotbox';
  if ([...scopes.read, ...scopes.write].some((scope) => scope.root === '/')) return 'a scope of "/" puts the host\'s root in the sandbox, where /zotbox cannot be mounted';
  return undefined;
}

async function agentFor(options: PrepareRunOptions, env: Readonly<Record<string, string | undefined>>): Promise<LoadedAgent> {
  if (options.agent !== undefined) return options.agent;
  if (options.reference === undefined)
    throw new ZotboxError('ZB_OPTION_INVALID', 'prepareRun needs `reference` (a directory, .zot or GitHub reference) or `agent` (what loadAgent returned); it got neither.');
  return loadAgent(options.reference, { cwd: options.cwd, env, ...(options.signal === undefined ? {} : { signal: options.signal }) });
}

function canonicalWorkspace(directory: string): string {
  try {
    return realpathSync.native(directory);
  } catch (cause) {
    throw fileSystemError('use the workspace', directory, cause);
  }
}

/** The front-matter description of a SKILL.md, or its first non-empty line. */
export function skillDescription(text: string): string {
  const front = /^---\n([\s\S]*?)\n---/.exec(text);
  const description = front?.[1]?.split('\n').find((line) => line.startsWith('description:'));
  if (description !== undefined) return description.slice('description:'.length).trim();
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '' && !line.startsWith('---'))
      ?.trim() ?? ''
  );
}
