// The worker pool (piscina): workers start with an empty environment (no API
// keys, no user variables) and a memory limit, and each interleaves many agent
// runs, which spend their lives waiting on their ports. Up to `maxRuns` runs are
// in flight; later ones queue in order. A crash or out-of-memory fails only the
// runs on that worker; piscina replaces it and the host stays up.
//
// Tasks are never given an AbortSignal: piscina runs a task that has one alone on
// its worker (so it can terminate the thread to abort it), which capped the runs
// in flight at the thread count (issue 11). A run is cancelled through its own
// ports instead, which never touches the runs beside it.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ZotboxError } from '../../errors.js';
import type { AgentTask, AgentTaskOutcome } from '../../worker/pool-task.js';
import type { ConfineMode } from '../executors/confine/mode.js';
import { runOnProcess, startProcessWorkers } from './pool-processes.js';
import type { ProcessWorkers } from './process-workers.js';
// The same FIFO limiter that bounds a model endpoint's requests bounds a pool's runs.
import { ConcurrencyLimiter } from '../providers/concurrency-limiter.js';

export interface AgentPoolOptions {
  /** Old-generation heap per worker, in MiB (default 512). The runs on a worker share it. */
  readonly maxOldGenerationSizeMb?: number;
  /** Worker threads (default: the CPU count, at most 4). Runs are spread over them. */
  readonly maxThreads?: number;
  /** Runs in flight at once, over all threads (default 256). Runs beyond it wait in the order they started. */
  readonly maxRuns?: number;
  /**
   * Run the agent loops in this many pool processes instead of worker threads
   * (maxThreads is then unused): each has no environment, no handles but its
   * pipes, and, unless `confine` is 'off', runs inside bubblewrap (docs/security.md).
   */
  readonly processes?: number;
  /** Pool processes only: 'required' (the default) starts each in bubblewrap or refuses; 'off' starts them unconfined. */
  readonly confine?: ConfineMode;
}

/**
 * The module a worker runs instead of the agent task. Only tests use it (to
 * inspect or crash a worker); the key is not exported by the public API, and the
 * package's exports map keeps this module out of a library user's reach.
 */
export const WORKER_FILE_FOR_TESTS: unique symbol = Symbol('zotbox.workerFileForTests');
/** Tests only: the module a pool process runs to serve WORKER_FILE_FOR_TESTS (test/fixtures/process-test-entry.js). */
export const PROCESS_ENTRY_FOR_TESTS: unique symbol = Symbol('zotbox.processEntryForTests');
type InternalPoolOptions = AgentPoolOptions & { readonly [WORKER_FILE_FOR_TESTS]?: URL; readonly [PROCESS_ENTRY_FOR_TESTS]?: URL };

export type AgentTaskResult = AgentTaskOutcome;

/**
 * executeRun's way into a pool: wait for a slot, run a task. Keyed by symbols the
 * public API does not export, so a library caller can reach a shared pool only
 * through executeRun, whose tasks zotbox builds (never a task of its own making,
 * and never without a slot).
 */
export const ADMIT_RUN: unique symbol = Symbol('zotbox.admitRun');
export const RUN_TASK: unique symbol = Symbol('zotbox.runTask');

/** Tests only: the ids of a process pool's running processes (the launched command's: bubblewrap's, when confined). */
export const PROCESS_IDS_FOR_TESTS: unique symbol = Symbol('zotbox.processIdsForTests');

export const DEFAULT_MAX_RUNS = 256;

export class AgentPool {
  private readonly piscina: Piscina<AgentTask, AgentTaskResult> | undefined;
  private readonly processWorkers: ProcessWorkers | undefined;
  private readonly slots: ConcurrencyLimiter;

  constructor(options: AgentPoolOptions = {}) {
    const threads = options.maxThreads ?? Math.max(1, Math.min(4, availableParallelism()));
    if (!Number.isSafeInteger(threads) || threads < 1) throw new ZotboxError('ZB_OPTION_INVALID', `maxThreads must be a whole number of at least 1 (got ${String(options.maxThreads)}).`);
    const maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
    if (!Number.isSafeInteger(maxRuns) || maxRuns < 1)
      throw new ZotboxError('ZB_OPTION_INVALID', `maxRuns must be a whole number of at least 1 (got ${String(maxRuns)}); it is how many runs the pool keeps in flight at once.`);
    this.slots = new ConcurrencyLimiter(maxRuns);
    const testFile = (options as InternalPoolOptions)[WORKER_FILE_FOR_TESTS];
    const workerFile = testFile ?? new URL('../../worker/pool-task.js', import.meta.url);
    if (options.processes !== undefined) {
      const testEntry = (options as InternalPoolOptions)[PROCESS_ENTRY_FOR_TESTS];
      if (testFile !== undefined && testEntry === undefined) throw new ZotboxError('ZB_INTERNAL_BUG', 'a test worker file for pool processes needs PROCESS_ENTRY_FOR_TESTS.');
      this.piscina = undefined;
      this.processWorkers = startProcessWorkers(options, testFile === undefined || testEntry === undefined ? undefined : { entryFile: testEntry, taskFile: testFile });
      return;
    }
    this.processWorkers = undefined;
    this.piscina = new Piscina({
      filename: fileURLToPath(workerFile),
      env: {},
      // piscina loads the task with require() first. On Node 20.19+ that is
      // require(esm), whose synchronous instantiation aborted the whole host
      // process once in CI (V8 fatal "IsGraphAsync must be used on an
      // instantiated module", piscina worker.js getHandler) around a worker being
      // stopped. With require(esm) off in workers, piscina falls back to
      // import(), where a stopped worker is just a stopped worker.
      execArgv: ['--no-experimental-require-module'],
      resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 512 },
      // The slots bound the runs in flight; piscina never queues. Its least-busy
      // balancer only adds a thread when every worker is full, so all threads
      // start at once, and runs spread over them from the first.
      concurrentTasksPerWorker: this.slots.limit,
      maxThreads: threads,
      minThreads: threads,
      idleTimeout: 30_000,
    });
  }

  /** How many runs the pool keeps in flight at once. */
  get maxRuns(): number {
    return this.slots.limit;
  }

  /** Runs in flight now, and runs waiting for a slot. */
  get load(): { readonly inFlight: number; readonly queued: number } {
    return { inFlight: this.slots.held, queued: this.slots.queued };
  }

  /** How a run that asked for a slot now would wait (runs ahead of it, the limit); undefined when it would not. */
  get wait(): { readonly ahead: number; readonly limit: number } | undefined {
    return this.slots.mustWait ? { ahead: this.slots.queued, limit: this.slots.limit } : undefined;
  }

  /**
   * Waits for a run slot (in order). The run holds it until it calls the release,
   * which it must do exactly once when it ends; an aborted wait takes no slot.
   */
  async [ADMIT_RUN](signal: AbortSignal = new AbortController().signal): Promise<() => void> {
    const slot = await this.slots.acquire(signal);
    return () => slot.release();
  }

  /** Runs one agent task on a worker; the ports move to the worker. The caller holds a slot. */
  [RUN_TASK](task: AgentTask): Promise<AgentTaskResult> {
    if (this.processWorkers !== undefined) return runOnProcess(this.processWorkers, task);
    // Tests hand the pool tasks without ports (to inspect a worker); only real ports move.
    const ports: (MessagePort | undefined)[] = [task.gatePort, task.modelPort];
    return this.piscina!.run(task, { transferList: ports.filter((port) => port !== undefined) as never });
  }

  [PROCESS_IDS_FOR_TESTS](): number[] {
    return this.processWorkers?.pids ?? [];
  }

  async close(): Promise<void> {
    await this.processWorkers?.close();
    await this.piscina?.destroy();
  }
}
