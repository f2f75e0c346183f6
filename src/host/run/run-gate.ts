// One run's gate: the plan's decider and executors behind this run's gate port,
// with every call, decision and result reported as run events (docs/events.md).
import type { MessagePort } from 'node:worker_threads';
import { toZotboxError } from '../../errors.js';
import { serveGate, type GateServer } from '../../policy/gate-server.js';
import type { NetConnection } from '../../policy/net-allow.js';
import type { AnswerCancellation } from './answer-cancellation.js';
import type { EventQueue } from './event-queue.js';
import type { RunCancellation } from './run-cancellation.js';
import type { RunPlan } from './run-plan.js';
import { runApprovals, type AskApproval } from './command-approver.js';

export function serveRunGate(port: MessagePort, plan: RunPlan, queue: EventQueue, cancellation: RunCancellation, answers: AnswerCancellation, approveCommand?: AskApproval): GateServer {
  return serveGate(port, {
    timeoutMs: plan.toolTimeoutMs,
    // --approve (issue 27 §6): one set of approvals for the whole run, a chat's every answer included.
    ...(approveCommand === undefined ? {} : { approvals: runApprovals(approveCommand, queue) }),
    // Every call the agent makes is reported, also one refused for its name, input or size before any decision.
    onCall: (call) => queue.push({ type: 'tool.call', id: call.id, tool: call.tool, input: call.input }),
    // A call made after its answer was cancelled is refused like any denial, in the run's events.
    decide: (call, approved) => answers.refusal() ?? plan.decide(call, approved),
    execute: async (approved, signal) => {
      try {
        const result = await answers.execute(signal, (stop) => plan.execute(approved, stop));
        for (const connection of networkOf(result)) {
          const { host, port, allowed, reason, address, bytesOut, bytesIn, dropped } = connection;
          queue.push({
            type: 'net.connect',
            id: approved.call.id,
            host,
            port,
            allowed,
            reason,
            ...(address === undefined ? {} : { address }),
            bytes_out: bytesOut,
            bytes_in: bytesIn,
            ...(dropped === undefined ? {} : { dropped }),
          });
        }
        queue.push({
          type: 'tool.result',
          id: approved.call.id,
          tool: approved.tool,
          ok: true,
          summary: summarizeResult(result),
          ...measureResult(result),
          ...(approved.tool === 'bash' ? commandExit(result) : {}),
        });
        return result;
      } catch (error) {
        const failure = toZotboxError(error);
        queue.push({ type: 'tool.result', id: approved.call.id, tool: approved.tool, ok: false, summary: failure.message, code: failure.code });
        // A command that planted a git program, or changed a file other tools run, was undone (issue 9 §3, issue 21), or
        // a sandbox's mounts were moved under it by something racing in the workspace, or the call could not be ordered
        // with other runs' calls in its write scopes (issue 21 §1): the run does not go on.
        if (
          failure.code === 'ZB_CONFINEMENT_GIT_PROGRAM' ||
          failure.code === 'ZB_CONFINEMENT_PROTECTED_FILE' ||
          failure.code === 'ZB_CONFINEMENT_MOUNT_MOVED' ||
          failure.code === 'ZB_CONFINEMENT_SCOPE_LOCK'
        )
          cancellation.stop(failure);
        throw error;
      }
    },
    onAudit: (event) => {
      queue.push({
        type: 'gate.decision',
        id: event.id,
        tool: event.tool,
        allowed: event.allowed,
        ...(event.canonicalPath === undefined ? {} : { canonical_path: event.canonicalPath }),
        ...(event.argv === undefined ? {} : { argv: event.argv.map((a) => [...a]) }),
        ...(event.paths === undefined ? {} : { paths: [...event.paths] }),
        ...(event.pathsComplete === undefined ? {} : { paths_complete: event.pathsComplete }),
        ...(event.code === undefined ? {} : { code: event.code }),
        ...(event.reason === undefined ? {} : { reason: event.reason }),
      });
      // A denied call never reaches an executor: its result is the denial, which the model sees.
      if (!event.allowed) queue.push({ type: 'tool.result', id: event.id, tool: event.tool, ok: false, summary: event.reason ?? event.code ?? 'denied' });
    },
  });
}

/** The connection attempts a bash result carries (BashResult.network); none for other results. */
function networkOf(result: unknown): readonly NetConnection[] {
  if (typeof result !== 'object' || result === null || !('network' in result)) return [];
  const { network } = result as { network?: unknown };
  return Array.isArray(network) ? (network as NetConnection[]) : [];
}

/** How a command exited, from the bash executor's result (src/host/executors/bash.ts, BashResult); nothing for other results. */
export function commandExit(result: unknown): { exit_code: number | null; signal: string | null } | Record<string, never> {
  if (typeof result !== 'object' || result === null) return {};
  const { exitCode, signal } = result as { exitCode?: unknown; signal?: unknown };
  const isCode = typeof exitCode === 'number' || exitCode === null;
  const isSignal = typeof signal === 'string' || signal === null;
  return isCode && isSignal && 'exitCode' in result && 'signal' in result ? { exit_code: exitCode, signal } : {};
}

/**
 * The size of a result in two numbers, for a one-line summary (issue 27, item 5):
 * a file read its size and the lines returned, a file written or edited the bytes
 * written, a command the bytes and lines of its output (stdout and stderr).
 */
export function measureResult(result: unknown): { bytes?: number; lines?: number } {
  if (typeof result !== 'object' || result === null) return {};
  const r = result as Record<string, unknown>;
  const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
  if (typeof r['stdout'] === 'string' && typeof r['stderr'] === 'string') {
    const output = r['stdout'] + r['stderr'];
    return { bytes: Buffer.byteLength(output), lines: lineCount(r['stdout']) + lineCount(r['stderr']) };
  }
  if (typeof r['size'] === 'number' && typeof r['startLine'] === 'number' && typeof r['endLine'] === 'number') {
    return { bytes: r['size'], lines: r['startLine'] === 0 ? 0 : r['endLine'] - r['startLine'] + 1 };
  }
  if (typeof r['bytes'] === 'number') return { bytes: r['bytes'] };
  return {};
}

/** A tool result for an event: at most 200 characters. */
export function summarizeResult(result: unknown): string {
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
