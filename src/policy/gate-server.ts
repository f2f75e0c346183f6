// The host side of the gate: one server per agent run, on that run's
// MessagePort. Every message is checked (message-limits.ts, gate-protocol.ts);
// every tool call gets a policy decision and an audit event; only an approved
// decision reaches the executor, with a time limit and cancellation. Calls run
// concurrently, answered by id. A bad message never crashes the host.
import type { MessagePort } from 'node:worker_threads';
import { ZotboxError, toZotboxError, type ErrorCode } from '../errors.js';
import { GateRequestSchema, TOOL_NAMES, type GateAuditEvent, type ToolCall, type ToolName } from './gate-protocol.js';
import { UNPARSED_ARGUMENTS_KEY } from './model-protocol.js';
import { MESSAGE_LIMITS, checkMessageLimits } from './message-limits.js';
import type { PathDecision } from './path-decision.js';
import type { ShellDecision, Unlisted } from './shell-decision.js';
import type { CommandApprovals } from './command-approval.js';

export type ApprovedPath = Extract<PathDecision, { allow: true }>;
export type ApprovedShell = Extract<ShellDecision, { allow: true }>;

/** An approved call: the call and the decision the executor must act on, nothing else. */
export type ApprovedCall =
  | { readonly tool: 'read'; readonly call: Extract<ToolCall, { tool: 'read' }>; readonly decision: ApprovedPath }
  | { readonly tool: 'write'; readonly call: Extract<ToolCall, { tool: 'write' }>; readonly decision: ApprovedPath }
  | { readonly tool: 'edit'; readonly call: Extract<ToolCall, { tool: 'edit' }>; readonly decision: ApprovedPath }
  | { readonly tool: 'bash'; readonly call: Extract<ToolCall, { tool: 'bash' }>; readonly decision: ApprovedShell }
  | { readonly tool: 'skill'; readonly call: Extract<ToolCall, { tool: 'skill' }>; readonly decision: { readonly allow: true; readonly name: string } };

export interface AuditFields {
  readonly canonicalPath?: string;
  readonly argv?: readonly (readonly string[])[];
  /** For bash: the canonical paths decided for its commands (shell-decision.ts ShellFacts), and whether they are all it names. */
  readonly paths?: readonly string[];
  readonly pathsComplete?: boolean;
}

export type GateVerdict =
  | { readonly allow: true; readonly approved: ApprovedCall; readonly audit: AuditFields }
  | {
      readonly allow: false;
      readonly code: ErrorCode;
      readonly reason: string;
      readonly audit: AuditFields;
      /** A bash call denied only because this program is not allowlisted: the one denial the user may approve (command-approval.ts). */
      readonly unlisted?: Unlisted;
    };

/** A tool call as the agent made it, before any check: what run events report. */
export interface AnnouncedCall {
  readonly id: number;
  /** The tool name as sent (a name the gate does not know included), or "unknown" when it was not a string. */
  readonly tool: string;
  /** The input as sent, or {} when it was not an object or was too large to look at. */
  readonly input: Record<string, unknown>;
}

export interface GateServerOptions {
  /**
   * Every tool call that names an id, before it is checked or decided: calls
   * refused for their name, their input or their size included.
   */
  onCall?(call: AnnouncedCall): void;
  /**
   * The policy decision for one call; must not throw (a throw is treated as a denial). `approved`: programs the
   * user approved (`approvals`), allowlisted for this decision only.
   */
  decide(call: ToolCall, approved?: readonly string[]): GateVerdict;
  /**
   * Per-command approval (issue 27 §6): a call denied only for programs outside the allowlist is put to the user
   * first. Absent: never asked, the denial stands.
   */
  readonly approvals?: CommandApprovals;
  /** Performs an approved call. Its result must be structured-cloneable. */
  execute(approved: ApprovedCall, signal: AbortSignal): Promise<unknown>;
  onAudit?(event: GateAuditEvent): void;
  /** Time limit per call, in milliseconds. */
  readonly timeoutMs: number;
}

export interface GateServer {
  /**
   * Cancels the run: in-flight calls are aborted (their commands killed) and
   * answered with `error`, and every later call is refused with it.
   */
  cancel(error: ZotboxError): void;
  /** Stops serving: in-flight calls are aborted. */
  close(): void;
}

/** Every abort in this file passes a ZotboxError; any other reason would be a bug, reported as one. */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : toZotboxError(reason);
}

/** The decider's verdict, or a denial when it throws: a decision that cannot be made is a denial (fail closed). */
export function decideFailClosed(decide: GateServerOptions['decide'], call: ToolCall): GateVerdict {
  try {
    return decide(call);
  } catch (thrown) {
    const error = toZotboxError(thrown);
    return { allow: false, code: error.code, reason: error.message, audit: {} };
  }
}

/** The tool a refused message names, for its audit event: one of the gate's tools, else "unknown". */
function knownTool(tool: unknown): GateAuditEvent['tool'] {
  return typeof tool === 'string' && (TOOL_NAMES as readonly string[]).includes(tool) ? (tool as ToolName) : 'unknown';
}

/** A call whose arguments the provider could not read as a JSON object: refused for its input, saying so. */
function unparsedArguments(raw: unknown): ZotboxError | undefined {
  const message = raw as { tool?: unknown; input?: Record<string, unknown> } | null;
  const text = message?.input?.[UNPARSED_ARGUMENTS_KEY];
  if (typeof text !== 'string') return undefined;
  const tool = typeof message?.tool === 'string' ? message.tool.slice(0, 64) : 'the';
  return new ZotboxError(
    'ZB_GATE_INVALID_MESSAGE',
    `the ${tool} call's arguments were not a JSON object (they began ${JSON.stringify(text.slice(0, 120))}). Send the arguments as a JSON object, e.g. {"path": "notes.md"}.`,
  );
}

export function serveGate(port: MessagePort, options: GateServerOptions): GateServer {
  const inFlight = new Map<number, AbortController>();
  let closed = false;
  let cancelledWith: ZotboxError | undefined;

  const reply = (id: number, outcome: { ok: true; result: unknown } | { ok: false; error: ZotboxError }) => {
    if (closed) return;
    let message = outcome.ok ? { type: 'tool.result', id, ok: true, result: outcome.result } : { type: 'tool.result', id, ok: false, error: outcome.error.toWire() };
    // An answer the client would refuse is refused here, so the agent learns why.
    const tooBig = checkMessageLimits(message, MESSAGE_LIMITS.gate, `the answer to call ${id}`);
    if (tooBig !== undefined) message = { type: 'tool.result', id, ok: false, error: tooBig.toWire() };
    try {
      port.postMessage(message);
    } catch (error) {
      // A result that cannot be cloned is the executor's bug; the agent still gets an answer.
      port.postMessage({ type: 'tool.result', id, ok: false, error: toZotboxError(error).toWire() });
    }
  };

  const audit = (id: number, tool: GateAuditEvent['tool'], allowed: boolean, fields: AuditFields, code?: string, reason?: string) => {
    options.onAudit?.({
      type: 'gate.decision',
      id,
      tool,
      allowed,
      ...fields,
      ...(code === undefined ? {} : { code }),
      ...(reason === undefined ? {} : { reason }),
      at: new Date().toISOString(),
    });
  };

  /** Reports a tool.call message to onCall; `inspect` is false when the message is too large to walk. */
  const announce = (raw: unknown, inspect: boolean) => {
    const message = raw as { type?: unknown; id?: unknown; tool?: unknown; input?: unknown } | null;
    if (options.onCall === undefined || message?.type !== 'tool.call' || typeof message.id !== 'number' || !Number.isSafeInteger(message.id) || message.id <= 0) return;
    const { tool, input } = message;
    const plainInput = inspect && typeof input === 'object' && input !== null && !Array.isArray(input);
    options.onCall({
      id: message.id,
      tool: typeof tool === 'string' ? tool.slice(0, 256) : 'unknown',
      input: plainInput ? (input as Record<string, unknown>) : {},
    });
  };

  const refuse = (raw: unknown, error: ZotboxError) => {
    const id = typeof (raw as { id?: unknown } | null)?.id === 'number' ? (raw as { id: number }).id : 0;
    audit(id, knownTool((raw as { tool?: unknown } | null)?.tool), false, {}, error.code, error.message);
    if (Number.isSafeInteger(id) && id > 0) reply(id, { ok: false, error });
  };

  const handle = async (raw: unknown) => {
    // Depth and size first: nothing below may walk a value that could overflow the stack.
    const tooBig = checkMessageLimits(raw, MESSAGE_LIMITS.gate, 'the message');
    if (tooBig !== undefined) {
      announce(raw, false);
      return refuse(raw, tooBig);
    }
    announce(raw, true);
    const parsed = GateRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const unparsed = unparsedArguments(raw);
      if (unparsed !== undefined) return refuse(raw, unparsed);
      const issue = parsed.error.issues[0];
      return refuse(raw, new ZotboxError('ZB_GATE_INVALID_MESSAGE', `the gate refused a malformed message: ${issue?.message ?? 'invalid'} at ${issue?.path.join('.') || 'the top level'}.`));
    }
    const request = parsed.data;
    if (request.type === 'tool.refused') {
      options.onCall?.({ id: request.id, tool: request.tool, input: request.input ?? {} });
      audit(request.id, knownTool(request.tool), false, {}, request.code, request.reason);
      // Answered, so a worker that waits for it knows the host has reported the call before its run ends.
      reply(request.id, { ok: false, error: new ZotboxError(request.code, request.reason) });
      return;
    }
    if (request.type === 'tool.cancel') {
      inFlight.get(request.id)?.abort(new ZotboxError('ZB_GATE_CANCELLED', 'the tool call was cancelled.'));
      return;
    }
    if (cancelledWith !== undefined) {
      audit(request.id, request.tool, false, {}, cancelledWith.code, cancelledWith.message);
      reply(request.id, { ok: false, error: cancelledWith });
      return;
    }
    if (inFlight.has(request.id)) {
      reply(request.id, { ok: false, error: new ZotboxError('ZB_GATE_INVALID_MESSAGE', `call id ${request.id} is already in flight; ids must be unique.`) });
      return;
    }
    const controller = new AbortController();
    let verdict = decideFailClosed((call) => options.decide(call), request);
    if (!verdict.allow && verdict.unlisted !== undefined && options.approvals !== undefined) {
      // In flight while the user is asked: a cancel (tool.cancel, the run's) ends the wait, denied.
      inFlight.set(request.id, controller);
      verdict = await options.approvals.decide(request, (call, approved) => decideFailClosed((c) => options.decide(c, approved), call), controller.signal);
      inFlight.delete(request.id);
      if (controller.signal.aborted) {
        const error = toZotboxError(controller.signal.reason);
        verdict = { allow: false, code: error.code, reason: error.message, audit: verdict.audit };
      }
    }
    if (!verdict.allow) {
      audit(request.id, request.tool, false, verdict.audit, verdict.code, verdict.reason);
      reply(request.id, { ok: false, error: new ZotboxError(verdict.code, verdict.reason) });
      return;
    }
    audit(request.id, request.tool, true, verdict.audit);
    inFlight.set(request.id, controller);
    const timer = setTimeout(() => controller.abort(new ZotboxError('ZB_GATE_TIMEOUT', `the ${request.tool} call took longer than ${options.timeoutMs} ms and was cancelled.`)), options.timeoutMs);
    try {
      const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(asError(controller.signal.reason)), { once: true }));
      const result = await Promise.race([options.execute(verdict.approved, controller.signal), aborted]);
      reply(request.id, { ok: true, result });
    } catch (thrown) {
      reply(request.id, { ok: false, error: toZotboxError(thrown) });
    } finally {
      clearTimeout(timer);
      inFlight.delete(request.id);
    }
  };

  const onMessage = (raw: unknown) => {
    void handle(raw);
  };
  port.on('message', onMessage);
  return {
    cancel(error) {
      cancelledWith ??= error;
      for (const controller of inFlight.values()) controller.abort(error);
    },
    close() {
      closed = true;
      port.off('message', onMessage);
      for (const controller of inFlight.values()) controller.abort(new ZotboxError('ZB_GATE_CLOSED', 'the gate was closed.'));
      inFlight.clear();
    },
  };
}
