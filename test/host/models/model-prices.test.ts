// What a run's tokens cost: Anthropic counts cached input apart from input,
// OpenAI counts it inside input (priced once, at the cache-read rate). Expected
// figures are worked out by hand from the list prices.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ZotboxError } from '../../../src/errors.js';
import { BUILT_IN_MODELS, readUserModels } from '../../../src/host/models/model-catalog.js';
import { addUsage, NO_USAGE, usageCost } from '../../../src/host/models/model-prices.js';
import { tempDir } from '../../fixtures/temp.js';

const pricesOf = (id: string) => BUILT_IN_MODELS.find((m) => m.id === id)!.prices!;

test('claude-sonnet-4-5: 1,000 in, 500 out, 2,000 written to the cache, 10,000 read = $0.021', (t) => {
  // 1000 × $3 + 500 × $15 + 2000 × $3.75 + 10000 × $0.30, per million tokens.
  const usage = { input_tokens: 1_000, output_tokens: 500, cache_creation_input_tokens: 2_000, cache_read_input_tokens: 10_000 };
  t.is(usageCost(usage, pricesOf('claude-sonnet-4-5'), 'anthropic'), 0.021);
});

test('gpt-4.1: 12,000 in of which 10,000 cached, 500 out = $0.013 (cached tokens are not charged twice)', (t) => {
  // 2000 × $2 + 10000 × $0.50 + 500 × $8, per million tokens.
  const usage = { input_tokens: 12_000, output_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 10_000 };
  t.is(usageCost(usage, pricesOf('gpt-4.1'), 'openai'), 0.013);
});

test('every built-in model has prices', (t) => {
  t.deepEqual(
    BUILT_IN_MODELS.filter((m) => m.prices === undefined).map((m) => m.id),
    [],
  );
});

test('usage adds up turn by turn; absent cache counts are 0', (t) => {
  const total = addUsage(addUsage(NO_USAGE, { input_tokens: 5, output_tokens: 2 }), { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 7, cache_creation_input_tokens: 3 });
  t.deepEqual(total, { input_tokens: 6, output_tokens: 3, cache_creation_input_tokens: 3, cache_read_input_tokens: 7 });
});

test('models.json prices: cache prices default to the input price; a negative price is refused naming the field', (t) => {
  const state = tempDir(t, 'zb-prices-');
  mkdirSync(state, { recursive: true });
  const file = path.join(state, 'models.json');
  writeFileSync(file, JSON.stringify({ models: [{ id: 'local', provider: 'openai', context_window: 8192, prices: { input: 0.5, output: 1 } }] }));
  t.deepEqual(readUserModels(state)[0]?.prices, { input: 0.5, output: 1, cacheWrite: 0.5, cacheRead: 0.5 });
  writeFileSync(file, JSON.stringify({ models: [{ id: 'local', provider: 'openai', context_window: 8192, prices: { input: -1, output: 1 } }] }));
  const error = t.throws<ZotboxError>(() => readUserModels(state));
  t.is(error.code, 'ZB_MODELS_FILE_INVALID');
  t.regex(error.message, /models\.0\.prices\.input/);
});
