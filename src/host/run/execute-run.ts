// Executing a run plan: one run of a prepared agent, many of which may share a
// plan and a pool at once. Per run: a slot in the pool, a session, two ports (the
// gate and the model), a provider, entry.pre, and the agent loop on a worker.
// Yields the run's events as they happen (docs/events.md).
import { randomUUID } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import path from 'node:path';
import { ZotboxError, isZotboxError, toZotboxError } from '../../errors.js';
import type { AgentTask } from '../../worker/pool-task.js';
import { describeConfinement } from '../executors/confine/mode.js';
import { commandLimitCeiling, describeLimits } from '../executors/confine/command-limits.js';
import { MAX_CONVERSATION_BYTES } from '../../policy/message-limits.js';
import { addUsage, NO_USAGE, usageCost, type RunUsage } from '../models/model-prices.js';
import { serveModel } from '../models/model-server.js';
import type { ModelProvider } from '../providers/provider.js';
import { RecordingProvider } from '../providers/recording.js';
import { EventQueue } from './event-queue.js';
import { AnswerCancellation } from './answer-cancellation.js';
import { ADMIT_RUN, AgentPool, RUN_TASK } from './pool.js';
import { linkSignal, type LinkedSignal } from './linked-signal.js';
import { RunCancellation } from './run-cancellation.js';
import { endFromOutcome, endFromThrown } from './run-end.js';
import { checkOutputFile } from './output-files.js';
import type { RunEvent } from './run-events.js';
import { serveRunGate } from './run-gate.js';
import { refuseApprovalFor, type AskApproval } from './command-approver.js';
import type { RunPlan } from './run-plan.js';
import { runPreForRun } from './run-pre.js';
import { planSession, type PlannedSession, type SessionChoice } from './run-session.js';

export interface ExecuteRunOptions {
  /** The first user message; else entry.default_prompt. */
  readonly prompt?: string;
  /**
   * Interactive chat: when neither `prompt` nor entry.default_prompt gives a first
   * message, the run asks this for it, and again after every answer, once the
   * caller has taken every event before it; returning undefined ends the run
   * (status completed). `first` is true for the first call, with the agent's
   * entry.greeting to show. A message returned as `{ text, signal }` can have its
   * answer cancelled on its own (UserMessage).
   */
  readonly readPrompt?: (context: { readonly first: boolean; readonly greeting: string }) => Promise<string | UserMessage | undefined>;
  /** Which session to record to and continue from; default 'new' (docs/sessions.md). */
  readonly session?: SessionChoice;
  /**
   * Per-command approval (issue 27 §6): asked about a bash call the gate denies only because a program is not
   * in the allowlist, once every earlier event was taken; 'once' or 'session' lets it run (still confined, every
   * other check as before). Only for allowlist agents (ZB_APPROVE_BASH_MODE). Absent: such calls are denied.
   */
  readonly approveCommand?: AskApproval;
  readonly maxTurns?: number;
  /** Write a replay transcript of the model's turns here when the run ends. */
  readonly recordFile?: string;
  /** Share one pool between runs (a long-lived host, a batch); otherwise the run makes and closes its own. */
  readonly pool?: AgentPool;
  /** Heap limit (old generation, MiB) of the worker when the run makes its own pool; default 512. */
  readonly workerMemoryMb?: number;
  readonly signal?: AbortSignal;
}

/**
 * A message from readPrompt with a signal of its own. Aborting it cancels the answer
 * to this message, not the run: the model call and the command in flight are
 * stopped, the answer's later tool calls are refused, the conversation (and
 * session) keeps the text said so far with a note that the user cancelled it, and
 * readPrompt is asked for the next message.
 */
export interface UserMessage {
  readonly text: string;
  readonly signal: AbortSignal;
}

interface RunInput {
  readonly prompts: readonly string[];
  readonly interactive: boolean;
}

/** The user turns to run: entry.pre as text first, then the prompt (or the default prompt). */
function runInput(plan: RunPlan, options: ExecuteRunOptions): RunInput {
  const userPrompt = options.prompt ?? plan.manifest.entry.defaultPrompt;
  const prompts = [...(plan.pre.kind === 'prompt' ? [plan.pre.text] : []), ...(userPrompt === undefined ? [] : [userPrompt])];
  const interactive = userPrompt === undefined && options.readPrompt !== undefined;
  if (prompts.length === 0 && !interactive)
    throw new ZotboxError('ZB_RUN_NO_PROMPT', `no prompt: give one after the agent (zotbox run ${plan.reference} "what to do"), or add entry.default_prompt to the manifest.`);
  return { prompts, interactive };
}

/**
 * Runs a prepared plan once and yields its events. A run that cannot start (no
 * prompt, a session that cannot be continued, cancelled while waiting for a slot)
 * throws; a run that started ends with a run.end event.
 */
export async function* executeRun(plan: RunPlan, options: ExecuteRunOptions = {}): AsyncGenerator<RunEvent> {
  checkRunOutputs(options);
  if (options.approveCommand !== undefined) refuseApprovalFor(plan.manifest.permissions.bash.mode, plan.manifest.name, plan.confinement.kind !== 'unconfined');
  const input = runInput(plan, options);
  const plannedSession = planSession(options.session ?? 'new', plan.sessionsDirectory, plan.manifest.name, plan.workspace);
  const pool = options.pool ?? new AgentPool({ maxThreads: 1, maxRuns: 1, ...(options.workerMemoryMb === undefined ? {} : { maxOldGenerationSizeMb: options.workerMemoryMb }) });
  // The run's own signal: the caller's may be shared by any number of runs, and gets one listener for all of them.
  const link = linkSignal(options.signal);
  try {
    const release = yield* waitForSlot(pool, link);
    try {
      yield* runAdmitted(plan, { ...options, signal: link.signal }, input, plannedSession, pool, release);
    } finally {
      release(); // a run that failed to start; otherwise already released when it ended
    }
  } finally {
    link.unlink();
    if (options.pool === undefined) await pool.close();
  }
}

/**
 * A slot in the pool. A run that must wait for one says so first (run.queued),
 * then waits; a caller that stops reading there takes no slot, and one granted at
 * that moment is given back.
 */
async function* waitForSlot(pool: AgentPool, link: LinkedSignal): AsyncGenerator<RunEvent, () => void> {
  const wait = pool.wait;
  // Queued now, synchronously: runs that start in order are admitted in order.
  const admission = admit(pool, link.signal);
  if (wait === undefined) return await admission;
  // Nobody may be awaiting it while the caller holds the event: its rejection is handled here too.
  admission.catch(() => undefined);
  let admitted = false;
  try {
    yield { type: 'run.queued', reason: 'pool', ahead: wait.ahead, limit: wait.limit, at: new Date().toISOString() };
    const release = await admission;
    admitted = true;
    return release;
  } finally {
    if (!admitted) {
      link.abort();
      admission.then(
        (release) => release(),
        () => undefined,
      );
    }
  }
}

/** The files the run will write (--record, --session FILE), checked before anything runs. runAgent checks them before consent too. */
export function checkRunOutputs(options: Pick<ExecuteRunOptions, 'recordFile' | 'session'>): void {
  if (options.recordFile !== undefined) checkOutputFile(options.recordFile, 'record');
  const session = options.session;
  if (typeof session === 'object' && 'file' in session) checkOutputFile(path.resolve(session.file), 'session');
}

/** A ZotboxError the caller's signal was aborted with (a time limit) is why the run was cancelled; any other reason is a plain cancel. */
function cancelReason(signal: AbortSignal | undefined): ZotboxError | undefined {
  return isZotboxError(signal?.reason) ? toZotboxError(signal.reason) : undefined;
}

async function admit(pool: AgentPool, signal: AbortSignal | undefined): Promise<() => void> {
  try {
    return await pool[ADMIT_RUN](signal);
  } catch (cause) {
    throw cancelReason(signal) ?? new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled while it waited for a free slot in the pool (maxRuns); nothing had run.', { cause });
  }
}

/**
 * One admitted run. Its slot is released when the run ends, not when the caller
 * next reads an event: a caller that stops reading must not hold a shared pool.
 */
async function* runAdmitted(plan: RunPlan, options: ExecuteRunOptions, input: RunInput, plannedSession: PlannedSession, pool: AgentPool, release: () => void): AsyncGenerator<RunEvent> {
  // Opened only now: a refused or promptless run leaves no session file behind.
  const sessionWriter = plannedSession.open();
  const queue = new EventQueue();
  const provider: ModelProvider = plan.provider.create();
  const answers = new AnswerCancellation();
  // Inside the recorder: a cancelled answer's closing turn is recorded, so a replay follows the same conversation.
  const answering = answers.provider(provider);
  const recorder = options.recordFile === undefined ? undefined : new RecordingProvider(answering);
  const gateChannel = new MessageChannel();
  const modelChannel = new MessageChannel();
  const cancellation = new RunCancellation((error) => {
    modelChannel.port1.postMessage({ type: 'run.cancel' });
    gate.cancel(error);
  });
  const gate = serveRunGate(gateChannel.port1, plan, queue, cancellation, answers, options.approveCommand);
  let inputError: ZotboxError | undefined;
  let runUsage: RunUsage = NO_USAGE;
  let closingTurns = 0;
  const model = serveModel(
    modelChannel.port1,
    recorder ?? answering,
    {
      onText: (text) => queue.push({ type: 'assistant.delta', text }),
      onQueued: (wait) => queue.push({ type: 'run.queued', reason: 'endpoint', endpoint: wait.endpoint, ahead: wait.ahead, limit: wait.limit, at: new Date().toISOString() }),
      ...(input.interactive && options.readPrompt !== undefined
        ? {
            readInput: readInputFrom(options.readPrompt, { greeting: plan.manifest.entry.greeting, queue, answers, signal: cancellation.signal }),
            onInputError: (error: unknown) => (inputError ??= toZotboxError(error)),
          }
        : {}),
      onTurn: (turn, conversation) => {
        const { usage } = turn;
        // The closing turn of a cancelled answer came from no model: it has no usage to report, and costs nothing.
        if (!answers.isClosingTurn(turn)) {
          runUsage = addUsage(runUsage, usage);
          queue.push({
            type: 'usage',
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
            cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
            cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
          });
        } else closingTurns++;
        // Flushed before the worker sees the answer: a crash loses at most the turn in flight.
        sessionWriter?.sync(conversation);
      },
      onPartial: (conversation) => sessionWriter?.sync(conversation),
    },
    cancellation.signal,
  );
  const onAbort = () => cancellation.cancel(cancelReason(options.signal));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) onAbort();

  queue.push(startEvent(plan, provider, plannedSession));
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const task = (preamble: string | undefined): AgentTask => ({
    gatePort: gateChannel.port2,
    modelPort: modelChannel.port2,
    prompt: { ...plan.prompt, date: new Date().toISOString().slice(0, 10) },
    prompts: input.prompts,
    ...(preamble === undefined ? {} : { preamble }),
    history: plannedSession.history,
    interactive: input.interactive,
    maxTurns,
    maxConversationChars: conversationLimit(plan.provider.contextWindow),
    model: { id: provider.model, contextWindow: plan.provider.contextWindow },
    toolTimeoutMs: plan.toolTimeoutMs + 5_000,
  });
  const pricing = plan.provider.pricing;
  const stopState = () => ({
    usage: runUsage,
    costUsd: pricing === undefined ? null : usageCost(runUsage, pricing.prices, pricing.provider),
    fatal: cancellation.fatal,
    cancelled: cancellation.reason,
    inputError,
    closingTurns,
    maxTurns,
  });
  // The package the sandbox mounts at /zotbox exists while a run of the plan holds it (entry.pre included).
  const releaseImage = plan.holdImage();
  const running = runPreForRun(plan, queue, cancellation.signal)
    .then((preamble) => {
      const onWorker = pool[RUN_TASK](task(preamble));
      // After a hard stop the run no longer waits for its task; whatever the task
      // does later is expected and has nobody to tell.
      onWorker.catch(() => undefined);
      return Promise.race([onWorker, cancellation.hardStop]);
    })
    .then(
      (result) => endFromOutcome(result, stopState()),
      (thrown: unknown) => endFromThrown(thrown, stopState()),
    )
    // Written before run.end, so a transcript that cannot be written is part of how the run ended.
    .then((end) => queue.push(recorder === undefined || options.recordFile === undefined ? end : withRecording(end, recorder, options.recordFile)))
    .finally(() => {
      cancellation.settle();
      sessionWriter?.close();
      gate.close();
      model.close();
      gateChannel.port1.close();
      modelChannel.port1.close();
      options.signal?.removeEventListener('abort', onAbort);
      releaseImage();
      release();
      queue.finish();
    });
  let finished = false;
  try {
    yield* queue.drain();
    finished = true;
  } finally {
    if (!finished) cancellation.cancel();
    await running;
  }
}

/** Model turns allowed for one user message when the caller sets none. */
export const DEFAULT_MAX_TURNS = 50;

/**
 * Writes the run's transcript. A run that cannot keep it fails with the reason,
 * keeping its answer (final_text); a run that already failed says both.
 */
function withRecording(end: RunEvent & { type: 'run.end' }, recorder: RecordingProvider, file: string): RunEvent {
  try {
    recorder.write(file);
    return end;
  } catch (thrown) {
    const failure = toZotboxError(thrown);
    if (end.error === undefined) return { ...end, status: 'failed', error: { code: failure.code, message: failure.message } };
    return { ...end, error: { ...end.error, message: `${end.error.message} The replay transcript was not written either: ${failure.message}` } };
  }
}

/**
 * A conversation longer than this many characters per token of the model's
 * window cannot fit it in any tokenizer the providers use (English prose is about
 * four), so it is never sent, and a run's transcript in memory stays bounded by
 * its model.
 */
const CHARACTERS_PER_TOKEN_CEILING = 8;

function conversationLimit(contextWindow: number): number {
  return Math.min(MAX_CONVERSATION_BYTES, contextWindow * CHARACTERS_PER_TOKEN_CEILING);
}

/** The warnings run.start carries: commands that would run unconfined, and zotbox itself running as root (docs/security.md advises against it). */
function warningsOf(plan: RunPlan): { warnings?: { code: 'unconfined' | 'root'; message: string }[] } {
  const warnings: { code: 'unconfined' | 'root'; message: string }[] = [];
  if (plan.permissions.confinement === 'unconfined' && plan.permissions.bash.mode !== 'none') {
    warnings.push({
      code: 'unconfined',
      message: "commands run UNCONFINED (--confine off): as you, with your files, network and keys, limited only by the gate's checks. Leave out --confine off to run them in the sandbox.",
    });
  }
  if (process.getuid?.() === 0) {
    warnings.push({
      code: 'root',
      message: 'zotbox is running as root: whatever the agent may write or run, it may do with root rights outside the sandbox (docs/security.md). Run zotbox as an ordinary user.',
    });
  }
  return warnings.length === 0 ? {} : { warnings };
}

function startEvent(plan: RunPlan, provider: ModelProvider, session: PlannedSession): RunEvent {
  const { manifest, image, permissions } = plan;
  return {
    type: 'run.start',
    run_id: randomUUID(),
    agent: { name: manifest.name, version: manifest.version, content_digest: image.contentDigest, artifact_digest: image.artifactDigest ?? null, source: plan.source.path },
    model: provider.model,
    workspace: plan.workspace,
    permissions: {
      read: [...permissions.read],
      write: [...permissions.write],
      bash: { mode: permissions.bash.mode, allow: [...permissions.bash.allow] },
      confinement: permissions.confinement,
      ...(permissions.env === undefined ? {} : { env: [...permissions.env] }),
      ...(permissions.net === undefined ? {} : { net: [...permissions.net] }),
    },
    confinement: describeConfinement(plan.confinement),
    limits:
      plan.limits === undefined
        ? { ...commandLimitCeiling(plan.manifest.permissions.limits), enforcement: 'none', description: 'none: unconfined commands are not bounded' }
        : { ...plan.limits.limits, enforcement: plan.limits.enforcement.kind, description: describeLimits(plan.limits) },
    consent: plan.consent,
    ...warningsOf(plan),
    session: session.file === undefined ? null : { id: session.id ?? '', file: session.file, continued: session.history.length > 0 },
    at: new Date().toISOString(),
  };
}

/**
 * Adapts the caller's readPrompt to the model server: asked only once the caller
 * has taken every event so far (a prompt is never drawn above output not yet
 * shown), `first` only on the first call; a message's own signal governs its answer.
 */
function readInputFrom(
  readPrompt: NonNullable<ExecuteRunOptions['readPrompt']>,
  run: { readonly greeting: string; readonly queue: EventQueue; readonly answers: AnswerCancellation; readonly signal: AbortSignal },
): () => Promise<string | undefined> {
  let first = true;
  return async () => {
    await run.queue.idle();
    if (run.signal.aborted) return undefined;
    const context = { first, greeting: run.greeting };
    first = false;
    const message = await readPrompt(context);
    if (message === undefined || typeof message === 'string') {
      run.answers.begin(undefined);
      return message;
    }
    run.answers.begin(message.signal);
    return message.text;
  };
}
