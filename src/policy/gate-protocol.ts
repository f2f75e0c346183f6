// The gate protocol: every message between a worker (agent loop) and the host
// (gate server) on the run's MessagePort, as zod schemas validated on both sides
// after the limits of message-limits.ts. Discriminants are dotted: tool.call,
// tool.cancel, tool.result. Errors travel as {code, message, details}.
import { z } from 'zod';
import { isErrorCode } from '../errors.js';
import { MAX_WRITE_CONTENT_BYTES } from './message-limits.js';

const CallId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const PathInput = z.string().max(4096);

export const ReadInputSchema = z.strictObject({
  path: PathInput,
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().positive().optional(),
});
// Counted in UTF-8 bytes, as the message size limit is (message-limits.ts); a string is never longer in UTF-16 units than in UTF-8 bytes.
const WriteContent = z
  .string()
  .max(MAX_WRITE_CONTENT_BYTES)
  .refine((text) => Buffer.byteLength(text, 'utf8') <= MAX_WRITE_CONTENT_BYTES, { error: `the content is larger than ${MAX_WRITE_CONTENT_BYTES} bytes as UTF-8` });
export const WriteInputSchema = z.strictObject({ path: PathInput, content: WriteContent });
export const EditInputSchema = z.strictObject({ path: PathInput, old_string: z.string().min(1), new_string: z.string() });
export const BashInputSchema = z.strictObject({ command: z.string().max(65536), timeout_ms: z.number().int().positive().max(3_600_000).optional() });
export const SkillInputSchema = z.strictObject({ name: z.string().min(1).max(256) });

export const ToolCallSchema = z.discriminatedUnion('tool', [
  z.strictObject({ type: z.literal('tool.call'), id: CallId, tool: z.literal('read'), input: ReadInputSchema }),
  z.strictObject({ type: z.literal('tool.call'), id: CallId, tool: z.literal('write'), input: WriteInputSchema }),
  z.strictObject({ type: z.literal('tool.call'), id: CallId, tool: z.literal('edit'), input: EditInputSchema }),
  z.strictObject({ type: z.literal('tool.call'), id: CallId, tool: z.literal('bash'), input: BashInputSchema }),
  z.strictObject({ type: z.literal('tool.call'), id: CallId, tool: z.literal('skill'), input: SkillInputSchema }),
]);

export const ToolCancelSchema = z.strictObject({ type: z.literal('tool.cancel'), id: CallId });

/**
 * A call the worker did not send: it broke the port's limits (too deep or too
 * large to travel), or its answer ended in a way that runs no call (refused,
 * content-filtered, paused). Told to the gate so the host still reports it; it
 * is never answered and never executed.
 */
export const ToolRefusedSchema = z.strictObject({
  type: z.literal('tool.refused'),
  id: CallId,
  tool: z.string().max(256),
  /** The call's input when it could travel (not for a call refused for its size). */
  input: z.record(z.string(), z.unknown()).optional(),
  code: z.string().refine(isErrorCode, { error: 'not a registered zotbox error code' }),
  reason: z.string().max(2000),
});

/** What a worker may send to the gate. */
export const GateRequestSchema = z.union([ToolCallSchema, ToolCancelSchema, ToolRefusedSchema]);

export const WireErrorSchema = z.strictObject({
  code: z.string().refine(isErrorCode, { error: 'not a registered zotbox error code' }),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** What the gate answers. `result` is the executor's JSON-safe result. */
export const ToolResultSchema = z.discriminatedUnion('ok', [
  z.strictObject({ type: z.literal('tool.result'), id: CallId, ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ type: z.literal('tool.result'), id: CallId, ok: z.literal(false), error: WireErrorSchema }),
]);

export type ToolCall = z.infer<typeof ToolCallSchema>;
export type ToolName = ToolCall['tool'];
/** The gate's tools: anything else is refused. */
export const TOOL_NAMES: readonly ToolName[] = ['read', 'write', 'edit', 'bash', 'skill'];
export type ToolInput<T extends ToolName> = Extract<ToolCall, { tool: T }>['input'];
export type GateRequest = z.infer<typeof GateRequestSchema>;
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** One audit record per decision, allowed or denied. */
export interface GateAuditEvent {
  readonly type: 'gate.decision';
  readonly id: number;
  readonly tool: ToolName | 'unknown';
  readonly allowed: boolean;
  /** The canonical path a file decision approved or denied. */
  readonly canonicalPath?: string;
  /** For bash: each command's argv, in order (an allowed allowlist line as planned; otherwise as parsed, when it parsed). */
  readonly argv?: readonly (readonly string[])[];
  /** For bash: the canonical paths the gate decided for its commands, allowed or denied, and whether they are every path it names. */
  readonly paths?: readonly string[];
  readonly pathsComplete?: boolean;
  readonly code?: string;
  readonly reason?: string;
  readonly at: string;
}
