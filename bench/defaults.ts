// npm run bench -- defaults
// Defaults that fit many agents (issue 26, item 1): 100 code-reviewer runs (two
// turns, one read) at once against a loopback OpenAI-format model that takes
// 300 ms per turn, on a default AgentPool, three ways, each with a fresh model
// budget: the defaults (the adaptive endpoint limit), a hand-tuned
// modelConcurrency: 100, and the old fixed default of 8. Median wall time of
// alternating rounds; the defaults against hand-tuned is printed as a ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelEndpoints } from '../src/host/providers/model-endpoints.js';
import { executeRun } from '../src/host/run/execute-run.js';
import { AgentPool } from '../src/host/run/pool.js';
import { prepareRun, type RunPlan } from '../src/host/run/run-plan.js';
import { formatTable } from './harness.js';
import { startModel } from './scale.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const reviewer = path.join(repoRoot, 'examples', 'code-reviewer');
const workspace = path.join(repoRoot, 'examples', 'workspaces', 'sample-project');
const AGENTS = 100;
const MODEL_DELAY_MS = 300;
const TURNS_PER_RUN = 2;
const ROUNDS = 5;

interface Setup {
  readonly name: string;
  readonly endpoints: () => ModelEndpoints;
  readonly modelConcurrency?: number;
}

const SETUPS: readonly Setup[] = [
  { name: 'defaults (adaptive limit)', endpoints: () => new ModelEndpoints() },
  { name: `hand-tuned modelConcurrency: ${AGENTS}`, endpoints: () => new ModelEndpoints(), modelConcurrency: AGENTS },
  { name: 'the old fixed default (8)', endpoints: () => new ModelEndpoints({ defaultConcurrency: 8 }) },
];

async function batch(plan: RunPlan, pool: AgentPool): Promise<{ wallMs: number; queued: number }> {
  let queued = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: AGENTS }, async (_, i) => {
      for await (const event of executeRun(plan, { prompt: `Review the code (run ${i}).`, session: 'none', pool })) {
        if (event.type === 'run.queued') queued++;
        if (event.type === 'run.end' && event.status !== 'completed') throw new Error(`bench run ${i} ended ${event.status}: ${event.error?.message ?? ''}`);
      }
    }),
  );
  return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, queued };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function runDefaultsBench(): Promise<void> {
  const state = mkdtempSync(path.join(tmpdir(), 'zb-bench-defaults-'));
  const model = await startModel(MODEL_DELAY_MS);
  // A default pool, as a new user makes it.
  const pool = new AgentPool();
  const env = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: `${model.base}/v1` };
  const budgets: ModelEndpoints[] = [];
  try {
    const plans: RunPlan[] = [];
    for (const setup of SETUPS) {
      const modelEndpoints = setup.endpoints();
      budgets.push(modelEndpoints);
      plans.push(
        await prepareRun({
          reference: reviewer,
          cwd: workspace,
          yes: true,
          env,
          stateDirectory: state,
          model: 'gpt-4.1',
          modelEndpoints,
          ...(setup.modelConcurrency === undefined ? {} : { modelConcurrency: setup.modelConcurrency }),
        }),
      );
    }
    for (const plan of plans) await batch(plan, pool); // warm the workers, the JIT and each budget's connections
    const walls: number[][] = SETUPS.map(() => []);
    const queued: number[][] = SETUPS.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, plan] of plans.entries()) {
        const result = await batch(plan, pool);
        walls[index]!.push(result.wallMs);
        queued[index]!.push(result.queued);
      }
    }
    const modelMs = MODEL_DELAY_MS * TURNS_PER_RUN;
    const tuned = median(walls[1]!);
    const rows = SETUPS.map((setup, index) => {
      const wall = median(walls[index]!);
      return [setup.name, `${wall.toFixed(0)} ms`, `${(wall / modelMs).toFixed(2)}×`, `${(wall / tuned).toFixed(2)}×`, String(median(queued[index]!))];
    });
    console.log(`${AGENTS} runs at once (${TURNS_PER_RUN} turns, ${MODEL_DELAY_MS} ms per turn), default AgentPool, median of ${ROUNDS} rounds`);
    console.log(formatTable(['setup', 'wall', "vs the model's own time", 'vs hand-tuned', 'run.queued events'], rows));
    const ratio = median(walls[0]!) / tuned;
    console.log(`defaults / hand-tuned: ${ratio.toFixed(2)}× (target ≤ 1.20×) ${ratio <= 1.2 ? '✔' : '✘'}`);
  } finally {
    await pool.close();
    await Promise.all(budgets.map((budget) => budget.close()));
    model.stop();
    rmSync(state, { recursive: true, force: true });
  }
}
