// The live provider for a selected model: which wire format, which endpoint
// (models file base URL, else the *_BASE_URL variable, else the provider's), and
// which concurrency (the run's override, else max_concurrency, else the default).
import test, { type ExecutionContext } from 'ava';
import type { ZotboxError } from '../../../src/errors.js';
import type { CatalogModel } from '../../../src/host/models/model-catalog.js';
import { providerForModel } from '../../../src/host/models/provider-for-model.js';
import { AnthropicProvider } from '../../../src/host/providers/anthropic.js';
import { DEFAULT_MODEL_CONCURRENCY, ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import { OpenAiProvider } from '../../../src/host/providers/openai.js';

const sonnet: CatalogModel = { id: 'claude-sonnet-4-5', provider: 'anthropic', contextWindow: 200_000, reasoning: true, vision: true };
const gpt: CatalogModel = { id: 'gpt-4.1', provider: 'openai', contextWindow: 1_047_576, reasoning: false, vision: true };
const local: CatalogModel = { id: 'qwen-local', provider: 'openai', contextWindow: 32768, reasoning: false, vision: false, baseUrl: 'http://127.0.0.1:8080/', maxConcurrency: 2 };

function registry(t: ExecutionContext): ModelEndpoints {
  const endpoints = new ModelEndpoints();
  t.teardown(() => endpoints.close());
  return endpoints;
}

const endpointsOf = (endpoints: ModelEndpoints) => endpoints.list().map((e) => [e.key, e.limiter.limit]);

test('an anthropic model gets the Anthropic provider on api.anthropic.com at the default (adaptive) concurrency', (t) => {
  const endpoints = registry(t);
  const provider = providerForModel({ model: sonnet, env: { ANTHROPIC_API_KEY: 'k' }, endpoints });
  t.true(provider instanceof AnthropicProvider);
  t.is(provider.model, 'claude-sonnet-4-5');
  t.deepEqual(endpointsOf(endpoints), [['anthropic https://api.anthropic.com', DEFAULT_MODEL_CONCURRENCY]]);
});

test('an openai model uses OPENAI_BASE_URL when set', (t) => {
  const endpoints = registry(t);
  const provider = providerForModel({ model: gpt, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://gateway.example.com/openai/' }, endpoints });
  t.true(provider instanceof OpenAiProvider);
  t.deepEqual(endpointsOf(endpoints), [['openai https://gateway.example.com/openai', DEFAULT_MODEL_CONCURRENCY]]);
});

test('an empty *_BASE_URL counts as unset', (t) => {
  const endpoints = registry(t);
  providerForModel({ model: gpt, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '' }, endpoints });
  t.deepEqual(endpointsOf(endpoints), [['openai https://api.openai.com/v1', DEFAULT_MODEL_CONCURRENCY]]);
});

test("a models-file base URL wins over the variable, and its max_concurrency is the endpoint's limit", (t) => {
  const endpoints = registry(t);
  providerForModel({ model: local, env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'https://elsewhere.example.com' }, endpoints });
  t.deepEqual(endpointsOf(endpoints), [['openai http://127.0.0.1:8080', 2]]);
});

test("the run's concurrency override wins over max_concurrency, even when larger", (t) => {
  const endpoints = registry(t);
  providerForModel({ model: local, env: { OPENAI_API_KEY: 'k' }, endpoints, maxConcurrency: 4 });
  t.deepEqual(endpointsOf(endpoints), [['openai http://127.0.0.1:8080', 4]]);
});

test("the run's override also applies to a built-in model", (t) => {
  const endpoints = registry(t);
  providerForModel({ model: sonnet, env: { ANTHROPIC_API_KEY: 'k' }, endpoints, maxConcurrency: 3 });
  t.deepEqual(endpointsOf(endpoints), [['anthropic https://api.anthropic.com', 3]]);
});

test('two runs of models on one endpoint share it', (t) => {
  const endpoints = registry(t);
  providerForModel({ model: sonnet, env: { ANTHROPIC_API_KEY: 'k' }, endpoints });
  providerForModel({ model: { ...sonnet, id: 'claude-haiku-4-5' }, env: { ANTHROPIC_API_KEY: 'k' }, endpoints });
  t.is(endpoints.list().length, 1);
});

test('a base URL that is not a URL fails before any request, with ZB_MODEL_UNAVAILABLE', (t) => {
  const error = t.throws<ZotboxError>(() => providerForModel({ model: sonnet, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'localhost:8080' }, endpoints: registry(t) }));
  t.is(error.code, 'ZB_MODEL_UNAVAILABLE');
});

test('an override of 0 is refused with ZB_MODEL_UNAVAILABLE', (t) => {
  const error = t.throws<ZotboxError>(() => providerForModel({ model: sonnet, env: { ANTHROPIC_API_KEY: 'k' }, endpoints: registry(t), maxConcurrency: 0 }));
  t.is(error.code, 'ZB_MODEL_UNAVAILABLE');
});
