// Finding sessions in the state directory: the latest one of an agent (in a
// workspace), every session of one agent or of all, one session by id, and
// removing one. Ids and agent names are checked before they become paths, and
// only <id>.jsonl entries directly in an agent's sessions directory
// (<state>/agents/<name>-<key>/sessions, issue 21) are ever touched.
import { lstatSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError, isZotboxError } from '../../errors.js';
import { listAgentDirectories, type AgentDirectoryEntry } from '../consent/agent-directory.js';
import { describeAgentSource } from '../consent/agent-identity.js';
import { readStateEntries, requireAgentName, requireNoLinkBelow } from '../consent/state-dir.js';
import { isSessionId, readSession, readSessionHeader, requireSessionId, sessionFileFor, sessionWorkspace } from './sessions.js';

/** The session ids in an agent's directory (entries named <id>.jsonl; temporary files and strays are not sessions). */
function sessionIdsIn(directory: string): string[] {
  return readStateEntries(directory, { strayIsEmpty: true })
    .filter((name) => name.endsWith('.jsonl') && isSessionId(name.slice(0, -'.jsonl'.length)))
    .map((name) => name.slice(0, -'.jsonl'.length));
}
/**
 * The agent's most recently written session file, or undefined when it has none.
 * With `workspace`, only sessions whose header records that workspace count:
 * version 1 sessions and sessions whose header cannot be read never do.
 */
export function latestSessionFile(sessionsDirectory: string, filter: { readonly workspace?: string } = {}): string | undefined {
  const candidates: { file: string; mtime: number; id: string }[] = [];
  for (const id of sessionIdsIn(sessionsDirectory)) {
    const file = path.join(sessionsDirectory, `${id}.jsonl`);
    try {
      candidates.push({ file, mtime: statSync(file).mtimeMs, id });
    } catch {
      continue; // removed since the listing
    }
  }
  // Newest first; ties (same millisecond) fall back to the id, which sorts by creation time.
  candidates.sort((a, b) => b.mtime - a.mtime || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  if (filter.workspace === undefined) return candidates[0]?.file;
  return candidates.find((candidate) => headerWorkspace(candidate.file) === filter.workspace)?.file;
}

/** The workspace in a session file's header, or undefined (no workspace, or no readable header). */
function headerWorkspace(file: string): string | undefined {
  try {
    return sessionWorkspace(readSessionHeader(file));
  } catch {
    return undefined; // unreadable header: not known to belong to this workspace; --resume ID still reaches it
  }
}

/** One session as `zotbox sessions list` shows it. */
export interface SessionSummary {
  readonly id: string;
  /** The agent whose directory holds it. */
  readonly agent: string;
  /** That agent's source (a real path, or github:OWNER/REPO/PATH); null when its directory is given to no agent. */
  readonly source: string | null;
  readonly file: string;
  /** The workspace it was recorded in; null for sessions from before workspaces were recorded, and invalid ones. */
  readonly workspace: string | null;
  readonly created_at: string | null;
  /** When the file was last written (its modification time): the time of its last message. */
  readonly last_written_at: string;
  readonly messages: number | null;
  /** The first thing the user asked (the first text of the first user message), or null when there is none. */
  readonly first_prompt: string | null;
  /** Why the file is not a readable session, or null when it is one. */
  readonly problem: string | null;
}

/** The agent directories whose sessions are looked at: every one, or those of agents with this name (from any source). */
function agentsFor(stateDirectory: string, agentName: string | undefined): { readonly agent: string; readonly source: string | null; readonly directory: string }[] {
  const listed = listAgentDirectories(stateDirectory, agentName === undefined ? undefined : requireAgentName(agentName));
  return listed.map((entry: AgentDirectoryEntry) => {
    const directory = path.join(entry.directory, 'sessions');
    requireNoLinkBelow(stateDirectory, directory);
    return { agent: entry.name, source: entry.source === undefined ? null : describeAgentSource(entry.source), directory };
  });
}

/** Every session of every agent (or of every agent with one name), oldest first. A file that is not a readable session is listed with its problem. */
export function listSessions(stateDirectory: string, agentName?: string): SessionSummary[] {
  const summaries: SessionSummary[] = [];
  for (const { agent, source, directory } of agentsFor(stateDirectory, agentName)) {
    for (const id of sessionIdsIn(directory)) {
      const summary = summarize(agent, source, id, path.join(directory, `${id}.jsonl`));
      if (summary !== undefined) summaries.push(summary);
    }
  }
  const order = (a: SessionSummary) => `${a.id}\0${a.agent}\0${a.source ?? ''}`;
  return summaries.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

function summarize(agent: string, source: string | null, id: string, file: string): SessionSummary | undefined {
  let mtime: Date;
  let regular: boolean;
  try {
    const stats = lstatSync(file);
    mtime = stats.mtime;
    regular = stats.isFile();
  } catch {
    return undefined; // removed since the listing
  }
  const base = { id, agent, source, file, last_written_at: mtime.toISOString() };
  if (!regular) return { ...base, workspace: null, created_at: null, messages: null, first_prompt: null, problem: 'not a regular file' };
  try {
    const session = readSession(file);
    const firstUser = session.messages.find((message) => message.role === 'user');
    const firstText = firstUser?.content.find((block) => block.type === 'text');
    return {
      ...base,
      workspace: sessionWorkspace(session.header) ?? null,
      created_at: session.header.created_at,
      messages: session.messages.length,
      first_prompt: firstText?.type === 'text' ? firstText.text : null,
      problem: null,
    };
  } catch (error) {
    if (!isZotboxError(error)) throw error;
    return { ...base, workspace: null, created_at: null, messages: null, first_prompt: null, problem: error.message };
  }
}

/** A session found by id: its agent's name and source, and its file. */
export interface FoundSession {
  readonly agent: string;
  /** The agent's source; null when its directory is given to no agent. */
  readonly source: string | null;
  readonly file: string;
}

/** Where session `id` is: among the sessions of the agents with this name, or of whichever agent holds it. */
export function findSession(stateDirectory: string, id: string, agentName?: string): FoundSession {
  requireSessionId(id);
  const found = agentsFor(stateDirectory, agentName)
    .map(({ agent, source, directory }) => ({ agent, source, file: sessionFileFor(directory, id) }))
    .filter(({ file }) => exists(file));
  const [first, second] = found;
  if (first === undefined) {
    throw new ZotboxError('ZB_SESSION_NOT_FOUND', `there is no session ${id}${agentName === undefined ? '' : ` of ${agentName}`}. 'zotbox sessions list' lists the sessions.`, {
      details: { id, ...(agentName === undefined ? {} : { agent: agentName }) },
    });
  }
  if (second !== undefined) {
    const which = found.map((f) => `${f.agent} from ${f.source ?? 'an unknown source'}`);
    throw new ZotboxError('ZB_OPTION_INVALID', `the id ${id} names sessions of several agents (${which.join('; ')}). Say which with --agent NAME, or remove one by its file.`, {
      details: { id, agents: found.map((f) => f.agent), files: found.map((f) => f.file) },
    });
  }
  return first;
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    // ENOTDIR: a stray file where an agent's directory would be; it holds no session.
    if (errno === 'ENOENT' || errno === 'ENOTDIR') return false;
    throw fileSystemError('look at', file, cause);
  }
}

/** Deletes session `id` (found as findSession finds it) and returns its file. The entry is unlinked, never followed. */
export function removeSession(stateDirectory: string, id: string, agentName?: string): FoundSession {
  const found = findSession(stateDirectory, id, agentName);
  try {
    unlinkSync(found.file);
  } catch (cause) {
    throw fileSystemError('delete', found.file, cause);
  }
  return found;
}

/** Which sessions `zotbox sessions prune` removes: a session goes when it meets every criterion given. */
export interface PruneCriteria {
  /** Last written more than this many milliseconds before `now`. */
  readonly olderThanMs?: number;
  /** Holding no message (a run refused or stopped before its first message was recorded). */
  readonly empty?: boolean;
  /** The time ages are measured from (Date.now() at the CLI). */
  readonly now: number;
  readonly agentName?: string;
}

/**
 * Deletes the readable sessions that meet every criterion given, and returns them.
 * Files that are not readable sessions are never pruned: `sessions list` shows them
 * and `sessions rm` removes one. At least one criterion is required.
 */
export function pruneSessions(stateDirectory: string, criteria: PruneCriteria): SessionSummary[] {
  if (criteria.olderThanMs === undefined && criteria.empty !== true) {
    throw new ZotboxError('ZB_CLI_USAGE', 'prune needs a criterion: --older-than AGE (such as 30d) and/or --empty. Nothing was removed.');
  }
  const pruned: SessionSummary[] = [];
  for (const session of listSessions(stateDirectory, criteria.agentName)) {
    if (session.problem !== null) continue;
    if (criteria.empty === true && session.messages !== 0) continue;
    if (criteria.olderThanMs !== undefined && criteria.now - Date.parse(session.last_written_at) <= criteria.olderThanMs) continue;
    try {
      unlinkSync(session.file);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile: what prune wanted
      throw fileSystemError('delete', session.file, cause);
    }
    pruned.push(session);
  }
  return pruned;
}
