// runAgent: one agent run, end to end. Load → requirements → model → consent →
// state directories, scopes and confinement → a pool worker running the agent
// loop, whose only ways out are the gate port (to the policy and the executors)
// and the model port (to the provider). Yields the run's events as they happen.
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { ZotboxError, fileSystemError, fromWireError, toZotboxError } from '../../errors.js';
import { createGateDecider } from '../../policy/gate-decider.js';
import { serveGate } from '../../policy/gate-server.js';
import type { Manifest } from '../../policy/manifest.js';
import { compileScopes } from '../../policy/scopes.js';
import type { ShellContext } from '../../policy/shell-decision.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../executors/command-environment.js';
import { createCommandIsolation } from '../executors/confine/command-isolation.js';
import { describeConfinement, resolveConfinement, summarizeConfinement, type ConfineMode } from '../executors/confine/mode.js';
import { requestConsent, summarizePermissions, type ConsentRequest } from '../consent/request-consent.js';
import { createExecutor } from '../executors/execute-approved.js';
import { listBundledSkills } from '../executors/skill.js';
import { serveModel } from '../models/model-server.js';
import { PRE_CALL_ID, parseEntryPre, runPreCommand } from './entry-pre.js';
import { loadAgent, type LoadedAgent } from '../load/load-agent.js';
import { AgentPool } from './pool.js';
import { API_KEY_VARIABLES, BUILT_IN_MODELS, readUserModels, selectModel } from '../models/model-catalog.js';
import { AnthropicProvider } from '../providers/anthropic.js';
import { OpenAiProvider } from '../providers/openai.js';
import { RecordingProvider } from '../providers/recording.js';
import { ReplayProvider, readReplayTranscript } from '../providers/replay.js';
import type { ModelProvider } from '../providers/provider.js';
import { checkRequirements } from '../load/requirements.js';
import type { RunEvent } from './run-events.js';
import { planSession, type SessionChoice } from './run-session.js';
import type { SessionWriter } from './sessions.js';
import { ensureAgentDirectories, resolveStateDirectory } from '../consent/state-dir.js';
import { canonicalStateContext, refuseScopesInStateDirectory } from '../consent/state-scopes.js';

interface RunAgentCommonOptions {
  /** The first user message; else entry.default_prompt. */
  readonly prompt?: string;
  /**
   * Interactive chat: when neither `prompt` nor entry.default_prompt gives a first
   * message, the run asks this for it, and again after every answer; returning
   * undefined ends the run (status completed). `first` is true for the first
   * call, with the agent's entry.greeting to show.
   */
  readonly readPrompt?: (context: { readonly first: boolean; readonly greeting: string }) => Promise<string | undefined>;
  /** Where relative references resolve and, without `workspace`, the workspace. */
  readonly cwd: string;
  readonly workspace?: string;
  /** Play this transcript instead of calling a live model (docs/replay.md). */
  readonly replayFile?: string;
  /** A model id from the catalog (built-in or <state>/models.json). */
  readonly model?: string;
  /** Write a replay transcript of the model's turns here when the run ends. */
  readonly recordFile?: string;
  /** Commands run confined (`required`, the default) or, only when the user opts out, unconfined (`off`). */
  readonly confine?: ConfineMode;
  /** Which session to record to and continue from; default 'new' (docs/sessions.md). */
  readonly session?: SessionChoice;
  readonly maxTurns?: number;
  /** Per tool call. */
  readonly toolTimeoutMs?: number;
  readonly yes?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stdin?: ConsentRequest['stdin'];
  readonly stdout?: ConsentRequest['stdout'];
  readonly stateDirectory?: string;
  /** Heap limit (old generation, MiB) of the worker when the run makes its own pool; default 512. */
  readonly workerMemoryMb?: number;
  /** Share one pool between runs (a long-lived host); otherwise the run makes and closes its own. */
  readonly pool?: AgentPool;
  readonly signal?: AbortSignal;
  /** Test hook: crash the worker. */
  readonly crashForTest?: 'throw' | 'exit' | 'oom';
}

/** What to run: a reference to load, or an agent loadAgent already loaded. */
export type RunAgentOptions = RunAgentCommonOptions & ({ readonly reference: string; readonly agent?: undefined } | { readonly agent: LoadedAgent; readonly reference?: undefined });

/** An async queue of events: the run pushes, the caller iterates. */
class EventQueue {
  private readonly items: RunEvent[] = [];
  private waiting: (() => void) | undefined;
  private done = false;
  push(event: RunEvent): void {
    this.items.push(event);
    this.waiting?.();
  }
  finish(): void {
    this.done = true;
    this.waiting?.();
  }
  async *drain(): AsyncGenerator<RunEvent> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
  }
}

function selectProvider(options: RunAgentOptions, manifest: Manifest, stateDirectory: string): ModelProvider {
  if (options.replayFile !== undefined) return new ReplayProvider(readReplayTranscript(options.replayFile));
  const env = options.env ?? {};
  const model = selectModel({ manifest, env, catalog: [...BUILT_IN_MODELS, ...readUserModels(stateDirectory)], ...(options.model === undefined ? {} : { explicit: options.model }) });
  const apiKey = env[API_KEY_VARIABLES[model.provider]] ?? '';
  if (model.provider === 'anthropic') {
    const baseUrl = model.baseUrl ?? env['ANTHROPIC_BASE_URL'];
    return new AnthropicProvider({ model: model.id, apiKey, ...(baseUrl ? { baseUrl } : {}) });
  }
  const baseUrl = model.baseUrl ?? env['OPENAI_BASE_URL'];
  return new OpenAiProvider({ model: model.id, apiKey, ...(baseUrl ? { baseUrl } : {}) });
}

function summarize(result: unknown): string {
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Runs an agent and yields its events. Failures before the run starts (loading,
 * requirements, model, consent) are thrown; failures during it end with a
 * run.end event of status "failed".
 */
export async function* runAgent(options: RunAgentOptions): AsyncGenerator<RunEvent> {
  const env = options.env ?? {};
  const { image, layout, source, reference } = options.agent ?? (await loadAgent(options.reference, { cwd: options.cwd, env, ...(options.signal === undefined ? {} : { signal: options.signal }) }));
  const manifest = layout.manifest;
  checkRequirements(manifest, { platform: process.platform });
  const stateDirectory = options.stateDirectory ?? resolveStateDirectory({ env, homeDirectory: homedir(), platform: process.platform });
  const selected = selectProvider(options, manifest, stateDirectory);
  const recorder = options.recordFile === undefined ? undefined : new RecordingProvider(selected);
  const provider: ModelProvider = recorder ?? selected;
  let workspace: string;
  try {
    workspace = realpathSync.native(options.workspace ?? options.cwd);
  } catch (cause) {
    throw fileSystemError('use the workspace', options.workspace ?? options.cwd, cause);
  }
  const { data, sessions } = ensureAgentDirectories(stateDirectory, manifest.name);
  const plannedSession = planSession(options.session ?? 'new', sessions, manifest.name);
  const scopes = compileScopes(manifest.permissions.fs, { workspace, ...canonicalStateContext(stateDirectory, data) });
  refuseScopesInStateDirectory(scopes);
  const confinement = resolveConfinement(options.confine ?? 'required');
  const permissions = summarizePermissions(scopes, manifest.permissions.bash, summarizeConfinement(confinement));
  const consent = await requestConsent({
    stateDirectory,
    name: manifest.name,
    version: manifest.version,
    contentDigest: image.contentDigest,
    artifactDigest: image.artifactDigest,
    permissions,
    yes: options.yes === true,
    env,
    stdin: options.stdin ?? (process.stdin as ConsentRequest['stdin']),
    stdout: options.stdout ?? process.stdout,
    reference,
    ...(source.kind === 'github' ? { remoteSource: source.remote } : {}),
  });
  const userPrompt = options.prompt ?? manifest.entry.defaultPrompt;
  const pre = parseEntryPre(manifest.entry.pre);
  // entry.pre as text is the first user turn; the prompt, if any, follows it.
  const prompts = [...(pre.kind === 'prompt' ? [pre.text] : []), ...(userPrompt === undefined ? [] : [userPrompt])];
  const interactive = userPrompt === undefined && options.readPrompt !== undefined;
  if (prompts.length === 0 && !interactive) throw new ZotboxError('ZB_RUN_NO_PROMPT', `no prompt: give one after the agent (zotbox run ${reference} "what to do"), or add entry.default_prompt to the manifest.`);
  // Opened only now: a refused or promptless run leaves no session file behind.
  const sessionWriter: SessionWriter | undefined = plannedSession.open();

  const queue = new EventQueue();
  const skills = listBundledSkills(image);
  const shell: ShellContext = { mode: manifest.permissions.bash.mode, allow: manifest.permissions.bash.allow, scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES, confined: confinement.kind !== 'unconfined' };
  const decide = createGateDecider({ shell, skills });
  const execute = createExecutor({
    image,
    workspace,
    bashTimeoutMs: 120_000,
    outputCapBytes: 64 * 1024,
    writeRoots: permissions.write,
    shell, // the gate's own: what the executor decides again is decided by the same policy
    isolation: createCommandIsolation(confinement, { readRoots: permissions.read, writeRoots: permissions.write, ...(scopes.context.stateDirectory === undefined ? {} : { stateDirectory: scopes.context.stateDirectory }), agentData: scopes.context.agentData }),
  });
  const toolTimeoutMs = options.toolTimeoutMs ?? 300_000;
  const gateChannel = new MessageChannel();
  const modelChannel = new MessageChannel();
  const controller = new AbortController();
  // Only for a worker that does not stop when asked (it should never happen):
  // terminating the thread would also end the runs sharing it.
  const hardStop = new AbortController();
  const gate = serveGate(gateChannel.port1, {
    timeoutMs: toolTimeoutMs,
    decide: (call) => {
      queue.push({ type: 'tool.call', id: call.id, tool: call.tool, input: call.input as Record<string, unknown> });
      return decide(call);
    },
    execute: async (approved, signal) => {
      try {
        const result = await execute(approved, signal);
        queue.push({ type: 'tool.result', id: approved.call.id, tool: approved.tool, ok: true, summary: summarize(result) });
        return result;
      } catch (error) {
        const failure = toZotboxError(error);
        queue.push({ type: 'tool.result', id: approved.call.id, tool: approved.tool, ok: false, summary: failure.message });
        // A command that planted a git program was undone; the run does not go on (issue 9 §3).
        if (failure.code === 'ZB_CONFINEMENT_GIT_PROGRAM') stop(failure);
        throw error;
      }
    },
    onAudit: (event) => {
      queue.push({
        type: 'gate.decision',
        id: event.id,
        tool: event.tool,
        allowed: event.allowed,
        ...(event.canonicalPath === undefined ? {} : { canonical_path: event.canonicalPath }),
        ...(event.argv === undefined ? {} : { argv: event.argv.map((a) => [...a]) }),
        ...(event.code === undefined ? {} : { code: event.code }),
        ...(event.reason === undefined ? {} : { reason: event.reason }),
      });
      // A denied call never reaches an executor: its result is the denial, which the model sees.
      if (!event.allowed) queue.push({ type: 'tool.result', id: event.id, tool: event.tool, ok: false, summary: event.reason ?? event.code ?? 'denied' });
    },
  });
  let inputError: ZotboxError | undefined;
  const model = serveModel(modelChannel.port1, provider, {
    onText: (text) => queue.push({ type: 'assistant.delta', text }),
    ...(interactive && options.readPrompt !== undefined ? { readInput: readInputFrom(options.readPrompt, manifest.entry.greeting), onInputError: (error: unknown) => (inputError ??= toZotboxError(error)) } : {}),
    onTurn: (turn, conversation) => {
      queue.push({ type: 'usage', input_tokens: turn.usage.input_tokens, output_tokens: turn.usage.output_tokens });
      // Flushed before the worker sees the answer: a crash loses at most the turn in flight.
      sessionWriter?.sync(conversation);
    },
  }, controller.signal);

  // Cancelling (Ctrl-C, --timeout, the caller's signal, or the caller stopping
  // its iteration) aborts the model call in flight, kills the command in flight,
  // refuses further tool calls, and tells the worker to stop at its next step.
  let hardStopTimer: NodeJS.Timeout | undefined;
  let settled = false;
  /** Set when the run is stopped for a fault rather than cancelled: it ends "failed" with this error. */
  let fatal: ZotboxError | undefined;
  const stop = (reason: ZotboxError) => {
    fatal ??= reason;
    cancel();
  };
  const cancel = () => {
    if (settled || controller.signal.aborted) return;
    const error = new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.');
    controller.abort(error);
    modelChannel.port1.postMessage({ type: 'run.cancel' });
    gate.cancel(error);
    hardStopTimer = setTimeout(() => hardStop.abort(error), HARD_STOP_AFTER_MS);
    hardStopTimer.unref();
  };
  const onAbort = () => cancel();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) cancel();

  queue.push({
    type: 'run.start',
    run_id: randomUUID(),
    agent: { name: manifest.name, version: manifest.version, content_digest: image.contentDigest, artifact_digest: image.artifactDigest ?? null, source: source.path },
    model: provider.model,
    workspace,
    permissions: { read: [...permissions.read], write: [...permissions.write], bash: { mode: permissions.bash.mode, allow: [...permissions.bash.allow] }, confinement: permissions.confinement },
    confinement: describeConfinement(confinement),
    consent,
    session: plannedSession.file === undefined ? null : { id: plannedSession.id ?? '', file: plannedSession.file, continued: plannedSession.history.length > 0 },
    at: new Date().toISOString(),
  });

  // entry.pre as a command runs here, in the host, through the same decider and
  // executor as the model's calls; its output goes to the model with the first prompt.
  const runPre = async (): Promise<string | undefined> => {
    if (pre.kind !== 'command') return undefined;
    queue.push({ type: 'tool.call', id: PRE_CALL_ID, tool: 'bash', input: { command: pre.command } });
    let output: string;
    try {
      output = await runPreCommand(pre.command, {
        decide,
        execute,
        signal: controller.signal,
        onDecision: (verdict) =>
          queue.push({ type: 'gate.decision', id: PRE_CALL_ID, tool: 'bash', allowed: verdict.allow, ...(verdict.allow ? { ...(verdict.audit.argv === undefined ? {} : { argv: verdict.audit.argv.map((a) => [...a]) }) } : { code: verdict.code, reason: verdict.reason }) }),
      });
    } catch (error) {
      queue.push({ type: 'tool.result', id: PRE_CALL_ID, tool: 'bash', ok: false, summary: toZotboxError(error).message });
      throw error;
    }
    queue.push({ type: 'tool.result', id: PRE_CALL_ID, tool: 'bash', ok: true, summary: summarize(output) });
    return output;
  };

  const pool = options.pool ?? new AgentPool({ maxThreads: 1, ...(options.workerMemoryMb === undefined ? {} : { maxOldGenerationSizeMb: options.workerMemoryMb }) });
  const running = runPre()
    .then((preamble) => pool.run(
      {
        gatePort: gateChannel.port2,
        modelPort: modelChannel.port2,
        prompt: {
          agentMd: image.readText('AGENT.md') ?? '',
          replaceSystemPrompt: manifest.replaceSystemPrompt,
          skills: [...skills].map((name) => ({ name, description: skillDescription(image.readText(`skills/${name}/SKILL.md`) ?? '') })),
          date: new Date().toISOString().slice(0, 10),
          workspace,
          bashAvailable: manifest.permissions.bash.mode !== 'none',
        },
        prompts,
        ...(preamble === undefined ? {} : { preamble }),
        history: plannedSession.history,
        interactive,
        maxTurns: options.maxTurns ?? 50,
        toolTimeoutMs: toolTimeoutMs + 5_000,
        ...(options.crashForTest === undefined ? {} : { crashForTest: options.crashForTest }),
      },
      hardStop.signal,
    ))
    .then(
      (result) => {
        if (fatal !== undefined) {
          queue.push({ type: 'run.end', status: 'failed', turns: result.turns, final_text: result.finalText, error: { code: fatal.code, message: fatal.message }, at: new Date().toISOString() });
        } else if (controller.signal.aborted) {
          // However the worker noticed (a refused call, an aborted model call), a cancelled run is 'cancelled'.
          queue.push({ type: 'run.end', status: 'cancelled', turns: result.turns, final_text: result.finalText, error: { code: 'ZB_GATE_CANCELLED', message: 'the run was cancelled.' }, at: new Date().toISOString() });
        } else if (inputError !== undefined && result.status !== 'failed') {
          queue.push({ type: 'run.end', status: 'failed', turns: result.turns, final_text: result.finalText, error: { code: inputError.code, message: inputError.message }, at: new Date().toISOString() });
        } else if (result.status === 'failed') {
          const error = fromWireError(result.error);
          queue.push({ type: 'run.end', status: 'failed', turns: 0, final_text: '', error: { code: error.code, message: error.message }, at: new Date().toISOString() });
        } else {
          queue.push({ type: 'run.end', status: result.status, turns: result.turns, final_text: result.finalText, at: new Date().toISOString() });
        }
      },
      (thrown) => {
        if (fatal !== undefined) {
          queue.push({ type: 'run.end', status: 'failed', turns: 0, final_text: '', error: { code: fatal.code, message: fatal.message }, at: new Date().toISOString() });
          return;
        }
        const aborted = controller.signal.aborted;
        const error = aborted ? new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.') : crashError(thrown);
        queue.push({ type: 'run.end', status: aborted ? 'cancelled' : 'failed', turns: 0, final_text: '', error: { code: error.code, message: error.message }, at: new Date().toISOString() });
      },
    )
    .finally(() => {
      settled = true;
      if (hardStopTimer !== undefined) clearTimeout(hardStopTimer);
      sessionWriter?.close();
      if (recorder !== undefined && options.recordFile !== undefined) recorder.write(options.recordFile);
      gate.close();
      model.close();
      gateChannel.port1.close();
      modelChannel.port1.close();
      options.signal?.removeEventListener('abort', onAbort);
      queue.finish();
    });
  let finished = false;
  try {
    yield* queue.drain();
    finished = true;
  } finally {
    if (!finished) cancel();
    await running;
    if (options.pool === undefined) await pool.close();
  }
}

/** Adapts the caller's readPrompt to the model server: `first` only on the first call. */
function readInputFrom(readPrompt: NonNullable<RunAgentOptions['readPrompt']>, greeting: string): () => Promise<string | undefined> {
  let first = true;
  return async () => {
    const context = { first, greeting };
    first = false;
    return readPrompt(context);
  };
}

/** How long a cancelled worker gets to stop by itself before its thread is terminated. */
const HARD_STOP_AFTER_MS = 10_000;

function crashError(thrown: unknown): ZotboxError {
  const error = toZotboxError(thrown);
  if (error.code !== 'ZB_INTERNAL_BUG') return error;
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  return new ZotboxError('ZB_WORKER_CRASHED', `the worker running the agent failed (${text}); only this run was affected. Retry it; if it keeps failing, report it with --debug output.`, { cause: thrown });
}

/** The front-matter description of a SKILL.md, or its first non-empty line. */
export function skillDescription(text: string): string {
  const front = /^---\n([\s\S]*?)\n---/.exec(text);
  const description = front?.[1]?.split('\n').find((line) => line.startsWith('description:'));
  if (description !== undefined) return description.slice('description:'.length).trim();
  return text.split('\n').find((line) => line.trim() !== '' && !line.startsWith('---'))?.trim() ?? '';
}
