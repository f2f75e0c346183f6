// The worker pool (piscina): workers start with an empty environment (no API
// keys, no user variables) and a memory limit, and each runs several agent runs
// at once. A crash or out-of-memory fails only the runs on that worker; piscina
// replaces it and the host stays up.
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { AgentTask, AgentTaskOutcome } from '../../worker/pool-task.js';

export interface AgentPoolOptions {
  /** Old-generation heap per worker, in MiB. */
  readonly maxOldGenerationSizeMb?: number;
  readonly maxThreads?: number;
  readonly concurrentTasksPerWorker?: number;
  /** The module a worker runs (default: the agent task). Tests pass their own to inspect a worker. */
  readonly workerFile?: URL;
}

export type AgentTaskResult = AgentTaskOutcome;

export class AgentPool {
  private readonly piscina: Piscina<AgentTask, AgentTaskResult>;

  constructor(options: AgentPoolOptions = {}) {
    this.piscina = new Piscina({
      filename: fileURLToPath(options.workerFile ?? new URL('../../worker/pool-task.js', import.meta.url)),
      env: {},
      // piscina loads the task with require() first. On Node 20.19+ that is
      // require(esm), whose synchronous instantiation aborted the whole host
      // process once in CI (V8 fatal "IsGraphAsync must be used on an
      // instantiated module", piscina worker.js getHandler) around a worker being
      // stopped. With require(esm) off in workers, piscina falls back to
      // import(), where a stopped worker is just a stopped worker.
      execArgv: ['--no-experimental-require-module'],
      resourceLimits: { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 512 },
      concurrentTasksPerWorker: options.concurrentTasksPerWorker ?? 4,
      ...(options.maxThreads === undefined ? {} : { maxThreads: options.maxThreads, minThreads: Math.min(1, options.maxThreads) }),
      idleTimeout: 30_000,
    });
  }

  /** Runs one agent task on a worker; the ports move to the worker. */
  run(task: AgentTask, signal?: AbortSignal): Promise<AgentTaskResult> {
    return this.piscina.run(task, { transferList: [task.gatePort, task.modelPort].filter((port) => port !== undefined) as never, ...(signal === undefined ? {} : { signal }) });
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
