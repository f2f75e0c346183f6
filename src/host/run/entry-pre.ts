// entry.pre (spec Part A; B §8.4): the agent's startup action. Trimmed; empty is
// nothing. `!command` is a bash call through the same gate and executor as any
// tool call (so the bash mode and allowlist apply), run by the host before the
// first model turn; its output is given to the model with the first prompt, and
// a refusal or a failure stops the run with ZB_RUN_PRE_FAILED. Any other text is
// the first user turn.
import { ZotboxError, toZotboxError } from '../../errors.js';
import { decideFailClosed, type ApprovedCall, type GateVerdict } from '../../policy/gate-server.js';
import type { ToolCall } from '../../policy/gate-protocol.js';
import type { BashResult } from '../executors/bash.js';

export type PreAction = { readonly kind: 'none' } | { readonly kind: 'command'; readonly command: string } | { readonly kind: 'prompt'; readonly text: string };

export function parseEntryPre(pre: string): PreAction {
  const text = pre.trim();
  if (text === '') return { kind: 'none' };
  if (text.startsWith('!')) {
    const command = text.slice(1).trim();
    // A lone "!" has no command to run; the reference runtime sends it as text.
    return command === '' ? { kind: 'prompt', text } : { kind: 'command', command };
  }
  return { kind: 'prompt', text };
}

export interface PreCommandContext {
  readonly decide: (call: ToolCall) => GateVerdict;
  readonly execute: (approved: ApprovedCall, signal: AbortSignal) => Promise<unknown>;
  readonly signal: AbortSignal;
  /** The gate's audit, as for any call (the run's events). */
  readonly onDecision: (verdict: GateVerdict) => void;
}

/** The id entry.pre's call carries in events: model-driven calls count from 1. */
export const PRE_CALL_ID = 0;

function preFailed(command: string, what: string): ZotboxError {
  return new ZotboxError(
    'ZB_RUN_PRE_FAILED',
    `entry.pre: ${JSON.stringify(command)} ${what}. The agent's startup command must succeed under its own permissions; fix the manifest's entry.pre or its bash allowlist.`,
  );
}

/** Runs entry.pre's command through the gate and returns the text the model is given. */
export async function runPreCommand(command: string, context: PreCommandContext): Promise<string> {
  const call: ToolCall = { type: 'tool.call', id: PRE_CALL_ID, tool: 'bash', input: { command } };
  const verdict = decideFailClosed(context.decide, call);
  context.onDecision(verdict);
  if (!verdict.allow) throw preFailed(command, `was refused by the gate (${verdict.code}: ${verdict.reason})`);
  let result: BashResult;
  try {
    result = (await context.execute(verdict.approved, context.signal)) as BashResult;
  } catch (thrown) {
    throw preFailed(command, `could not run (${toZotboxError(thrown).message})`);
  }
  // A limit first: the output of a fork bomb is thousands of fork errors, which would hide it.
  if (result.limit !== undefined) throw preFailed(command, `was stopped (${result.limit.code}): ${result.limit.message}`);
  const output = `${result.stdout}${result.stderr}`.trimEnd();
  if (result.exitCode !== 0) throw preFailed(command, `failed (exit ${result.exitCode ?? result.signal ?? 'unknown'})${output === '' ? '' : `: ${output.slice(0, 2000)}`}`);
  return `The agent's startup command \`${command}\` (entry.pre) printed:\n${output === '' ? '(nothing)' : output}`;
}
