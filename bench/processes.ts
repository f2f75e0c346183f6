// npm run bench -- processes
// The pool's agent loops on worker threads against pool processes (issue 26 §3):
// the same batch of code-reviewer runs (two turns, one read) through one prepared
// plan, against a loopback model in its own process that answers each turn after
// a short delay, so the host's own work per turn dominates. Threads (2) are the
// baseline, measured in the same run; each process pool is printed as its
// throughput's ratio to it, with how busy the host's main thread was (near 100%,
// it is what bounds the batch) and how busy the whole machine was (near 100%, no
// core is left for another pool process; the model server and other work share it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { executeRun } from '../src/host/run/execute-run.js';
import { AgentPool, type AgentPoolOptions } from '../src/host/run/pool.js';
import { prepareRun, type RunPlan } from '../src/host/run/run-plan.js';
import { formatTable } from './harness.js';
import { startModel } from './scale.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const reviewer = path.join(repoRoot, 'examples', 'code-reviewer');
const workspace = path.join(repoRoot, 'examples', 'workspaces', 'sample-project');
const MODEL_DELAY_MS = 20;
const RUNS = 400;
const SAMPLES = 3;

const POOLS: readonly { readonly name: string; readonly options: AgentPoolOptions }[] = [
  { name: 'threads: 2 (baseline)', options: { maxThreads: 2 } },
  { name: 'processes: 1', options: { processes: 1, confine: 'off' } },
  { name: 'processes: 2', options: { processes: 2, confine: 'off' } },
  { name: 'processes: 2, in bubblewrap', options: { processes: 2, confine: 'required' } },
];

async function runOnce(plan: RunPlan, pool: AgentPool, index: number): Promise<void> {
  for await (const event of executeRun(plan, { prompt: `Review the code (run ${index}).`, session: 'none', pool })) {
    if (event.type === 'run.end' && event.status !== 'completed') throw new Error(`bench run ${index} ended ${event.status}: ${event.error?.message ?? ''}`);
  }
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU time of the host's main thread alone (the gate, the providers, the events, the frames), from /proc. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1000; // utime, stime
}

/** The machine's busy and total CPU time so far, in clock ticks over every core (/proc/stat's "cpu" line). */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const values = fields.map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle, iowait
  const total = values.slice(0, 8).reduce((sum, value) => sum + value, 0); // up to steal; guest time is inside user
  return { busy: total - idle, total };
}

/** Median wall time of a batch of RUNS runs on a pool of this kind, after a warm-up batch, and how busy the main thread was. */
async function batchWall(plan: RunPlan, options: AgentPoolOptions): Promise<{ wall: number; mainBusy: number; machineBusy: number }> {
  const pool = new AgentPool({ ...options, maxRuns: RUNS });
  try {
    await Promise.all(Array.from({ length: 40 }, (_, i) => runOnce(plan, pool, i))); // warm the workers and the JIT
    const samples: { wall: number; mainBusy: number; machineBusy: number }[] = [];
    for (let sample = 0; sample < SAMPLES; sample++) {
      const started = process.hrtime.bigint();
      const cpuBefore = mainThreadCpuMs();
      const machineBefore = machineTicks();
      await Promise.all(Array.from({ length: RUNS }, (_, i) => runOnce(plan, pool, i)));
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      const machineAfter = machineTicks();
      const machineBusy = (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total);
      samples.push({ wall, mainBusy: (mainThreadCpuMs() - cpuBefore) / wall, machineBusy });
    }
    return samples.sort((a, b) => a.wall - b.wall)[Math.floor(SAMPLES / 2)]!;
  } finally {
    await pool.close();
  }
}

export async function runProcessesBench(): Promise<void> {
  const model = await startModel(MODEL_DELAY_MS);
  const state = mkdtempSync(path.join(tmpdir(), 'zb-bench-processes-'));
  try {
    const env = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `${model.base}/v1` };
    const plan = await prepareRun({ reference: reviewer, cwd: workspace, yes: true, env, stateDirectory: state, model: 'gpt-4.1', modelConcurrency: RUNS });
    const rows: string[][] = [];
    let baseline: number | undefined;
    for (const pool of POOLS) {
      const { wall, mainBusy, machineBusy } = await batchWall(plan, pool.options);
      baseline ??= wall;
      const perSecond = (RUNS / wall) * 1000;
      rows.push([pool.name, `${wall.toFixed(0)} ms`, perSecond.toFixed(1), `${(baseline / wall).toFixed(2)}×`, `${(mainBusy * 100).toFixed(0)}%`, `${(machineBusy * 100).toFixed(0)}%`]);
    }
    process.stdout.write(`${RUNS} runs at once (2 turns, 1 read), model ${MODEL_DELAY_MS} ms per turn; median of ${SAMPLES} batches; ${availableParallelism()} cores\n`);
    process.stdout.write(`${formatTable(['pool', 'wall', 'runs/s', 'throughput vs threads', "host main thread's CPU ÷ wall", 'machine CPU busy (all cores)'], rows)}\n`);
  } finally {
    model.stop();
    rmSync(state, { recursive: true, force: true });
  }
}
