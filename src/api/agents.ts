// Public API entry: reading and packing agents (local references, inspect, verify,
// pack, the manifest). Re-exports only; GitHub downloads are in ./github.ts, so
// reading a local agent never loads the HTTP client (issue 11).
export { packAgent, packOutputPath, type PackOptions, type PackResult } from '../host/load/pack-agent.js';
export { openAgent, openLocalAgent, type AgentSource, type OpenAgentOptions, type OpenedAgent } from '../host/load/open-agent.js';
export { resolveAgentReference, type AgentReference } from '../host/load/agent-reference.js';
export { inspectAgent, reportAgent, verifyAgent, type AgentReport, type AgentFileReport, type AgentStorage, type InspectOptions, type VerifyResult } from '../host/load/inspect-agent.js';
export type { AgentIdentity, AgentLayout } from '../host/load/agent-layout.js';
export { loadAgent, type LoadAgentOptions, type LoadedAgent } from '../host/load/load-agent.js';
export { parseManifest, type Manifest, type BashMode } from '../policy/manifest.js';
