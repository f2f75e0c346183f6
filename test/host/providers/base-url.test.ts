// Each format's base URL convention, as its official SDK has it: OpenAI's base
// includes the version prefix (zotbox appends /chat/completions), Anthropic's
// is the API root (zotbox appends /v1/messages).
import test, { type ExecutionContext } from 'ava';
import { AnthropicProvider } from '../../../src/host/providers/anthropic.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';
import { OpenAiProvider } from '../../../src/host/providers/openai.js';
import type { ModelProvider, ModelTurnRequest } from '../../../src/host/providers/provider.js';
import { FakeClock } from '../../fixtures/fake-clock.js';
import { holdModelServer } from '../../fixtures/held-model-server.js';

const turn: ModelTurnRequest = { system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };

function registry(t: ExecutionContext): ModelEndpoints {
  const endpoints = new ModelEndpoints({ clock: new FakeClock() });
  t.teardown(() => endpoints.close());
  return endpoints;
}

/** The path the provider requests on a loopback server whose base URL ends in `basePath`. */
async function requestedPath(t: ExecutionContext, wire: 'anthropic' | 'openai', basePath: string): Promise<string> {
  const server = await holdModelServer(t);
  const options = { model: 'm', apiKey: 'k', baseUrl: `${server.base}${basePath}`, endpoints: registry(t) };
  const provider: ModelProvider = wire === 'anthropic' ? new AnthropicProvider(options) : new OpenAiProvider(options);
  const answer = provider.complete(turn, () => {}, new AbortController().signal);
  const held = await server.request(0);
  held.res.writeHead(400).end('no'); // not retried: the answer settles at once
  await answer.catch(() => undefined);
  return held.url;
}

test('OpenAI format: OPENAI_BASE_URL=http://host:11434/v1 requests /v1/chat/completions (Ollama, vLLM, LM Studio, llama.cpp)', async (t) => {
  t.is(await requestedPath(t, 'openai', '/v1'), '/v1/chat/completions');
});

test("OpenAI format: Gemini's /v1beta/openai base requests /v1beta/openai/chat/completions", async (t) => {
  t.is(await requestedPath(t, 'openai', '/v1beta/openai'), '/v1beta/openai/chat/completions');
});

test('OpenAI format: the default base URL is https://api.openai.com/v1', (t) => {
  const endpoints = registry(t);
  new OpenAiProvider({ model: 'm', apiKey: 'k', endpoints });
  t.deepEqual(
    endpoints.list().map((e) => e.baseUrl),
    ['https://api.openai.com/v1'],
  );
});

test('Anthropic format: the base URL is the API root; zotbox requests /v1/messages; default https://api.anthropic.com', async (t) => {
  t.is(await requestedPath(t, 'anthropic', ''), '/v1/messages');
  const endpoints = registry(t);
  new AnthropicProvider({ model: 'm', apiKey: 'k', endpoints });
  t.deepEqual(
    endpoints.list().map((e) => e.baseUrl),
    ['https://api.anthropic.com'],
  );
});
