// The model port protocol: how the agent loop in a worker asks the host for a
// model turn (credentials never enter workers). One request, one answer, by id;
// validated with zod on both sides. Messages are provider-neutral: the host's
// provider clients translate them to each API's wire format.
import { z } from 'zod';
import { WireErrorSchema } from './gate-protocol.js';

export const TextBlockSchema = z.strictObject({ type: z.literal('text'), text: z.string() });
/**
 * The one key of a tool call's input when the model's arguments were not a JSON
 * object (a Python dict, a string, broken JSON) though its call was finished:
 * the raw text, so the gate refuses the call for its input, the events show
 * what the model sent, and the model reads why and tries again.
 */
export const UNPARSED_ARGUMENTS_KEY = 'zotbox_unparsed_arguments';

export const ToolUseBlockSchema = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string().min(1).max(256),
  // Up to 256: a model may call a tool by a long name that does not exist; the gate refuses it and the events show it.
  name: z.string().min(1).max(256),
  input: z.record(z.string(), z.unknown()),
});
export const ToolResultBlockSchema = z.strictObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1).max(256),
  content: z.string(),
  is_error: z.boolean(),
});

export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('user'), content: z.array(z.union([TextBlockSchema, ToolResultBlockSchema])).min(1) }),
  z.strictObject({ role: z.literal('assistant'), content: z.array(z.union([TextBlockSchema, ToolUseBlockSchema])) }),
]);

export const ToolSpecSchema = z.strictObject({
  name: z.string().min(1).max(64),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
});

export const ModelRequestSchema = z.strictObject({
  type: z.literal('model.request'),
  id: z.number().int().positive(),
  system: z.string(),
  messages: z.array(ChatMessageSchema).min(1),
  tools: z.array(ToolSpecSchema),
});

/**
 * Tokens of one turn. The cache counts are absent in transcripts recorded before
 * they were kept. Anthropic's input_tokens excludes cached tokens; OpenAI's
 * prompt_tokens includes its cached ones (cache_read_input_tokens).
 */
export const UsageSchema = z.strictObject({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
  cache_creation_input_tokens: z.number().int().min(0).optional(),
  cache_read_input_tokens: z.number().int().min(0).optional(),
});

/**
 * Why a turn ended. end: answered; tool_use: wants tools run; max_tokens: cut
 * off by the output limit (the loop asks it to go on); pause_turn: the server
 * paused a long turn (the loop continues it); refusal: the model declined (the
 * run ends "refused"); content_filter: a provider's filter stopped the output
 * (the run ends "content_filtered").
 */
export const StopReasonSchema = z.enum(['end', 'tool_use', 'max_tokens', 'pause_turn', 'refusal', 'content_filter']);

export const AssistantTurnSchema = z.strictObject({
  content: z.array(z.union([TextBlockSchema, ToolUseBlockSchema])),
  stop: StopReasonSchema,
  usage: UsageSchema,
});

export const ModelResponseSchema = z.discriminatedUnion('ok', [
  z.strictObject({ type: z.literal('model.response'), id: z.number().int().positive(), ok: z.literal(true), turn: AssistantTurnSchema }),
  z.strictObject({ type: z.literal('model.response'), id: z.number().int().positive(), ok: z.literal(false), error: WireErrorSchema }),
]);

/**
 * Host → worker: stop this run (Ctrl-C, --timeout, the library's AbortSignal).
 * The worker stops at its next step and returns; the host has already cancelled
 * the in-flight model call and tool call. Cooperative on purpose: terminating
 * the thread would also end the other runs sharing the worker.
 */
export const RunCancelSchema = z.strictObject({ type: z.literal('run.cancel') });

/**
 * Interactive runs: after the model answers and no scripted prompt is left,
 * the worker asks the host for the user's next message; `text: null` ends the chat.
 */
export const InputRequestSchema = z.strictObject({ type: z.literal('input.request'), id: z.number().int().positive() });
export const InputResponseSchema = z.strictObject({ type: z.literal('input.response'), id: z.number().int().positive(), text: z.string().nullable() });

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
export type ToolSpec = z.infer<typeof ToolSpecSchema>;
export type ModelRequest = z.infer<typeof ModelRequestSchema>;
export type AssistantTurn = z.infer<typeof AssistantTurnSchema>;
export type Usage = z.infer<typeof UsageSchema>;
export type StopReason = z.infer<typeof StopReasonSchema>;
