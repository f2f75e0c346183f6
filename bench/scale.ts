// npm run bench -- scale
// Many agents at once (issue 11). Side by side, in one run, against a loopback
// OpenAI-format model in its own process that takes 1,000 ms per turn:
//  - 1,000 code-reviewer runs (two turns, one read) through one prepared plan on
//    one AgentPool in this process: wall time against the model's own time for the
//    batch (two turns), peak model requests in flight, peak RSS, RSS per run, and
//    this process's CPU (process.cpuUsage, all threads) per model turn; then the
//    same batch again at once (warm: the hot code already optimised).
//  - the floor: the same 1,000 agents as a plain Promise.all loop over an OpenAI
//    SDK client in this process (same turns, the read done with fs, no gate, no
//    sandbox): zotbox's wall time and CPU per turn against it.
//  - the same work as one `zotbox run` process per agent, as many at once as cores
//    (process per agent): runs per second for both, and the ratio.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { executeRun } from '../src/host/run/execute-run.js';
import { AgentPool } from '../src/host/run/pool.js';
import { prepareRun, type RunPlan } from '../src/host/run/run-plan.js';
import OpenAI from 'openai';
import { formatTable } from './harness.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const reviewer = path.join(repoRoot, 'examples', 'code-reviewer');
const workspace = path.join(repoRoot, 'examples', 'workspaces', 'sample-project');
const MODEL_DELAY_MS = 1_000;
const TURNS_PER_RUN = 2;
const RUNS = 1_000;
const PROCESS_RUNS = 16;

export interface LoopbackModel {
  readonly base: string;
  stats(): Promise<{ requests: number; peakInFlight: number; connections: number }>;
  reset(): Promise<void>;
  stop(): void;
}

/** The loopback model in its own process, answering every turn after `delayMs`. */
export async function startModel(delayMs = MODEL_DELAY_MS): Promise<LoopbackModel> {
  const child: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/loopback-model.js', import.meta.url)), '--delay', String(delayMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const base = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  return {
    base,
    stats: async () => (await (await fetch(`${base}/stats`)).json()) as { requests: number; peakInFlight: number; connections: number },
    reset: async () => void (await fetch(`${base}/reset`, { method: 'POST' })).body?.cancel(),
    stop: () => child.kill('SIGTERM'),
  };
}

async function runOnce(plan: RunPlan, pool: AgentPool, index: number): Promise<void> {
  for await (const event of executeRun(plan, { prompt: `Review the code (run ${index}).`, session: 'none', pool })) {
    if (event.type === 'run.end' && event.status !== 'completed') throw new Error(`bench run ${index} ended ${event.status}: ${event.error?.message ?? ''}`);
  }
}

/** Peak RSS of this process (all its threads) while `work` runs, sampled every 20 ms. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRss: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const result = await work();
    return { result, peakRss: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

async function inProcess(model: LoopbackModel, state: string) {
  const env = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `${model.base}/v1` };
  const pool = new AgentPool({ maxThreads: 2, maxRuns: RUNS });
  try {
    const plan = await prepareRun({ reference: reviewer, cwd: workspace, yes: true, env, stateDirectory: state, model: 'gpt-4.1', modelConcurrency: RUNS });
    await Promise.all(Array.from({ length: 20 }, (_, i) => runOnce(plan, pool, i))); // warm the workers and the JIT
    await model.reset();
    global.gc?.();
    const baseRss = process.memoryUsage.rss();
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const { peakRss } = await withPeakRss(() => Promise.all(Array.from({ length: RUNS }, (_, i) => runOnce(plan, pool, i))));
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuMs = cpuMsSince(cpu);
    const stats = await model.stats();
    const warm = await secondBatch(() => Promise.all(Array.from({ length: RUNS }, (_, i) => runOnce(plan, pool, i))));
    return { wallMs, cpuMs, baseRss, peakRss, peakInFlight: stats.peakInFlight, requests: stats.requests, connections: stats.connections, warm };
  } finally {
    await pool.close();
  }
}

/**
 * The same batch again at once, with no garbage collection forced before it: by
 * now the hot code is optimised, so this is what a turn costs a host that has
 * been running (the first batch also pays V8 compiling the code its 20 warm-up
 * runs did not make hot; the forced collection before it throws some compiled
 * code away, and V8 compiles it again during the batch).
 */
async function secondBatch(batch: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await batch();
  return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: cpuMsSince(cpu) };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const READ_TOOL = {
  type: 'function' as const,
  function: { name: 'read', description: 'Read a file in the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
};

/** One agent of the floor: two streamed turns over the SDK, the read done with fs, no gate and no sandbox. */
async function floorAgent(client: OpenAI, index: number): Promise<void> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You review code.' },
    { role: 'user', content: `Review the code (run ${index}).` },
  ];
  for (let turn = 0; turn < TURNS_PER_RUN; turn++) {
    const stream = await client.chat.completions.create({ model: 'gpt-4.1', messages, tools: [READ_TOOL], stream: true, stream_options: { include_usage: true } });
    let content = '';
    const calls: { id: string; name: string; args: string }[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      content += delta?.content ?? '';
      for (const call of delta?.tool_calls ?? []) {
        const slot = (calls[call.index] ??= { id: '', name: '', args: '' });
        slot.id += call.id ?? '';
        slot.name += call.function?.name ?? '';
        slot.args += call.function?.arguments ?? '';
      }
    }
    if (calls.length === 0) return;
    messages.push({ role: 'assistant', content: content || null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) });
    for (const call of calls) {
      const { path: file } = JSON.parse(call.args) as { path: string };
      messages.push({ role: 'tool', tool_call_id: call.id, content: readFileSync(path.join(workspace, file), 'utf8') });
    }
  }
  throw new Error(`floor agent ${index} did not finish in ${TURNS_PER_RUN} turns`);
}

/** The floor: the same agents as a Promise.all loop over one OpenAI SDK client, in this process. */
async function floor(model: LoopbackModel): Promise<{ wallMs: number; cpuMs: number; peakInFlight: number; requests: number; connections: number; warm: { wallMs: number; cpuMs: number } }> {
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL: `${model.base}/v1` }); // the SDK's default retries, as a user gets them
  await Promise.all(Array.from({ length: 20 }, (_, i) => floorAgent(client, i))); // warm the JIT
  await model.reset();
  global.gc?.();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: RUNS }, (_, i) => floorAgent(client, i)));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = cpuMsSince(cpu);
  const stats = await model.stats();
  const warm = await secondBatch(() => Promise.all(Array.from({ length: RUNS }, (_, i) => floorAgent(client, i))));
  return { wallMs, cpuMs, peakInFlight: stats.peakInFlight, requests: stats.requests, connections: stats.connections, warm };
}

async function processPerAgent(model: LoopbackModel, state: string): Promise<{ wallMs: number; runs: number; parallel: number }> {
  const parallel = availableParallelism();
  const zotbox = path.join(repoRoot, 'bin', 'zotbox.js');
  const env = { ...process.env, OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `${model.base}/v1`, ZOTBOX_HOME: state };
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [zotbox, 'run', reviewer, `Review the code (run ${i}).`, '--model', 'gpt-4.1', '-y', '--no-session'], {
        cwd: workspace,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (piece: Buffer) => (stderr += piece.toString()));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`zotbox run exited ${String(code)}: ${stderr}`))));
    });
  spawnSync(process.execPath, [zotbox, '--version']); // warm the file cache
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < PROCESS_RUNS) await one(next++);
    }),
  );
  return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, runs: PROCESS_RUNS, parallel };
}

export async function runScaleBench(): Promise<void> {
  const state = mkdtempSync(path.join(tmpdir(), 'zb-bench-scale-'));
  const model = await startModel();
  try {
    const engine = await inProcess(model, state);
    const bare = await floor(model);
    const processes = await processPerAgent(model, state);
    const modelMs = MODEL_DELAY_MS * TURNS_PER_RUN;
    const engineRate = RUNS / (engine.wallMs / 1000);
    const processRate = processes.runs / (processes.wallMs / 1000);
    const perRunMiB = (engine.peakRss - engine.baseRss) / 2 ** 20 / Math.max(1, engine.peakInFlight);
    const mark = (ok: boolean) => (ok ? '✔' : '✘');
    const turns = RUNS * TURNS_PER_RUN;
    const cpuPerTurn = engine.cpuMs / turns;
    const floorCpuPerTurn = bare.cpuMs / turns;
    const rows = [
      [
        `${RUNS} runs, one pool of 2 threads: wall`,
        `${engine.wallMs.toFixed(0)} ms`,
        `the model's own time (${TURNS_PER_RUN} turns × ${MODEL_DELAY_MS} ms)`,
        `${modelMs} ms`,
        `${(engine.wallMs / modelMs).toFixed(2)}×`,
        `≤ 1.5× ${mark(engine.wallMs <= 1.5 * modelMs)}`,
      ],
      [
        `${RUNS} runs: wall`,
        `${engine.wallMs.toFixed(0)} ms`,
        `the floor: Promise.all over an OpenAI SDK client, no gate, no sandbox (peak in flight ${bare.peakInFlight}, ${bare.requests} requests)`,
        `${bare.wallMs.toFixed(0)} ms`,
        `${(engine.wallMs / bare.wallMs).toFixed(2)}×`,
        `≤ 1.3× ${mark(engine.wallMs <= 1.3 * bare.wallMs)}`,
      ],
      [
        'host CPU per model turn (process.cpuUsage, all threads)',
        `${cpuPerTurn.toFixed(2)} ms`,
        `the floor (${bare.cpuMs.toFixed(0)} ms for ${turns} turns)`,
        `${floorCpuPerTurn.toFixed(2)} ms`,
        `${(cpuPerTurn / floorCpuPerTurn).toFixed(2)}×`,
        `≤ 0.5 ms ${mark(cpuPerTurn <= 0.5)}`,
      ],
      [
        'host CPU per model turn, second batch (warm)',
        `${(engine.warm.cpuMs / turns).toFixed(2)} ms`,
        `the floor's second batch (${bare.warm.cpuMs.toFixed(0)} ms for ${turns} turns)`,
        `${(bare.warm.cpuMs / turns).toFixed(2)} ms`,
        `${(engine.warm.cpuMs / bare.warm.cpuMs).toFixed(2)}×`,
        `≤ 0.5 ms ${mark(engine.warm.cpuMs / turns <= 0.5)}`,
      ],
      [
        `${RUNS} runs, second batch: wall`,
        `${engine.warm.wallMs.toFixed(0)} ms`,
        `the model's own time; the floor's second batch ${bare.warm.wallMs.toFixed(0)} ms (${(engine.warm.wallMs / bare.warm.wallMs).toFixed(2)}×)`,
        `${modelMs} ms`,
        `${(engine.warm.wallMs / modelMs).toFixed(2)}×`,
        `≤ 1.5× ${mark(engine.warm.wallMs <= 1.5 * modelMs)}`,
      ],
      [
        'peak model requests in flight',
        String(engine.peakInFlight),
        `runs (${engine.requests} requests)`,
        String(RUNS),
        `${((engine.peakInFlight / RUNS) * 100).toFixed(1)}%`,
        `≥ 950 ${mark(engine.peakInFlight >= 950)}`,
      ],
      ['TCP connections opened to the model (batch)', String(engine.connections), `the floor (${bare.requests} requests)`, String(bare.connections), '', ''],
      ['peak RSS (whole process)', `${(engine.peakRss / 2 ** 20).toFixed(0)} MiB`, 'RSS before the batch', `${(engine.baseRss / 2 ** 20).toFixed(0)} MiB`, '', ''],
      ['RSS per run in flight', `${perRunMiB.toFixed(2)} MiB`, '', '', '', `≤ 2 MiB ${mark(perRunMiB <= 2)}`],
      [
        'runs per second',
        engineRate.toFixed(1),
        `one \`zotbox run\` process per agent, ${processes.parallel} at once (${processes.runs} runs)`,
        processRate.toFixed(2),
        `${(engineRate / processRate).toFixed(0)}×`,
        `≥ 20× ${mark(engineRate / processRate >= 20)}`,
      ],
    ];
    process.stdout.write(formatTable(['measure', 'zotbox', 'baseline', 'baseline value', 'ratio', 'target'], rows));
  } finally {
    model.stop();
    rmSync(state, { recursive: true, force: true });
  }
}
