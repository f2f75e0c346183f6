// Which model a plan talks to, decided once when the run is prepared: a replay
// transcript (read and checked now, played afresh by each run), or a model from
// the catalog with its provider, key and base URL. Returns a factory, because a
// provider may hold per-run state (a replay's position); the endpoint budget is
// shared by every provider made for the same endpoint.
import type { Manifest } from '../../policy/manifest.js';
import { AnthropicProvider } from '../providers/anthropic.js';
import { OpenAiProvider } from '../providers/openai.js';
import type { ModelProvider } from '../providers/provider.js';
import { ReplayProvider, readReplayTranscript } from '../providers/replay.js';
import { API_KEY_VARIABLES, BUILT_IN_MODELS, readUserModels, selectModel } from './model-catalog.js';

export interface ProviderChoice {
  /** The model's id, as run.start reports it. */
  readonly model: string;
  /** The model's context window in tokens, when the catalog knows it (replay: unknown). */
  readonly contextWindow: number | undefined;
  /** A provider for one run. */
  create(): ModelProvider;
}

export interface SelectProviderInput {
  readonly manifest: Manifest;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stateDirectory: string;
  readonly replayFile?: string;
  readonly explicitModel?: string;
}

export function selectProvider(input: SelectProviderInput): ProviderChoice {
  if (input.replayFile !== undefined) {
    const transcript = readReplayTranscript(input.replayFile);
    return { model: `replay (recorded with ${transcript.model})`, contextWindow: undefined, create: () => new ReplayProvider(transcript) };
  }
  const { env } = input;
  const model = selectModel({ manifest: input.manifest, env, catalog: [...BUILT_IN_MODELS, ...readUserModels(input.stateDirectory)], ...(input.explicitModel === undefined ? {} : { explicit: input.explicitModel }) });
  const apiKey = env[API_KEY_VARIABLES[model.provider]] ?? '';
  if (model.provider === 'anthropic') {
    const baseUrl = model.baseUrl ?? env['ANTHROPIC_BASE_URL'];
    return { model: model.id, contextWindow: model.contextWindow, create: () => new AnthropicProvider({ model: model.id, apiKey, ...(baseUrl ? { baseUrl } : {}) }) };
  }
  const baseUrl = model.baseUrl ?? env['OPENAI_BASE_URL'];
  return { model: model.id, contextWindow: model.contextWindow, create: () => new OpenAiProvider({ model: model.id, apiKey, ...(baseUrl ? { baseUrl } : {}) }) };
}
