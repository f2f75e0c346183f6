// Public API entry: running agents (runAgent and its events, the pool, sessions,
// replay, the executors). Re-exports only; this is the heavy entry (piscina,
// providers), loaded by `zotbox run` and nothing lighter.
export { runAgent, type RunAgentOptions } from '../host/run/run-agent.js';
export { RunEventSchema, type RunEvent } from '../host/run/run-events.js';
export { AgentPool, type AgentPoolOptions } from '../host/run/pool.js';
export { planSession, type PlannedSession, type SessionChoice } from '../host/run/run-session.js';
export { historyForContinuation, latestSessionFile, readSession, type LoadedSession, type SessionHeader } from '../host/run/sessions.js';
export { ReplayProvider, ReplayTranscriptSchema, readReplayTranscript, type ReplayTranscript } from '../host/providers/replay.js';
export { createExecutor, type ExecutorOptions } from '../host/executors/execute-approved.js';
export { listBundledSkills } from '../host/executors/skill.js';
