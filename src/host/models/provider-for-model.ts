// The live provider for a selected catalog model: its key, base URL and
// timeouts from the environment (or the models file), on its endpoint's budget in the given
// registry. The concurrency is the run's override, else the model's
// max_concurrency, else the registry's default. It never picks the model.
import { AnthropicProvider } from '../providers/anthropic.js';
import type { ModelEndpoints } from '../providers/model-endpoints.js';
import { OpenAiProvider } from '../providers/openai.js';
import { resolveModelTimeouts } from '../providers/model-timeouts.js';
import type { ModelProvider } from '../providers/provider.js';
import { API_KEY_VARIABLES, type CatalogModel } from './model-catalog.js';

export interface ProviderForModelOptions {
  /** The model selectModel chose. */
  readonly model: CatalogModel;
  /** Read for the provider's key, *_BASE_URL and the ZOTBOX_MODEL_*_TIMEOUT variables only. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The model budget; default PROCESS_MODEL_ENDPOINTS. */
  readonly endpoints?: ModelEndpoints;
  /** The run's concurrency limit for the model's endpoint (RunAgentOptions.modelConcurrency, --model-concurrency). */
  readonly maxConcurrency?: number;
}

const BASE_URL_VARIABLES = { anthropic: 'ANTHROPIC_BASE_URL', openai: 'OPENAI_BASE_URL' } as const;

const DEFAULT_HOSTS = { anthropic: 'api.anthropic.com', openai: 'api.openai.com' } as const;

/** The host the model's requests go to (consent names it, issue 27): its base URL's, else the provider's own. */
export function endpointHostOf(model: CatalogModel, env: Readonly<Record<string, string | undefined>>): string {
  const baseUrl = model.baseUrl ?? (env[BASE_URL_VARIABLES[model.provider]] || undefined);
  if (baseUrl === undefined) return DEFAULT_HOSTS[model.provider];
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl; // providerForModel refuses a base URL it cannot parse, with the fix
  }
}

export function providerForModel(options: ProviderForModelOptions): ModelProvider {
  const { model, env } = options;
  // A model whose entry says its server takes no key (api_key "none") gets the key if one is set, else "none".
  const apiKey = env[API_KEY_VARIABLES[model.provider]] || (model.noKey === true ? 'none' : '');
  // An empty variable counts as unset, as it always has.
  const baseUrl = model.baseUrl ?? (env[BASE_URL_VARIABLES[model.provider]] || undefined);
  const maxConcurrency = options.maxConcurrency ?? model.maxConcurrency;
  const shared = {
    model: model.id,
    contextWindow: model.contextWindow,
    timeouts: resolveModelTimeouts(model, env),
    apiKey,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(options.endpoints === undefined ? {} : { endpoints: options.endpoints }),
    ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
  };
  return model.provider === 'anthropic' ? new AnthropicProvider(shared) : new OpenAiProvider(shared);
}
