// Which model a plan talks to, decided once when the run is prepared: a replay
// transcript (read and checked now, played afresh by each run), or a model from
// the catalog with its provider, key and base URL. Returns a factory, because a
// provider may hold per-run state (a replay's position); the endpoint budget is
// shared by every provider made for the same endpoint.
import type { Manifest } from '../../policy/manifest.js';
import type { ModelEndpoints } from '../providers/model-endpoints.js';
import type { ModelProvider } from '../providers/provider.js';
import { ReplayProvider, readReplayTranscript } from '../providers/replay.js';
import { BUILT_IN_MODELS, readUserModels, selectModel, userModelsFile, type ProviderName } from './model-catalog.js';
import type { ModelPrices } from './model-prices.js';
import { endpointHostOf, providerForModel } from './provider-for-model.js';

export interface ProviderChoice {
  /** The model's id, as run.start reports it. */
  readonly model: string;
  /** The model's context window in tokens; a replay has none of its own and gets the largest in the catalog. */
  readonly contextWindow: number;
  /** USD per million tokens and the wire format (which decides how cached input is counted); undefined: the cost is unknown (a replay, a model without prices). */
  readonly pricing?: { readonly prices: ModelPrices; readonly provider: ProviderName };
  /** The model endpoint its runs talk to (`provider base-url`); undefined for a replay. */
  readonly endpoint?: string;
  /** The host its requests go to; absent for a replay, which sends nothing. */
  readonly endpointHost?: string;
  /** A provider for one run. */
  create(): ModelProvider;
}

export interface SelectProviderInput {
  readonly manifest: Manifest;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stateDirectory: string;
  readonly replayFile?: string;
  readonly explicitModel?: string;
  /** The model budget to draw on (default: the process's). */
  readonly endpoints?: ModelEndpoints;
  /** The concurrency limit for the model's endpoint; else the model's max_concurrency, else the default. */
  readonly maxConcurrency?: number;
}

export function selectProvider(input: SelectProviderInput): ProviderChoice {
  if (input.replayFile !== undefined) {
    const transcript = readReplayTranscript(input.replayFile);
    return { model: `replay (recorded with ${transcript.model})`, contextWindow: Math.max(...BUILT_IN_MODELS.map((m) => m.contextWindow)), create: () => new ReplayProvider(transcript) };
  }
  const { env } = input;
  const model = selectModel({
    manifest: input.manifest,
    env,
    catalog: [...BUILT_IN_MODELS, ...readUserModels(input.stateDirectory)],
    modelsFile: userModelsFile(input.stateDirectory),
    ...(input.explicitModel === undefined ? {} : { explicit: input.explicitModel }),
  });
  // Built now, so a bad base URL or limit is refused before consent. A live
  // provider holds only its configuration and its endpoint: every run shares it.
  const live = providerForModel({
    model,
    env,
    ...(input.endpoints === undefined ? {} : { endpoints: input.endpoints }),
    ...(input.maxConcurrency === undefined ? {} : { maxConcurrency: input.maxConcurrency }),
  });
  return {
    model: model.id,
    contextWindow: model.contextWindow,
    endpointHost: endpointHostOf(model, env),
    ...(model.prices === undefined ? {} : { pricing: { prices: model.prices, provider: model.provider } }),
    ...(live.endpointKey === undefined ? {} : { endpoint: live.endpointKey }),
    create: () => live,
  };
}
