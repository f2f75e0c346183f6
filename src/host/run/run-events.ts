// The events of one run, in order (docs/events.md). `zotbox run --json` prints
// them as NDJSON; the library yields them from runAgent. The schema is checked
// by a test against every event a run emits.
import { z } from 'zod';

const At = z.string();
const Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const RunEventSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('run.start'),
    run_id: z.string(),
    agent: z.strictObject({ name: z.string(), version: z.string(), content_digest: Digest, artifact_digest: Digest.nullable(), source: z.string() }),
    model: z.string(),
    workspace: z.string(),
    permissions: z.strictObject({
      read: z.array(z.string()),
      write: z.array(z.string()),
      bash: z.strictObject({ mode: z.string(), allow: z.array(z.string()) }),
      confinement: z.enum(['bubblewrap', 'unconfined']),
      /** permissions.env.read: the names whose values the commands get (never the values). */
      env: z.array(z.string()).optional(),
      net: z.array(z.string()).optional(),
    }),
    /** The confinement in force, in words: confined, UNCONFINED, or required but unavailable here (then commands are refused). */
    confinement: z.string(),
    /** Each command's resource limits (issue 24 §5) and how they are enforced (cgroup2, cgroup1, rlimit; none when unconfined), also in words. */
    limits: z
      .strictObject({
        processes: z.number(),
        memory_mib: z.number(),
        cpu_seconds: z.number(),
        file_size_mib: z.number(),
        enforcement: z.enum(['cgroup2', 'cgroup1', 'rlimit', 'none']),
        description: z.string(),
      })
      .optional(),
    consent: z.enum(['flag', 'environment', 'receipt', 'prompt']),
    /** What the user must know before trusting this run (issue 27, item 5): commands unconfined (--confine off), zotbox running as root. Absent when none. */
    warnings: z.array(z.strictObject({ code: z.enum(['unconfined', 'root']), message: z.string() })).optional(),
    session: z.strictObject({ id: z.string(), file: z.string(), continued: z.boolean() }).nullable(),
    at: At,
  }),
  /**
   * The run waits (issue 26): for a slot of its pool (maxRuns; before run.start,
   * the one event that may come first) or for a slot of its model endpoint's
   * concurrency limit (before a model request). `ahead`: how many wait before it.
   */
  z.strictObject({
    type: z.literal('run.queued'),
    reason: z.enum(['pool', 'endpoint']),
    /** The endpoint's host (and port), for reason endpoint. */
    endpoint: z.string().optional(),
    ahead: z.number().int(),
    limit: z.number().int(),
    at: At,
  }),
  z.strictObject({ type: z.literal('assistant.delta'), text: z.string() }),
  z.strictObject({ type: z.literal('tool.call'), id: z.number().int(), tool: z.string(), input: z.record(z.string(), z.unknown()) }),
  z.strictObject({
    type: z.literal('gate.decision'),
    id: z.number().int(),
    tool: z.string(),
    allowed: z.boolean(),
    canonical_path: z.string().optional(),
    argv: z.array(z.array(z.string())).optional(),
    /** For bash: the canonical paths the gate decided for its commands, and whether they are every path it names (docs/events.md). */
    paths: z.array(z.string()).optional(),
    paths_complete: z.boolean().optional(),
    code: z.string().optional(),
    reason: z.string().optional(),
  }),
  /** The user's answer at the approval prompt (--approve, issue 27 §6) for a program outside the allowlist; the gate.decision follows. */
  z.strictObject({
    type: z.literal('gate.approval'),
    id: z.number().int(),
    /** The program's name, and where it was found on the PATH commands run with. */
    program: z.string(),
    path: z.string(),
    approved: z.boolean(),
    /** Who approved it, and for how long: this call (once) or the rest of the session; absent when declined. */
    approved_by: z.literal('user').optional(),
    scope: z.enum(['once', 'session']).optional(),
    at: At,
  }),
  z.strictObject({
    type: z.literal('tool.result'),
    id: z.number().int(),
    tool: z.string(),
    ok: z.boolean(),
    summary: z.string(),
    /** For a command that ran (bash): how it exited. ok stays true for a non-zero exit: the model reads the result. */
    exit_code: z.number().int().nullable().optional(),
    signal: z.string().nullable().optional(),
    /** For a call that failed when it ran: the error's ZB_ code (ZB_CONFINEMENT_UNAVAILABLE, ZB_COMMAND_LIMIT, ...). */
    code: z.string().optional(),
    /** How large the result was (read: the file's size; write, edit: the bytes written; bash: its output), for a one-line summary. */
    bytes: z.number().int().optional(),
    /** read: the lines returned; bash: the lines of its output. */
    lines: z.number().int().optional(),
  }),
  /** One connection attempt of a command through the sandbox's proxy (net.allow), reported when it ends. */
  z.strictObject({
    type: z.literal('net.connect'),
    id: z.number().int(),
    host: z.string(),
    port: z.number().int(),
    allowed: z.boolean(),
    reason: z.string(),
    address: z.string().optional(),
    bytes_out: z.number().int(),
    bytes_in: z.number().int(),
    /** A summary of the attempts beyond the call's cap (host "(more)"): how many, their bytes summed. */
    dropped: z.number().int().optional(),
  }),
  z.strictObject({
    type: z.literal('usage'),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cache_creation_input_tokens: z.number().int(),
    cache_read_input_tokens: z.number().int(),
  }),
  z.strictObject({
    type: z.literal('run.end'),
    status: z.enum(['completed', 'max_turns', 'cancelled', 'refused', 'content_filtered', 'failed']),
    turns: z.number().int(),
    final_text: z.string(),
    /** The run's tokens, every model turn summed (the usage events add up to it). */
    usage: z.strictObject({
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      cache_creation_input_tokens: z.number().int(),
      cache_read_input_tokens: z.number().int(),
    }),
    /** What those tokens cost at the model's prices, in USD; null when the model has none (a replay, a models.json model without prices). */
    cost_usd: z.number().nullable(),
    error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
    at: At,
  }),
]);

export type RunEvent = z.infer<typeof RunEventSchema>;
