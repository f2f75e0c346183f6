// Public API entry: where zotbox keeps its state (the state directory, each
// agent's data and sessions directories). Re-exports only.
export {
  agentDataDirectory,
  agentSessionsDirectory,
  ensureAgentDirectories,
  requireUsableStateDirectory,
  resolveStateDirectory,
  stateDirectoryOrigin,
  type StateDirectoryOrigin,
  type StateEnvironment,
} from '../host/consent/state-dir.js';
