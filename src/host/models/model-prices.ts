// What a model's tokens cost, in US dollars per million tokens, and the cost of
// a run's usage. Prices are the providers' list prices as of 2026-12 (built-in
// models) or the user's (models.json); a model without prices has no cost
// (null), never a guessed one.
import type { ProviderName } from './model-catalog.js';

export interface ModelPrices {
  /** Uncached input tokens. */
  readonly input: number;
  readonly output: number;
  /** Tokens written to the prompt cache (Anthropic's 5-minute cache; OpenAI charges none: its input price). */
  readonly cacheWrite: number;
  /** Tokens read from the prompt cache. */
  readonly cacheRead: number;
}

export interface RunUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

export const NO_USAGE: RunUsage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export function addUsage(total: RunUsage, turn: Partial<RunUsage> & Pick<RunUsage, 'input_tokens' | 'output_tokens'>): RunUsage {
  return {
    input_tokens: total.input_tokens + turn.input_tokens,
    output_tokens: total.output_tokens + turn.output_tokens,
    cache_creation_input_tokens: total.cache_creation_input_tokens + (turn.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: total.cache_read_input_tokens + (turn.cache_read_input_tokens ?? 0),
  };
}

/**
 * The cost in USD of this usage. OpenAI's input count includes the cached
 * tokens (priced at the cache-read rate, not twice); Anthropic's excludes them.
 */
export function usageCost(usage: RunUsage, prices: ModelPrices, provider: ProviderName): number {
  const uncachedInput = provider === 'openai' ? Math.max(0, usage.input_tokens - usage.cache_read_input_tokens) : usage.input_tokens;
  const dollars = uncachedInput * prices.input + usage.output_tokens * prices.output + usage.cache_creation_input_tokens * prices.cacheWrite + usage.cache_read_input_tokens * prices.cacheRead;
  // Rounded to a millionth of a dollar: finer is noise from floating point, not money.
  return Math.round(dollars) / 1_000_000;
}
