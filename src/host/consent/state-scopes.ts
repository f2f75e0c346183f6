// Keeps the zotbox state directory out of every scope, at load (issue 9 §6): the
// canonical state and agent data directories for the scope context, and the
// refusal (ZB_SCOPE_STATE_DIRECTORY) of any declared scope that resolves into
// it. Must never compare a path that is not canonical: symlinks would hide it.
import { ZotboxError } from '../../errors.js';
import { absoluteFrom, resolveCanonicalPath } from '../../policy/path-resolve.js';
import { findScopesInStateDirectory, type CompiledScopes } from '../../policy/scopes.js';
import { escapeControlCharacters } from './consent-text.js';

/**
 * A directory that may not exist yet, resolved through its nearest existing
 * parent. Never path.resolve: ".." must apply to the real parent, as it does
 * for the file operations that use the directory.
 */
function canonicalDirectory(directory: string, what: string): string {
  const resolved = resolveCanonicalPath(absoluteFrom(process.cwd(), directory));
  if (!resolved.ok) {
    throw new ZotboxError('ZB_IO_FAILED', `cannot use ${what} ${directory}: ${resolved.reason}. Fix: point ZOTBOX_HOME at a directory you own.`, { details: { path: directory } });
  }
  return resolved.path;
}

/** The state-related part of a ScopeContext: both directories canonical. */
export function canonicalStateContext(stateDirectory: string, agentData: string): { readonly stateDirectory: string; readonly agentData: string } {
  return { stateDirectory: canonicalDirectory(stateDirectory, 'the zotbox state directory'), agentData: canonicalDirectory(agentData, "the agent's data directory") };
}

/** Throws ZB_SCOPE_STATE_DIRECTORY, naming every offending scope and what it resolves to, if any scope reaches the state directory. */
export function refuseScopesInStateDirectory(scopes: CompiledScopes): void {
  const found = findScopesInStateDirectory(scopes);
  if (found.length === 0) return;
  const { stateDirectory, agentData } = scopes.context;
  const named = found.map((s) => `"${escapeControlCharacters(s.declared)}" (permissions.fs.${s.access}) resolves to ${escapeControlCharacters(s.root)}`).join('; ');
  throw new ZotboxError(
    'ZB_SCOPE_STATE_DIRECTORY',
    `scope ${named}, inside the zotbox state directory ${stateDirectory ?? ''}, which holds consent receipts, sessions and every agent's data; no agent may reach it. Fix: remove that scope from the manifest, or declare a path under \${agent_data} (this agent's own data directory, ${agentData}) or \${workspace}.`,
    { details: { stateDirectory, agentData, scopes: found.map((s) => ({ ...s })) } },
  );
}
