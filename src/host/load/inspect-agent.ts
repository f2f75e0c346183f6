// What `zotbox inspect` and `zotbox verify` report about an agent. Nothing from
// the agent is executed: this reads the image and its manifest only.
import type { Digest, ImageFormat } from '../../archive/index.js';
import { ZotboxError } from '../../errors.js';
import type { Manifest } from '../../policy/manifest.js';
import { agentConsentsDirectory, agentDirectory, agentDataDirectory, agentSessionsDirectory } from '../consent/agent-directory.js';
import { describeAgentSource } from '../consent/agent-identity.js';
import { describeConfinement, resolveConfinement } from '../executors/confine/mode.js';
import { commandLimitCeiling, describeLimits, detectLimitEnforcement, type CommandLimits } from '../executors/confine/command-limits.js';
import { openAgent, type OpenAgentOptions, type OpenedAgent } from './open-agent.js';

export interface AgentFileReport {
  readonly path: string;
  readonly type: 'file' | 'directory';
  readonly size: number;
  readonly mode: string;
}

export interface AgentReport {
  readonly source: OpenedAgent['source'];
  readonly format: ImageFormat;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly artifactDigest: Digest | null;
  readonly contentDigest: Digest;
  readonly artifactSize: number | null;
  readonly expandedSize: number;
  /** The declared permissions, unexpanded (`${workspace}` stays as written), with defaults applied. */
  readonly permissions: Manifest['permissions'];
  readonly unknownKeys: readonly string[];
  readonly warnings: readonly string[];
  readonly files: readonly AgentFileReport[];
  /** The OS confinement commands would run under here by default (--confine required). */
  readonly confinement: string;
  /** Each confined command's resource ceilings (permissions.limits, zotbox's defaults for the rest) and how this host enforces them. */
  readonly limits: CommandLimits & { readonly enforcement: string };
  /**
   * Where the agent's data, sessions and consent receipts live in the state
   * directory (issue 21: by name and source), or null when no state directory was given.
   */
  readonly storage: AgentStorage | null;
}

/** An agent's own places in the state directory (they exist once it has run). */
export interface AgentStorage {
  /** The source they belong to with the name: a real path, or github:OWNER/REPO[/PATH]. */
  readonly source: string;
  readonly directory: string;
  readonly data: string;
  readonly sessions: string;
  readonly consents: string;
}

/** Options of inspect and verify: where to open the agent, and the state directory to say where its data lives. */
export interface InspectOptions extends OpenAgentOptions {
  readonly stateDirectory?: string;
}

export function reportAgent(agent: OpenedAgent, stateDirectory?: string): AgentReport {
  const { image, layout } = agent;
  const identity = { name: layout.identity.name, source: agent.sourceIdentity };
  return {
    source: agent.source,
    format: image.format,
    name: layout.identity.name,
    version: layout.identity.version,
    description: layout.identity.description,
    artifactDigest: image.artifactDigest ?? null,
    contentDigest: image.contentDigest,
    artifactSize: image.artifactSize ?? null,
    expandedSize: image.expandedSize,
    permissions: layout.manifest.permissions,
    unknownKeys: layout.unknownKeys,
    warnings: layout.warnings,
    files: image.entries.map((e) => ({ path: e.name, type: e.type, size: e.size, mode: `0${e.mode.toString(8)}` })),
    confinement: describeConfinement(resolveConfinement('required')),
    limits: limitsReport(commandLimitCeiling(layout.manifest.permissions.limits)),
    storage:
      stateDirectory === undefined
        ? null
        : {
            source: describeAgentSource(agent.sourceIdentity),
            directory: agentDirectory(stateDirectory, identity),
            data: agentDataDirectory(stateDirectory, identity),
            sessions: agentSessionsDirectory(stateDirectory, identity),
            consents: agentConsentsDirectory(stateDirectory, identity),
          },
  };
}

function limitsReport(limits: CommandLimits): CommandLimits & { readonly enforcement: string } {
  return { ...limits, enforcement: describeLimits({ limits, enforcement: detectLimitEnforcement() }) };
}

/** Opens and describes an agent. */
export async function inspectAgent(reference: string, options: InspectOptions): Promise<AgentReport> {
  return reportAgent(await openAgent(reference, options), options.stateDirectory);
}

export interface VerifyResult {
  readonly report: AgentReport;
  /** Which digest equalled `expect`, or null when no digest was expected. */
  readonly matched: 'artifact' | 'content' | null;
}

/**
 * Validates an agent and, when `expect` is given, requires one of its digests to
 * equal it (ZB_ARCHIVE_DIGEST_MISMATCH otherwise): the way to pin an agent in CI.
 */
export async function verifyAgent(reference: string, options: InspectOptions & { readonly expect?: Digest }): Promise<VerifyResult> {
  const report = await inspectAgent(reference, options);
  if (options.expect === undefined) return { report, matched: null };
  if (report.artifactDigest === options.expect) return { report, matched: 'artifact' };
  if (report.contentDigest === options.expect) return { report, matched: 'content' };
  throw new ZotboxError(
    'ZB_ARCHIVE_DIGEST_MISMATCH',
    `${report.source.path} does not match ${options.expect}: its artifact digest is ${report.artifactDigest ?? 'none (a directory)'} and its content digest is ${report.contentDigest}. The agent changed, or the pin is wrong.`,
    { details: { expected: options.expect, artifactDigest: report.artifactDigest, contentDigest: report.contentDigest } },
  );
}
