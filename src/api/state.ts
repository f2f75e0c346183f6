// Public API entry: where zotbox keeps its state (the state directory, each
// agent's data and sessions directories). Re-exports only.
export {
  agentDataDirectory,
  agentDirectory,
  agentSessionsDirectory,
  ensureAgentDirectories,
  listAgentDirectories,
  type AgentDirectoryEntry,
} from '../host/consent/agent-directory.js';
export { agentSourceKey, describeAgentSource, type AgentSourceIdentity, type AgentStateIdentity } from '../host/consent/agent-identity.js';
export {
  requireUsableStateDirectory,
  resolveStateDirectory,
  stateDirectoryOrigin,
  type StateDirectoryOrigin,
  type StateEnvironment,
} from '../host/consent/state-dir.js';
