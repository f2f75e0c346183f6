// The model catalog and model selection (spec B §8.1 with Part A): built-in
// models plus a user models file for self-hosted ones; selection is explicit →
// configured default (ZOTBOX_MODEL) → the agent's model.preferred → any
// compatible model whose provider has credentials → an error naming what is
// unmet. It runs before consent, and a model that no catalog knows, asked for
// with --model or ZOTBOX_MODEL, is an error (zot silently bypasses the requirements there).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ZotboxError, didYouMean } from '../../errors.js';
import type { Manifest } from '../../policy/manifest.js';
import type { ModelPrices } from './model-prices.js';

export type ProviderName = 'anthropic' | 'openai';

export interface CatalogModel {
  readonly id: string;
  readonly provider: ProviderName;
  readonly contextWindow: number;
  readonly reasoning: boolean;
  readonly vision: boolean;
  /** For self-hosted models: the server's base URL. */
  readonly baseUrl?: string;
  /** Requests in flight at most on this model's endpoint (models.json max_concurrency). */
  readonly maxConcurrency?: number;
  /** models.json first_byte_timeout_s and idle_timeout_s, in milliseconds (docs/models.md, Timeouts). */
  readonly firstByteTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  /** USD per million tokens; without it a run's cost is unknown (null). */
  readonly prices?: ModelPrices;
  /** models.json `"api_key": "none"`: the server takes no key, so none is needed in the environment. */
  readonly noKey?: boolean;
  /** Where the entry comes from: built in, or the models file at this path. */
  readonly source?: string;
}

/** List prices, USD per million tokens (Anthropic: 5-minute cache writes; OpenAI: no charge to write the cache). */
const price = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrices => ({ input, output, cacheWrite, cacheRead });

export const BUILT_IN_MODELS: readonly CatalogModel[] = [
  { id: 'claude-sonnet-4-5', provider: 'anthropic', contextWindow: 200_000, reasoning: true, vision: true, prices: price(3, 15, 3.75, 0.3) },
  { id: 'claude-opus-4-1', provider: 'anthropic', contextWindow: 200_000, reasoning: true, vision: true, prices: price(15, 75, 18.75, 1.5) },
  { id: 'claude-haiku-4-5', provider: 'anthropic', contextWindow: 200_000, reasoning: true, vision: true, prices: price(1, 5, 1.25, 0.1) },
  { id: 'gpt-4.1', provider: 'openai', contextWindow: 1_047_576, reasoning: false, vision: true, prices: price(2, 8, 2, 0.5) },
  { id: 'gpt-4.1-mini', provider: 'openai', contextWindow: 1_047_576, reasoning: false, vision: true, prices: price(0.4, 1.6, 0.4, 0.1) },
  { id: 'o3', provider: 'openai', contextWindow: 200_000, reasoning: true, vision: true, prices: price(2, 8, 2, 0.5) },
  { id: 'gpt-4o', provider: 'openai', contextWindow: 128_000, reasoning: false, vision: true, prices: price(2.5, 10, 2.5, 1.25) },
];

const UserModelsSchema = z.strictObject({
  models: z.array(
    z.strictObject({
      id: z.string().min(1),
      provider: z.enum(['anthropic', 'openai']),
      base_url: z.url().optional(),
      context_window: z.number().int().positive(),
      reasoning: z.boolean().default(false),
      vision: z.boolean().default(false),
      max_concurrency: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
      first_byte_timeout_s: z.number().positive().max(86_400).optional(),
      idle_timeout_s: z.number().positive().max(86_400).optional(),
      /** "none": the server needs no key (a local server); the provider's variable is then not required. */
      api_key: z.literal('none').optional(),
      /** USD per million tokens; cache_write and cache_read default to input (no discount assumed). */
      prices: z
        .strictObject({
          input: z.number().min(0).max(10_000),
          output: z.number().min(0).max(10_000),
          cache_write: z.number().min(0).max(10_000).optional(),
          cache_read: z.number().min(0).max(10_000).optional(),
        })
        .optional(),
    }),
  ),
});

export const API_KEY_VARIABLES: Readonly<Record<ProviderName, string>> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

/** The user models file of a state directory: STATE/models.json. */
export function userModelsFile(stateDirectory: string): string {
  return path.join(stateDirectory, 'models.json');
}

/** The user models file, STATE/models.json; absent means none. */
export function readUserModels(stateDirectory: string): CatalogModel[] {
  const file = userModelsFile(stateDirectory);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return []; // no user models file
  }
  let parsed;
  try {
    parsed = UserModelsSchema.safeParse(JSON.parse(text));
  } catch (cause) {
    throw new ZotboxError('ZB_MODELS_FILE_INVALID', `${file} is not JSON: ${(cause as Error).message}.`, { cause, details: { path: file } });
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ZotboxError('ZB_MODELS_FILE_INVALID', `${file}: ${issue?.path.join('.') || 'the top level'} ${issue?.message ?? 'is invalid'}. See docs/models.md.`, { details: { path: file } });
  }
  return parsed.data.models.map((m) => ({
    id: m.id,
    provider: m.provider,
    contextWindow: m.context_window,
    reasoning: m.reasoning,
    vision: m.vision,
    ...(m.base_url === undefined ? {} : { baseUrl: m.base_url }),
    ...(m.max_concurrency === undefined ? {} : { maxConcurrency: m.max_concurrency }),
    ...(m.first_byte_timeout_s === undefined ? {} : { firstByteTimeoutMs: Math.round(m.first_byte_timeout_s * 1000) }),
    ...(m.idle_timeout_s === undefined ? {} : { idleTimeoutMs: Math.round(m.idle_timeout_s * 1000) }),
    ...(m.prices === undefined ? {} : { prices: price(m.prices.input, m.prices.output, m.prices.cache_write ?? m.prices.input, m.prices.cache_read ?? m.prices.input) }),
    ...(m.api_key === 'none' ? { noKey: true } : {}),
    source: file,
  }));
}

/** Whether the model can be asked with this environment: its provider's key is set, or its entry says it needs none. */
export function hasModelCredentials(model: CatalogModel, env: Readonly<Record<string, string | undefined>>): boolean {
  return model.noKey === true || (env[API_KEY_VARIABLES[model.provider]] ?? '') !== '';
}

/** How to give a model its key, in words: for a self-hosted model, that any value works, or that the entry can say it needs none. */
function keyFix(model: CatalogModel, modelsFile: string): string {
  const key = API_KEY_VARIABLES[model.provider];
  if (model.baseUrl === undefined) return `Fix: set ${key}.`;
  return `Fix: set ${key} (if the server at ${model.baseUrl} checks no key, any value works, e.g. ${key}=none), or add "api_key": "none" to its entry in ${modelsFile}.`;
}

/** The catalog models that meet the agent's requirements (context window and capabilities), in words. */
function modelsThatFit(catalog: readonly CatalogModel[], manifest: Manifest): string {
  const fit = catalog.filter((m) => unmetModelRequirements(m, manifest).length === 0).map((m) => m.id);
  return fit.length === 0 ? 'no catalog model meets them' : `catalog models that do: ${fit.join(', ')}`;
}

/** What the agent requires of a model that this one lacks; empty when compatible. */
export function unmetModelRequirements(model: CatalogModel, manifest: Manifest): string[] {
  const unmet: string[] = [];
  if (model.contextWindow < manifest.model.minContext) unmet.push(`a context window of at least ${manifest.model.minContext} tokens (${model.id} has ${model.contextWindow})`);
  if (manifest.model.requires.includes('reasoning') && !model.reasoning) unmet.push('reasoning');
  if (manifest.model.requires.includes('vision') && !model.vision) unmet.push('vision');
  return unmet;
}

export interface SelectModelInput {
  readonly manifest: Manifest;
  readonly explicit?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly catalog: readonly CatalogModel[];
  /** The user models file, named in messages (STATE/models.json with the real state directory). */
  readonly modelsFile?: string;
}

/**
 * The model ZOTBOX_MODEL names (unset or empty: none). A name in no catalog is an
 * error, as it is for --model; so is a model whose provider key is missing, since
 * such a default could never be used.
 */
function configuredModel(env: Readonly<Record<string, string | undefined>>, catalog: readonly CatalogModel[], modelsFile: string): CatalogModel | undefined {
  const id = env['ZOTBOX_MODEL'];
  if (id === undefined || id === '') return undefined;
  const model = catalog.find((m) => m.id === id);
  if (model === undefined) {
    throw new ZotboxError(
      'ZB_MODEL_UNAVAILABLE',
      `ZOTBOX_MODEL names the model ${JSON.stringify(id)}, which is in no catalog.${didYouMean(
        id,
        catalog.map((m) => m.id),
      )} Fix: set it to a built-in model or one declared in ${modelsFile} (docs/models.md; zotbox models list shows the catalog), or unset it.`,
      { details: { model: id, variable: 'ZOTBOX_MODEL' } },
    );
  }
  const key = API_KEY_VARIABLES[model.provider];
  if (!hasModelCredentials(model, env)) {
    throw new ZotboxError('ZB_PROVIDER_AUTH', `ZOTBOX_MODEL names ${model.id}, which needs ${key} in the environment. ${keyFix(model, modelsFile)} Or change or unset ZOTBOX_MODEL.`, {
      details: { model: model.id, variable: 'ZOTBOX_MODEL' },
    });
  }
  return model;
}

export function selectModel(input: SelectModelInput): CatalogModel {
  const { manifest, env, catalog } = input;
  const modelsFile = input.modelsFile ?? 'the models file, models.json in the state directory';
  const hasCredentials = (model: CatalogModel) => hasModelCredentials(model, env);
  const find = (id: string) => catalog.find((m) => m.id === id);
  if (input.explicit !== undefined) {
    const model = find(input.explicit);
    if (model === undefined) {
      throw new ZotboxError(
        'ZB_MODEL_UNAVAILABLE',
        `model ${JSON.stringify(input.explicit)} is in no catalog.${didYouMean(
          input.explicit,
          catalog.map((m) => m.id),
        )} Declare it in ${modelsFile} with its provider, context_window and capabilities (docs/models.md), so the agent's requirements can be checked, e.g. zotbox models add ${input.explicit} --provider openai --base-url http://127.0.0.1:8080/v1 --context-window 32768.`,
        {
          details: { model: input.explicit },
        },
      );
    }
    const unmet = unmetModelRequirements(model, manifest);
    if (unmet.length > 0)
      throw new ZotboxError(
        'ZB_MODEL_UNAVAILABLE',
        `model ${model.id} does not meet the agent's requirements: it lacks ${unmet.join(' and ')}; ${modelsThatFit(catalog, manifest)}. Fix: choose one with --model, or declare a model that fits in ${modelsFile}.`,
        { details: { model: model.id, unmet } },
      );
    if (!hasCredentials(model))
      throw new ZotboxError('ZB_PROVIDER_AUTH', `model ${model.id} needs ${API_KEY_VARIABLES[model.provider]} in the environment. ${keyFix(model, modelsFile)}`, { details: { model: model.id } });
    return model;
  }
  const usable = (model: CatalogModel | undefined): model is CatalogModel => model !== undefined && unmetModelRequirements(model, manifest).length === 0 && hasCredentials(model);
  const configured = configuredModel(env, catalog, modelsFile);
  // The user's default for every agent: one that lacks what this agent requires is passed over for the agent's own choice.
  if (configured !== undefined && unmetModelRequirements(configured, manifest).length === 0) return configured;
  for (const id of manifest.model.preferred) if (usable(find(id))) return find(id)!;
  const any = catalog.find(usable);
  if (any !== undefined) return any;
  const compatible = catalog.filter((m) => unmetModelRequirements(m, manifest).length === 0);
  throw new ZotboxError(
    'ZB_MODEL_UNAVAILABLE',
    compatible.length === 0
      ? `no catalog model meets the agent's requirements (${[manifest.model.minContext > 0 ? `context ≥ ${manifest.model.minContext}` : '', ...manifest.model.requires].filter(Boolean).join(', ')}). Fix: declare a model that meets them in ${modelsFile} (docs/models.md).`
      : `no model is usable: the compatible ones (${compatible.map((m) => m.id).join(', ')}) need ${[...new Set(compatible.map((m) => API_KEY_VARIABLES[m.provider]))].join(' or ')} in the environment. Or replay a transcript with --replay FILE.`,
  );
}
