// `zotbox check`: the decision the gate would make for one tool call of an
// agent, without running anything. Uses the same policy functions, scopes and
// command environment as a real run.
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { ZotboxError, fileSystemError, type ErrorCode } from '../../errors.js';
import { compileNetAllow } from '../../policy/net-allow.js';
import { decideNetUrl } from '../../policy/net-url.js';
import { decidePathAccess, type PathTool } from '../../policy/path-decision.js';
import { compileScopes, type CompiledScopes } from '../../policy/scopes.js';
import type { ExecutionPlan } from '../../policy/shell-decision.js';
import type { ConfineMode } from '../executors/confine/mode.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../executors/command-environment.js';
import { userGitEnvironment } from '../executors/confine/control-locations.js';
import { currentControlLocations } from '../executors/confine/protected-locations.js';
import { openAgent, type OpenAgentOptions } from '../load/open-agent.js';
import { agentDataDirectory } from '../consent/agent-directory.js';
import { canonicalStateContext, refuseScopesInStateDirectory } from '../consent/state-scopes.js';

export type CheckTool = PathTool | 'bash' | 'net';
export const CHECK_TOOLS: readonly CheckTool[] = ['read', 'write', 'edit', 'bash', 'net'];

export interface CheckOptions extends OpenAgentOptions {
  /** The workspace (--cwd); the reference is resolved against OpenAgentOptions.cwd. */
  readonly workspace: string;
  readonly stateDirectory: string;
  /** Decide as for a run with this confinement (default: required, where every command runs in the sandbox or not at all). */
  readonly confine?: ConfineMode;
  /** The environment a run would get: the user's git configuration, whose control locations writes may not touch, is found through it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface CheckResult {
  readonly allowed: boolean;
  readonly tool: CheckTool;
  readonly subject: string;
  readonly agent: { readonly name: string; readonly version: string; readonly contentDigest: string };
  readonly workspace: string;
  readonly code?: ErrorCode;
  readonly reason?: string;
  readonly canonicalPath?: string;
  /** For bash: 'ask' runs the string with bash -c; 'allowlist' runs the plan. */
  readonly bashMode?: 'ask' | 'allowlist';
  readonly plan?: ExecutionPlan;
  /** For net: the host and port the URL connects to, and the net.allow entry that allows it. */
  readonly net?: { readonly host: string; readonly port: number; readonly entry: string };
  /** Declared scopes that grant nothing (unresolvable). */
  readonly warnings: readonly string[];
}

function canonicalWorkspace(directory: string): string {
  let real: string;
  try {
    real = realpathSync.native(directory);
  } catch (cause) {
    throw fileSystemError('use the workspace', directory, cause);
  }
  if (!statSync(real).isDirectory()) throw new ZotboxError('ZB_IO_FAILED', `the workspace ${directory} is not a directory. Pass a directory with --cwd.`, { details: { path: directory } });
  return real;
}

/** net.allow's rules as a run would enforce them: none unconfined (such a run is refused). */
function netRulesOf(allow: readonly string[], confined: boolean) {
  const compiled = compileNetAllow(confined ? allow : []);
  return compiled.ok ? compiled.rules : [];
}

export async function checkPermission(reference: string, tool: CheckTool, subject: string, options: CheckOptions): Promise<CheckResult> {
  const { image, layout, sourceIdentity } = await openAgent(reference, options);
  const workspace = canonicalWorkspace(options.workspace);
  const scopes: CompiledScopes = compileScopes(layout.manifest.permissions.fs, {
    workspace,
    ...canonicalStateContext(options.stateDirectory, agentDataDirectory(options.stateDirectory, { name: layout.manifest.name, source: sourceIdentity })),
  });
  refuseScopesInStateDirectory(scopes);
  const base = {
    tool,
    subject,
    agent: { name: layout.identity.name, version: layout.identity.version, contentDigest: image.contentDigest },
    workspace,
    warnings: scopes.warnings,
  };
  if (tool === 'net') {
    // A URL decided as the sandbox's proxy and the gate decide it (issue 24): net.allow, in force only when confined.
    const confined = (options.confine ?? 'required') !== 'off';
    if (!confined && layout.manifest.permissions.net.allow.length > 0) {
      return { ...base, allowed: false, code: 'ZB_CONFINEMENT_NET_UNCONFINED', reason: 'permissions.net.allow is enforced only in the sandbox; with --confine off this agent does not run at all.' };
    }
    const decision = decideNetUrl(netRulesOf(layout.manifest.permissions.net.allow, confined), subject);
    return decision.allow
      ? { ...base, allowed: true, net: { host: decision.host, port: decision.port, entry: decision.rule.entry } }
      : { ...base, allowed: false, code: decision.code, reason: decision.reason };
  }
  if (tool !== 'bash') {
    // As at run time (run-plan.ts): a write or edit is decided against the control locations the user's git configuration names.
    const stateDirectory = scopes.context.stateDirectory;
    const controls =
      tool === 'read'
        ? undefined
        : currentControlLocations(
            scopes.write.map((scope) => scope.root),
            stateDirectory === undefined ? [] : [stateDirectory],
            userGitEnvironment(options.env ?? {}, homedir()),
          );
    const decision = decidePathAccess(tool, subject, scopes, controls);
    return decision.allow
      ? { ...base, allowed: true, canonicalPath: decision.canonicalPath }
      : { ...base, allowed: false, code: decision.code, reason: decision.reason, ...(decision.canonicalPath === undefined ? {} : { canonicalPath: decision.canonicalPath }) };
  }
  // The bash gate (its rules and argument tables) is loaded only for a bash check, so a path check starts fast (issue 11).
  const { decideShellCommand } = await import('../../policy/shell-decision.js');
  const { mode, allow } = layout.manifest.permissions.bash;
  const decision = decideShellCommand(subject, {
    mode,
    allow,
    scopes,
    searchPath: COMMAND_SEARCH_PATH,
    trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES,
    confined: (options.confine ?? 'required') !== 'off',
    net: netRulesOf(layout.manifest.permissions.net.allow, (options.confine ?? 'required') !== 'off'),
  });
  if (!decision.allow) return { ...base, allowed: false, code: decision.code, reason: decision.reason };
  return decision.mode === 'ask' ? { ...base, allowed: true, bashMode: 'ask' } : { ...base, allowed: true, bashMode: 'allowlist', plan: decision.plan };
}
