// Public API entry: running agents (runAgent and its events, the pool, sessions,
// replay, the executors). Re-exports only; this is the heavy entry (piscina,
// providers), loaded by `zotbox run` and nothing lighter.
export { runAgent, type RunAgentOptions } from '../host/run/run-agent.js';
export { prepareRun, type PrepareRunOptions, type RunPlan } from '../host/run/run-plan.js';
export { executeRun, type ExecuteRunOptions, type UserMessage } from '../host/run/execute-run.js';
export type { ApprovalAnswer, ApprovalRequest, AskApproval } from '../host/run/command-approver.js';
export { RunEventSchema, type RunEvent } from '../host/run/run-events.js';
export { AgentPool, DEFAULT_MAX_RUNS, type AgentPoolOptions } from '../host/run/pool.js';
export { DEFAULT_MODEL_CONCURRENCY, ModelEndpoints, PROCESS_MODEL_ENDPOINTS, type EndpointAddress, type ModelEndpoint, type ModelEndpointsOptions } from '../host/providers/model-endpoints.js';
export type { AdaptivePolicy } from '../host/providers/adaptive-limit.js';
export type { EndpointClock } from '../host/providers/endpoint-clock.js';
export type { BackoffPolicy } from '../host/providers/backoff-gate.js';
export { planSession, type PlannedSession, type SessionChoice } from '../host/run/run-session.js';
export { ReplayProvider, ReplayTranscriptSchema, readReplayTranscript, type ReplayTranscript } from '../host/providers/replay.js';
export { createExecutor, type ExecutorOptions } from '../host/executors/execute-approved.js';
export { listBundledSkills } from '../host/executors/skill.js';
