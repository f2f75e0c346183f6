// --max-cost needs a price for every model that can spend (issue 27 §6): a cap on
// money counts only priced runs and judges, so a model without prices would spend
// without limit while the cap looked set. Checked once the eval is planned, before
// consent and before any case starts; replayed runs spend nothing and need none.
import { ZotboxError } from '../../errors.js';
import { formatCost } from '../models/format-cost.js';
import { BUILT_IN_MODELS, readUserModels, selectModel, userModelsFile } from '../models/model-catalog.js';
import type { EvalPlan, PlannedCase } from './eval-plan.js';

export interface CostCapInput {
  readonly plan: EvalPlan;
  readonly maxCostUsd: number;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stateDirectory: string;
  /** --model: overrides every suite's model. */
  readonly model?: string;
}

/** Throws ZB_EVAL_COST_UNKNOWN naming each model a selected case would run or judge with that has no prices. */
export function refuseUnpricedModels(input: CostCapInput): void {
  const unpriced = new Map<string, string[]>();
  const note = (model: string, use: string) => {
    const uses = unpriced.get(model) ?? [];
    if (!uses.includes(use)) uses.push(use);
    unpriced.set(model, uses);
  };
  const catalog = [...BUILT_IN_MODELS, ...readUserModels(input.stateDirectory)];
  for (const planned of input.plan.cases) {
    const runModel = planned.replay === undefined ? runModelOf(planned, input, catalog) : undefined;
    if (runModel !== undefined && runModel.prices === undefined) note(runModel.id, `runs suite ${planned.suite.loaded.name}`);
    for (const expectation of planned.evalCase.expect) {
      const judge = planned.suite.judges.get(expectation);
      if (judge !== undefined && judge.pricing === undefined) note(judge.model, `judges suite ${planned.suite.loaded.name}`);
    }
  }
  if (unpriced.size === 0) return;
  const modelsFile = userModelsFile(input.stateDirectory);
  const named = [...unpriced].map(([model, uses]) => `${model} (${uses.join(', ')})`).join('; ');
  throw new ZotboxError(
    'ZB_EVAL_COST_UNKNOWN',
    `--max-cost ${input.maxCostUsd} (${formatCost(input.maxCostUsd)}) cannot cap this eval: ${unpriced.size === 1 ? 'this model has' : 'these models have'} no prices, so what ${unpriced.size === 1 ? 'it spends' : 'they spend'} would not count: ${named}. Fix: add "prices": {"input": USD, "output": USD} (per million tokens) to ${unpriced.size === 1 ? 'its entry' : 'their entries'} in ${modelsFile} (docs/models.md), choose a priced model with --model, or cap tokens with --max-tokens instead.`,
    { details: { models: [...unpriced.keys()], modelsFile } },
  );
}

/**
 * The model a live case runs with, chosen as prepareRun will choose it. A case
 * whose model cannot be chosen (unknown, no key) spends nothing: it fails on its
 * own when it starts, with that error, so it is passed over here.
 */
function runModelOf(planned: PlannedCase, input: CostCapInput, catalog: Parameters<typeof selectModel>[0]['catalog']): { id: string; prices?: unknown } | undefined {
  const explicit = input.model ?? planned.suite.loaded.suite.model;
  try {
    return selectModel({ manifest: planned.suite.agent.layout.manifest, env: input.env, catalog, ...(explicit === undefined ? {} : { explicit }) });
  } catch (error) {
    if (error instanceof ZotboxError) return undefined; // the case reports this error itself, and spends nothing
    throw error;
  }
}
