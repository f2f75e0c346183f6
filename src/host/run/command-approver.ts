// Per-command approval for one run (issue 27 §6): the caller's question (the CLI's
// terminal prompt, `zotbox run --approve`) behind the gate's CommandApprovals. The
// question is asked only once the caller has handled every event before it, so the
// model's text is on screen before the prompt, never after it; each answer is a
// gate.approval event. Only an allowlist agent can use it.
import { ZotboxError } from '../../errors.js';
import { CommandApprovals, type AskApproval } from '../../policy/command-approval.js';
import type { BashMode } from '../../policy/manifest.js';
import type { EventQueue } from './event-queue.js';

export type { ApprovalAnswer, ApprovalRequest, AskApproval } from '../../policy/command-approval.js';

/**
 * Refuses approval for an agent whose bash mode has no allowlist to approve beyond, and for a run whose commands
 * are not confined: an approved command runs inside the sandbox, never with the user's full rights (checked before consent).
 */
export function refuseApprovalFor(mode: BashMode, name: string, confined: boolean): void {
  if (mode === 'allowlist' && !confined) {
    throw new ZotboxError(
      'ZB_APPROVE_UNCONFINED',
      `--approve cannot be used with --confine off: a command you approve still runs inside the sandbox, and this run has none. Fix: drop --confine off (bubblewrap must work here: zotbox doctor), or run without --approve.`,
    );
  }
  if (mode === 'allowlist') return;
  const why =
    mode === 'none'
      ? `its manifest allows no commands at all (permissions.bash.mode is "none"), and --approve never adds a permission the manifest does not ask for`
      : `its bash mode is "ask": any command already runs (confined) after consent, so there is nothing outside an allowlist to approve`;
  throw new ZotboxError('ZB_APPROVE_BASH_MODE', `--approve cannot be used with ${name}: ${why}. Fix: run without --approve.`, { details: { mode } });
}

/** The run's approvals: the caller asked after every earlier event was handled, each answer reported. */
export function runApprovals(ask: AskApproval, queue: EventQueue): CommandApprovals {
  return new CommandApprovals(
    async (request, signal) => {
      await queue.idle();
      return ask(request, signal);
    },
    ({ id, program, answer }) =>
      queue.push({
        type: 'gate.approval',
        id,
        program: program.name,
        path: program.program,
        approved: answer !== 'no',
        ...(answer === 'no' ? {} : { approved_by: 'user' as const, scope: answer }),
        at: new Date().toISOString(),
      }),
  );
}
