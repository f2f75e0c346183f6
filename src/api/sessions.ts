// Public API entry: recorded sessions (docs/sessions.md): reading one, finding,
// listing and removing them. Re-exports only; light (no pool, no providers), so
// `zotbox sessions` loads nothing a run needs.
export { findSession, latestSessionFile, listSessions, pruneSessions, removeSession, type FoundSession, type PruneCriteria, type SessionSummary } from '../host/run/session-catalog.js';
export { historyForContinuation, readSession, readSessionHeader, sessionWorkspace, type LoadedSession, type SessionHeader } from '../host/run/sessions.js';
