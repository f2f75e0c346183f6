// What a Chat Completions stream chunk may carry, as zod schemas: OpenAI's own
// fields plus what compatible servers (Ollama, vLLM, llama.cpp, LM Studio,
// LiteLLM, Azure, Gemini) omit or send as null. Unknown fields pass (the API adds
// them over time); a known field of the wrong type is refused.
import { z } from 'zod';

const count = z.number().int().min(0);

/** One entry of delta.tool_calls. `index` and `id` are missing on some servers (Gemini, Ollama, llama.cpp); null means absent. */
export const ToolCallDeltaSchema = z.looseObject({
  index: count.nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

/** reasoning_content / reasoning (vLLM, DeepSeek, Ollama, LM Studio) are unknown fields here, so they are never text. */
export const DeltaSchema = z.looseObject({
  content: z.string().nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(ToolCallDeltaSchema).nullish(),
});

export const ChoiceSchema = z.looseObject({
  index: count.nullish(),
  delta: DeltaSchema.nullish(),
  finish_reason: z.string().nullish(),
});

/** OpenAI's prompt_tokens includes the cached ones (prompt_tokens_details.cached_tokens). */
export const ChunkUsageSchema = z.looseObject({
  prompt_tokens: count.nullish(),
  completion_tokens: count.nullish(),
  prompt_tokens_details: z.looseObject({ cached_tokens: count.nullish() }).nullish(),
});

/** A chunk: Azure's prompt_filter_results chunk has `choices: []` and no model; the usage chunk has `choices: []`. */
export const ChunkSchema = z.looseObject({
  choices: z.array(ChoiceSchema).nullish(),
  usage: ChunkUsageSchema.nullish(),
});

export type ToolCallDelta = z.infer<typeof ToolCallDeltaSchema>;
export type Choice = z.infer<typeof ChoiceSchema>;
export type ChunkUsage = z.infer<typeof ChunkUsageSchema>;
