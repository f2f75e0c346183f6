// Who an agent is for its state (issue 21 §6): its manifest name AND its source.
// A local agent's source is the real path of its directory or .zot; a GitHub
// agent's is OWNER/REPO/PATH (owner and repository lowercased, as GitHub treats
// them; never the ref, so a new version keeps its data). Pure: no I/O. The
// directory name <name>-<key> is injective: the key is always 16 hex digits after
// the last "-", so no name can ever spell another agent's directory.
import { createHash } from 'node:crypto';
import { AGENT_NAME_PATTERN } from '../../policy/manifest-fields.js';

/** Where an agent came from, as far as its identity goes. */
export type AgentSourceIdentity =
  /** A directory or .zot file; `path` is canonical (every link resolved). */
  | { readonly kind: 'local'; readonly path: string }
  /** `owner` and `repo` lowercased; `path` the agent's directory in the repository, "" at its root. */
  | { readonly kind: 'github'; readonly owner: string; readonly repo: string; readonly path: string };

/** An agent as its data, sessions and consent receipts know it. */
export interface AgentStateIdentity {
  readonly name: string;
  readonly source: AgentSourceIdentity;
}

/** The hex digits of a key: 64 bits of SHA-256, and a directory records its full source besides (collisions are refused). */
export const AGENT_KEY_LENGTH = 16;
const KEY = new RegExp(`^[0-9a-f]{${AGENT_KEY_LENGTH}}$`);

/**
 * How a source is shown and given back (`zotbox data move --from`): the real
 * path for a local agent, github:OWNER/REPO[/PATH] for a GitHub one. A local
 * path is absolute, so the two forms never meet.
 */
export function describeAgentSource(source: AgentSourceIdentity): string {
  if (source.kind === 'local') return source.path;
  return `github:${source.owner}/${source.repo}${source.path === '' ? '' : `/${source.path}`}`;
}

/** The 16 hex digits that key a source: SHA-256 of its description, with a domain prefix. */
export function agentSourceKey(source: AgentSourceIdentity): string {
  return createHash('sha256')
    .update(`zotbox agent source 1\0${describeAgentSource(source)}`)
    .digest('hex')
    .slice(0, AGENT_KEY_LENGTH);
}

/** The name of the agent's directory in <state>/agents: readable name, then the source's key. */
export function agentDirectoryName(agent: AgentStateIdentity): string {
  if (!AGENT_NAME_PATTERN.test(agent.name)) throw new TypeError(`not an agent name: ${JSON.stringify(agent.name)}`);
  return `${agent.name}-${agentSourceKey(agent.source)}`;
}

/**
 * The name and key a directory entry of <state>/agents stands for, or undefined
 * when zotbox would not have made it (a legacy name-only directory, a temporary
 * or stray entry). The inverse of agentDirectoryName.
 */
export function parseAgentDirectoryName(entry: string): { readonly name: string; readonly key: string } | undefined {
  const cut = entry.length - AGENT_KEY_LENGTH - 1;
  if (cut < 1 || entry[cut] !== '-') return undefined;
  const name = entry.slice(0, cut);
  const key = entry.slice(cut + 1);
  return AGENT_NAME_PATTERN.test(name) && KEY.test(key) ? { name, key } : undefined;
}

/** Whether two sources are the same source. */
export function isSameSource(a: AgentSourceIdentity, b: AgentSourceIdentity): boolean {
  return describeAgentSource(a) === describeAgentSource(b);
}
