// The AgentPool's choices for pool processes (issue 26 §3): how many, whether
// they start in bubblewrap, and how a task is split into the data a process is
// sent and the ports that stay in the host. Kept apart from pool.ts, whose
// thread pool it leaves as it was.
import { realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import { z } from 'zod';
import { ZotboxError } from '../../errors.js';
import { TaskOutcomeSchema, type PortName } from '../../policy/process-frames.js';
import type { AgentTask, AgentTaskOutcome } from '../../worker/pool-task.js';
import { confinementUnavailable, resolveConfinement, type ConfineMode } from '../executors/confine/mode.js';
import { processSandbox } from './process-sandbox.js';
import { ProcessWorkers } from './process-workers.js';

export interface PoolProcessOptions {
  readonly processes?: number;
  readonly confine?: ConfineMode;
  readonly maxOldGenerationSizeMb?: number;
}

/** A test's task for the processes: the entry that serves it, and the task module (whose results are its own, not an agent task's outcome). */
export interface ProcessTestTask {
  readonly entryFile: URL;
  readonly taskFile: URL;
}

/** Starts the processes: each runs worker/process-entry.js, or a test's entry and task. */
export function startProcessWorkers(options: PoolProcessOptions, testTask: ProcessTestTask | undefined): ProcessWorkers {
  const processes = options.processes;
  if (processes === undefined || !Number.isSafeInteger(processes) || processes < 1 || processes > 256)
    throw new ZotboxError('ZB_OPTION_INVALID', `processes must be a whole number from 1 to 256 (got ${String(processes)}); it is how many pool processes run the agent loops.`);
  const confinement = resolveConfinement(options.confine ?? 'required');
  if (confinement.kind === 'unavailable') throw confinementUnavailable(confinement);
  const entryFile = testTask?.entryFile ?? new URL('../../worker/process-entry.js', import.meta.url);
  const taskFile = testTask === undefined ? [] : [pathToFileURL(realpathSync(fileURLToPath(testTask.taskFile))).href];
  return new ProcessWorkers({
    processes,
    maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 512,
    entryFile,
    entryArgs: taskFile,
    resultSchema: testTask === undefined ? TaskOutcomeSchema : z.unknown(),
    ...(confinement.kind === 'bubblewrap' ? { launcher: processSandbox(confinement.bwrap, testTask === undefined ? [] : [testTask.entryFile, testTask.taskFile]) } : {}),
  });
}

/** The schema a process's result is checked against admits every outcome the agent task returns (a compile-time check). */
export const OUTCOME_SCHEMA_COVERS_TASK: AgentTaskOutcome extends z.infer<typeof TaskOutcomeSchema> ? true : never = true;

/** Runs a task on a process: its ports stay here, the rest is sent. */
export function runOnProcess(workers: ProcessWorkers, task: AgentTask): Promise<AgentTaskOutcome> {
  const { gatePort, modelPort, ...data } = task;
  // Tests hand the pool tasks without ports (to inspect a worker), as they do a thread.
  const given: [PortName, MessagePort | undefined][] = [
    ['gate', gatePort],
    ['model', modelPort],
  ];
  const ports = new Map(given.filter((entry): entry is [PortName, MessagePort] => entry[1] !== undefined));
  return workers.run(data, ports) as Promise<AgentTaskOutcome>;
}
