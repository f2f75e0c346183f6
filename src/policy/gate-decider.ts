// Binds the policy to the gate: for one agent run, turns each tool call into a
// verdict with path decisions (read, write, edit), shell decisions (bash) and
// the agent image's skill index (skill). The host builds one per run, and
// rebuilds it when the workspace changes (scopes follow the workspace).
import type { ApprovedCall, ApprovedPath, AuditFields, GateVerdict } from './gate-server.js';
import type { ToolCall } from './gate-protocol.js';
import { decidePathAccess, type PathTool } from './path-decision.js';
import type { ControlLocations } from './protected-files.js';
import { decideShellCommand, type ShellContext, type ShellDecision } from './shell-decision.js';

export interface GateDeciderOptions {
  /** Shell context; its scopes also govern the file tools. */
  readonly shell: ShellContext;
  /** Names of the skills the agent image bundles. */
  readonly skills: ReadonlySet<string>;
  /**
   * What the repositories' git configuration makes git run or read, as the host finds it right now (issue 21 §3):
   * asked afresh for each write and edit, so that it is never stale. None when absent.
   */
  readonly controls?: () => ControlLocations;
}

/**
 * The gate's decision for one call. `approved` names programs the user approved at the terminal (issue 27 §6,
 * command-approval.ts): for a bash call they count as allowlisted, and every other check applies as before.
 */
export type GateDecide = (call: ToolCall, approved?: readonly string[]) => GateVerdict;

export function createGateDecider(options: GateDeciderOptions): GateDecide {
  const { shell, skills } = options;
  const pathVerdict = (path: string, tool: PathTool, approve: (decision: ApprovedPath) => ApprovedCall): GateVerdict => {
    const decision = decidePathAccess(tool, path, shell.scopes, tool === 'read' || options.controls === undefined ? undefined : options.controls(), { fileTool: true });
    const audit = decision.canonicalPath === undefined ? {} : { canonicalPath: decision.canonicalPath };
    if (!decision.allow) return { allow: false, code: decision.code, reason: decision.reason, audit };
    return { allow: true, approved: approve(decision), audit };
  };
  return (call, approved = []) => {
    switch (call.tool) {
      case 'read':
        return pathVerdict(call.input.path, 'read', (decision) => ({ tool: 'read', call, decision }));
      case 'write':
        return pathVerdict(call.input.path, 'write', (decision) => ({ tool: 'write', call, decision }));
      case 'edit':
        return pathVerdict(call.input.path, 'edit', (decision) => ({ tool: 'edit', call, decision }));
      case 'bash': {
        // Only the allowlist grows with approvals; the executor decides again with the same list (approvedPrograms).
        const context = approved.length === 0 ? shell : { ...shell, allow: [...shell.allow, ...approved] };
        const decided = decideShellCommand(call.input.command, context);
        const audit = shellAudit(decided);
        if (!decided.allow) {
          return { allow: false, code: decided.code, reason: decided.reason, audit, ...(decided.unlisted === undefined ? {} : { unlisted: decided.unlisted }) };
        }
        const decision = decided.mode === 'allowlist' && approved.length > 0 ? { ...decided, approvedPrograms: [...approved] } : decided;
        return { allow: true, approved: { tool: 'bash', call, decision }, audit };
      }
      case 'skill':
        if (!skills.has(call.input.name)) {
          return {
            allow: false,
            code: 'ZB_POLICY_SKILL_UNKNOWN',
            reason: `skill ${JSON.stringify(call.input.name)} is not bundled with this agent; its skills are: ${[...skills].join(', ') || 'none'}.`,
            audit: {},
          };
        }
        return { allow: true, approved: { tool: 'skill', call, decision: { allow: true, name: call.input.name } }, audit: {} };
    }
  };
}

/**
 * A bash decision's record: the argv that runs (an allowed allowlist line: its plan, cd
 * targets canonical; otherwise as parsed, when it parsed), and the paths the gate decided
 * for it, with whether they are all of them (issue 22 §1: what the eval's matchers see).
 */
export function shellAudit(decision: ShellDecision): AuditFields {
  const facts = decision.facts;
  const argv = decision.allow && decision.mode === 'allowlist' ? decision.plan.items.flatMap((i) => i.pipeline.map((s) => (s.kind === 'cd' ? ['cd', s.directory] : s.argv))) : facts?.argv;
  return { ...(argv === undefined ? {} : { argv }), paths: facts?.paths ?? [], pathsComplete: facts?.pathsComplete ?? false };
}
