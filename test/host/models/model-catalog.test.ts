import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILT_IN_MODELS, readUserModels, selectModel } from '../../../src/host/models/model-catalog.js';
import { parseManifest } from '../../../src/policy/manifest.js';
import { tempDir } from '../../fixtures/temp.js';
import type { ZotboxError } from '../../../src/errors.js';

const manifest = (model: Record<string, unknown> = {}) => parseManifest(Buffer.from(JSON.stringify({ zotfile: 1, name: 'a', model })));
const code = (error: unknown) => (error as { code?: string }).code;
const both = { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' };

test('selection order: explicit, then ZOTBOX_MODEL, then model.preferred, then any compatible model with a key', (t) => {
  const m = manifest({ preferred: ['gpt-4.1', 'claude-opus-4-1'] });
  t.is(selectModel({ manifest: m, explicit: 'o3', env: both, catalog: BUILT_IN_MODELS }).id, 'o3');
  t.is(selectModel({ manifest: m, env: { ...both, ZOTBOX_MODEL: 'gpt-4o' }, catalog: BUILT_IN_MODELS }).id, 'gpt-4o');
  t.is(selectModel({ manifest: m, env: both, catalog: BUILT_IN_MODELS }).id, 'gpt-4.1');
  t.is(selectModel({ manifest: m, env: { ANTHROPIC_API_KEY: 'a' }, catalog: BUILT_IN_MODELS }).id, 'claude-opus-4-1', 'a preferred model without a key is skipped');
  t.is(selectModel({ manifest: manifest(), env: { OPENAI_API_KEY: 'o' }, catalog: BUILT_IN_MODELS }).id, 'gpt-4.1');
});

test('requirements are checked before anything runs, for explicit and automatic choices alike', (t) => {
  const needs = manifest({ requires: ['reasoning'], min_context: 500_000 });
  t.is(code(t.throws(() => selectModel({ manifest: needs, explicit: 'claude-sonnet-4-5', env: both, catalog: BUILT_IN_MODELS }))), 'ZB_MODEL_UNAVAILABLE');
  const error = t.throws(() => selectModel({ manifest: needs, env: both, catalog: BUILT_IN_MODELS }));
  t.regex(error.message, /no catalog model meets the agent's requirements \(context ≥ 500000, reasoning\)/);
  t.is(selectModel({ manifest: manifest({ requires: ['reasoning'] }), env: { OPENAI_API_KEY: 'o' }, catalog: BUILT_IN_MODELS }).id, 'o3');
});

test('an explicit model in no catalog is an error that says how to declare it; a missing key says which', (t) => {
  t.regex(t.throws(() => selectModel({ manifest: manifest(), explicit: 'my-local-llm', env: both, catalog: BUILT_IN_MODELS })).message, /models\.json/);
  t.is(code(t.throws(() => selectModel({ manifest: manifest(), explicit: 'gpt-4.1', env: {}, catalog: BUILT_IN_MODELS }))), 'ZB_PROVIDER_AUTH');
  t.regex(t.throws(() => selectModel({ manifest: manifest(), env: {}, catalog: BUILT_IN_MODELS })).message, /ANTHROPIC_API_KEY or OPENAI_API_KEY/);
});

test('the user models file adds self-hosted models and is validated', (t) => {
  const state = tempDir(t, 'zb-models-');
  t.deepEqual(readUserModels(state), []);
  writeFileSync(path.join(state, 'models.json'), JSON.stringify({ models: [{ id: 'qwen-local', provider: 'openai', base_url: 'http://127.0.0.1:8080', context_window: 32768, reasoning: true }] }));
  const [local] = readUserModels(state);
  t.like(local, { id: 'qwen-local', provider: 'openai', baseUrl: 'http://127.0.0.1:8080', contextWindow: 32768, reasoning: true, vision: false });
  t.is(selectModel({ manifest: manifest(), explicit: 'qwen-local', env: { OPENAI_API_KEY: 'x' }, catalog: [...BUILT_IN_MODELS, local!] }).id, 'qwen-local');
  mkdirSync(path.join(state, 'bad'));
  writeFileSync(path.join(state, 'bad', 'models.json'), JSON.stringify({ models: [{ id: 'x', provider: 'cohere', context_window: 1 }] }));
  t.is(code(t.throws(() => readUserModels(path.join(state, 'bad')))), 'ZB_MODELS_FILE_INVALID');
});

test("max_concurrency in the user models file becomes the model's maxConcurrency; without it there is none", (t) => {
  const state = tempDir(t, 'zb-models-');
  writeFileSync(
    path.join(state, 'models.json'),
    JSON.stringify({
      models: [
        { id: 'small-gpu', provider: 'openai', base_url: 'http://127.0.0.1:8080', context_window: 8192, max_concurrency: 2 },
        { id: 'plain', provider: 'openai', context_window: 8192 },
      ],
    }),
  );
  const [limited, plain] = readUserModels(state);
  t.is(limited!.maxConcurrency, 2);
  t.false('maxConcurrency' in plain!);
});

for (const [label, value] of [
  ['zero', 0],
  ['a fraction', 2.5],
  ['a string', '4'],
  ['negative', -1],
] as const) {
  test(`max_concurrency that is ${label} makes the models file invalid, naming the field`, (t) => {
    const state = tempDir(t, 'zb-models-');
    writeFileSync(path.join(state, 'models.json'), JSON.stringify({ models: [{ id: 'x', provider: 'openai', context_window: 1, max_concurrency: value }] }));
    const error = t.throws(() => readUserModels(state));
    t.is(code(error), 'ZB_MODELS_FILE_INVALID');
    t.regex(error.message, /models\.0\.max_concurrency/);
  });
}

test('ZOTBOX_MODEL naming no model is ZB_MODEL_UNAVAILABLE naming the variable, as --model is', (t) => {
  const error = t.throws<ZotboxError>(() => selectModel({ manifest: manifest(), env: { ...both, ZOTBOX_MODEL: 'nope' }, catalog: BUILT_IN_MODELS }));
  t.is(error.code, 'ZB_MODEL_UNAVAILABLE');
  t.regex(error.message, /ZOTBOX_MODEL/);
  t.deepEqual(error.details, { model: 'nope', variable: 'ZOTBOX_MODEL' });
});

test('ZOTBOX_MODEL without its key is ZB_PROVIDER_AUTH naming the key and the variable', (t) => {
  const error = t.throws<ZotboxError>(() => selectModel({ manifest: manifest(), env: { ANTHROPIC_API_KEY: 'a', ZOTBOX_MODEL: 'gpt-4o' }, catalog: BUILT_IN_MODELS }));
  t.is(error.code, 'ZB_PROVIDER_AUTH');
  t.regex(error.message, /OPENAI_API_KEY/);
  t.regex(error.message, /ZOTBOX_MODEL/);
});

test("ZOTBOX_MODEL that lacks what this agent requires is passed over for the agent's own choice; empty is unset", (t) => {
  const needsReasoning = manifest({ requires: ['reasoning'], preferred: ['o3'] });
  t.is(selectModel({ manifest: needsReasoning, env: { ...both, ZOTBOX_MODEL: 'gpt-4o' }, catalog: BUILT_IN_MODELS }).id, 'o3');
  t.is(selectModel({ manifest: manifest({ preferred: ['o3'] }), env: { ...both, ZOTBOX_MODEL: '' }, catalog: BUILT_IN_MODELS }).id, 'o3');
});

test('messages name the real models file, never a placeholder (issue 27)', (t) => {
  const modelsFile = '/home/someone/.local/state/zotbox/models.json';
  const unknown = t.throws(() => selectModel({ manifest: manifest(), explicit: 'my-local-llm', env: both, catalog: BUILT_IN_MODELS, modelsFile }));
  t.true(unknown.message.includes(modelsFile), unknown.message);
  t.false(unknown.message.includes('<state>'));
  const configured = t.throws(() => selectModel({ manifest: manifest(), env: { ...both, ZOTBOX_MODEL: 'nope' }, catalog: BUILT_IN_MODELS, modelsFile }));
  t.true(configured.message.includes(modelsFile), configured.message);
});

test('a too-small context window is refused naming the catalog models that fit (issue 27)', (t) => {
  const small = { id: 'small-local', provider: 'openai', contextWindow: 32_768, reasoning: false, vision: false, baseUrl: 'http://127.0.0.1:8080/v1' } as const;
  const error = t.throws(() => selectModel({ manifest: manifest({ min_context: 65_536 }), explicit: 'small-local', env: both, catalog: [...BUILT_IN_MODELS, small] }));
  t.is(code(error), 'ZB_MODEL_UNAVAILABLE');
  t.regex(error.message, /catalog models that do: claude-sonnet-4-5, .*gpt-4o/);
  t.false(error.message.includes('do: small-local'));
});

test('a models.json entry with "api_key": "none" needs no key; a self-hosted model without one says any value works (issue 27)', (t) => {
  const state = tempDir(t, 'zb-models-');
  writeFileSync(
    path.join(state, 'models.json'),
    JSON.stringify({
      models: [
        { id: 'keyless', provider: 'openai', base_url: 'http://127.0.0.1:8080/v1', context_window: 8192, api_key: 'none' },
        { id: 'keyed', provider: 'openai', base_url: 'http://127.0.0.1:8080/v1', context_window: 8192 },
      ],
    }),
  );
  const [keyless, keyed] = readUserModels(state);
  t.true(keyless!.noKey);
  t.is(keyless!.source, path.join(state, 'models.json'));
  t.is(selectModel({ manifest: manifest(), explicit: 'keyless', env: {}, catalog: [keyless!, keyed!] }).id, 'keyless');
  t.is(selectModel({ manifest: manifest(), env: {}, catalog: [keyed!, keyless!] }).id, 'keyless', 'automatic selection counts it as usable');
  const error = t.throws(() => selectModel({ manifest: manifest(), explicit: 'keyed', env: {}, catalog: [keyless!, keyed!], modelsFile: path.join(state, 'models.json') }));
  t.is(code(error), 'ZB_PROVIDER_AUTH');
  t.regex(error.message, /any value works/);
  t.true(error.message.includes(`"api_key": "none" to its entry in ${path.join(state, 'models.json')}`));
  writeFileSync(path.join(state, 'models.json'), JSON.stringify({ models: [{ id: 'x', provider: 'openai', context_window: 1, api_key: 'sk-secret' }] }));
  t.is(code(t.throws(() => readUserModels(state))), 'ZB_MODELS_FILE_INVALID', 'only "none" is accepted: keys never go in the file');
});
