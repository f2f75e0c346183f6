// Zod schemas for the events of an Anthropic Messages stream, as the API and
// servers compatible with it may send them. Closed where zotbox reads a field (a
// field of the wrong type is refused), open elsewhere: unknown fields pass, and
// unknown event, block and delta types are recognised by their `type` alone.
import { z } from 'zod';

const Index = z.number().int().min(0);
/** A token count the API may omit or null (message_delta's cumulative usage: "absent when it does not apply"). */
const Count = z.number().int().min(0).nullable().optional();

/** Every event's data is an object with a type; anything else in it depends on the type. */
export const EventEnvelopeSchema = z.looseObject({ type: z.string() });

export const UsageCountsSchema = z.looseObject({
  input_tokens: Count,
  output_tokens: Count,
  cache_creation_input_tokens: Count,
  cache_read_input_tokens: Count,
});

export const MessageStartSchema = z.looseObject({
  type: z.literal('message_start'),
  // The API starts every message with content []; content here is read as nothing else would be: refused when not empty.
  message: z.looseObject({ usage: UsageCountsSchema.nullable().optional(), content: z.array(z.unknown()).nullable().optional() }),
});

export const ContentBlockStartSchema = z.looseObject({ type: z.literal('content_block_start'), index: Index, content_block: EventEnvelopeSchema });

export const TextBlockStartSchema = z.looseObject({ type: z.literal('text'), text: z.string().optional() });

/** Tool ids and names within the limits of the model protocol (ToolUseBlockSchema), so a turn never fails later for them. */
export const ToolUseBlockStartSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1).max(256),
  name: z.string().min(1).max(256),
  // The whole input when the server sends no input_json_delta (the SDK reads it so); the API itself sends {} and deltas.
  input: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const ContentBlockDeltaSchema = z.looseObject({ type: z.literal('content_block_delta'), index: Index, delta: EventEnvelopeSchema });
export const TextDeltaSchema = z.looseObject({ type: z.literal('text_delta'), text: z.string() });
export const InputJsonDeltaSchema = z.looseObject({ type: z.literal('input_json_delta'), partial_json: z.string() });

export const ContentBlockStopSchema = z.looseObject({ type: z.literal('content_block_stop'), index: Index });

export const MessageDeltaSchema = z.looseObject({
  type: z.literal('message_delta'),
  delta: z.looseObject({ stop_reason: z.string().nullable().optional() }).nullable().optional(),
  usage: UsageCountsSchema.nullable().optional(),
});

export const ErrorEventSchema = z.looseObject({ error: z.looseObject({ type: z.string(), message: z.string().optional() }) });

export type UsageCounts = z.infer<typeof UsageCountsSchema>;
