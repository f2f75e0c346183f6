// Public API entry: where zotbox keeps its state (the state directory, each
// agent's directory, keyed by its name and source, with its data and sessions),
// and moving an agent's data to a new source. Re-exports only.
export {
  agentDataDirectory,
  agentDirectory,
  agentSessionsDirectory,
  ensureAgentDirectories,
  listAgentDirectories,
  type AgentDirectoryEntry,
} from '../host/consent/agent-directory.js';
export { agentSourceKey, describeAgentSource, type AgentSourceIdentity, type AgentStateIdentity } from '../host/consent/agent-identity.js';
export { adoptLegacyAgentData, listLegacyAgentData, moveAgentData, type LegacyAgentData, type MoveRequest, type MovedAgentData } from '../host/consent/move-agent-data.js';
export { resolveSourceReference } from '../host/load/source-reference.js';
export {
  requireUsableStateDirectory,
  resolveStateDirectory,
  stateDirectoryOrigin,
  type StateDirectoryOrigin,
  type StateEnvironment,
} from '../host/consent/state-dir.js';
