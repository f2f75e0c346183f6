// The table of privileged executors for one agent run: the gate server calls
// this with approved decisions only (gate-server.ts), and each executor
// re-checks what it touches at the moment of the effect.
import type { AgentImage } from '../../archive/index.js';
import type { ApprovedCall } from '../../policy/gate-server.js';
import type { ShellContext } from '../../policy/shell-decision.js';
import type { CommandIsolation } from './confine/command-isolation.js';
import { refuseUnsafeNewName } from './confine/agent-name-checks.js';
import { refuseProtectedWrite } from './confine/protected-locations.js';
import type { ControlLocations } from '../../policy/protected-files.js';
import { executeBash } from './bash.js';
import { executeEdit, executeRead, executeWrite, readResultFrom } from './file-tools.js';
import { readImageFile } from './image-files.js';
import { isImagePath } from '../../policy/image-paths.js';
import { executeSkill } from './skill.js';

export interface ExecutorOptions {
  readonly image: AgentImage;
  readonly workspace: string;
  /** Default limit for bash commands that ask for none. */
  readonly bashTimeoutMs: number;
  readonly outputCapBytes: number;
  /** How bash commands start: confined (or refused), or unconfined on the user's opt-out. */
  readonly isolation: CommandIsolation;
  /** Canonical write scope roots (the isolation's layout holds them too: its git-state check covers the file tools). */
  readonly writeRoots: readonly string[];
  /** The shell context the gate decides bash calls with (createGateDecider's): each allowlisted pipeline is decided again with it when it starts. */
  readonly shell: ShellContext;
  /** What the git configuration makes git run, as found now (the gate's own source): checked again at the effect of a write or edit. */
  readonly controls: () => ControlLocations;
}

/**
 * A write or edit inside the git-state check, holding the write scopes as a bash call does (no other run's command is
 * in flight there); the control locations are checked again at the effect, and the aftercare runs whatever happened.
 */
async function checked<T>(options: ExecutorOptions, canonical: string, signal: AbortSignal, write: () => T): Promise<T> {
  const check = await options.isolation.beginFileWrite(signal);
  try {
    refuseProtectedWrite(canonical, options.writeRoots, options.controls());
    return write();
  } finally {
    check.finish();
  }
}

export function createExecutor(options: ExecutorOptions): (approved: ApprovedCall, signal: AbortSignal) => Promise<unknown> {
  return async (approved, signal) => {
    switch (approved.tool) {
      case 'read':
        // The agent's package (/zotbox) is served from the image, never from a path on the host.
        if (isImagePath(approved.decision.canonicalPath)) return readResultFrom(approved.decision.canonicalPath, readImageFile(options.image, approved.decision.canonicalPath), approved.call.input);
        return executeRead(approved.decision, approved.call.input);
      case 'write':
        // The same git-state check as a bash call (issue 21 §4): a HEAD file written anywhere makes a repository.
        // A new name read as an option or shell code by the user's tools is refused before anything is written.
        return checked(options, approved.decision.canonicalPath, signal, () => {
          refuseUnsafeNewName(approved.decision.canonicalPath, options.writeRoots);
          return executeWrite(approved.decision, approved.call.input);
        });
      case 'edit':
        return checked(options, approved.decision.canonicalPath, signal, () => executeEdit(approved.decision, approved.call.input));
      case 'skill':
        return executeSkill(options.image, approved.decision.name);
      case 'bash':
        return executeBash(approved.decision, {
          workspace: options.workspace,
          timeoutMs: approved.call.input.timeout_ms ?? options.bashTimeoutMs,
          outputCapBytes: options.outputCapBytes,
          signal,
          isolation: options.isolation,
          shell: shellFor(approved.decision, options.shell),
        });
    }
  };
}

/**
 * The context each pipeline is decided again with as it starts: the gate's, with the programs the user approved
 * for this call (issue 27 §6) added to the allowlist, exactly as the gate decided it.
 */
function shellFor(decision: Extract<ApprovedCall, { tool: 'bash' }>['decision'], shell: ShellContext): ShellContext {
  const approved = decision.mode === 'allowlist' ? (decision.approvedPrograms ?? []) : [];
  return approved.length === 0 ? shell : { ...shell, allow: [...shell.allow, ...approved] };
}
