// Each agent's directory in the state directory (issue 21 §6):
// <state>/agents/<name>-<key>/ holding source.json (the name and source it belongs
// to), data/ (${agent_data}), consents/ and sessions/. The key is the source's
// (agent-identity.ts); the record is checked on every use, so a directory is given
// only to the agent it records: never on a key collision, never one zotbox did not
// make. A new directory appears whole (made beside, then renamed into place).
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { agentDirectoryName, agentSourceKey, describeAgentSource, isSameSource, parseAgentDirectoryName, type AgentSourceIdentity, type AgentStateIdentity } from './agent-identity.js';
import { readStateEntries, requireAgentName, requireNoLinkBelow } from './state-dir.js';

/** The record in each agent's directory. */
export const AGENT_RECORD_FILE = 'source.json';

/** Exactly these keys, each a string (checked by hand: zotbox check and inspect load no zod, issue 11). */
function hasStringKeys(value: unknown, keys: readonly string[]): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => typeof (value as Record<string, unknown>)[key] === 'string');
}

/** The agent a record names, or undefined when it is not a record zotbox writes. */
function parseRecord(json: unknown): AgentStateIdentity | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { zotbox_agent: version, name, source, ...rest } = json as Record<string, unknown>;
  if (version !== 1 || typeof name !== 'string' || Object.keys(rest).length > 0) return undefined;
  if (hasStringKeys(source, ['kind', 'path']) && source['kind'] === 'local' && source['path'] !== '') return { name, source: { kind: 'local', path: source['path']! } };
  if (hasStringKeys(source, ['kind', 'owner', 'repo', 'path']) && source['kind'] === 'github' && source['owner'] !== '' && source['repo'] !== '') {
    return { name, source: { kind: 'github', owner: source['owner']!, repo: source['repo']!, path: source['path']! } };
  }
  return undefined;
}

/** <state>/agents: every agent's directory. */
export function agentsRoot(stateDirectory: string): string {
  return path.join(stateDirectory, 'agents');
}

/** The agent's own directory: <state>/agents/<name>-<key>. */
export function agentDirectory(stateDirectory: string, agent: AgentStateIdentity): string {
  return path.join(agentsRoot(stateDirectory), agentDirectoryName(agent));
}

/** The agent's own data directory, which ${agent_data} expands to. */
export function agentDataDirectory(stateDirectory: string, agent: AgentStateIdentity): string {
  return path.join(agentDirectory(stateDirectory, agent), 'data');
}

/** The agent's session directory: sessions belong to the agent's name and source. */
export function agentSessionsDirectory(stateDirectory: string, agent: AgentStateIdentity): string {
  return path.join(agentDirectory(stateDirectory, agent), 'sessions');
}

/** The agent's consent receipts. */
export function agentConsentsDirectory(stateDirectory: string, agent: AgentStateIdentity): string {
  return path.join(agentDirectory(stateDirectory, agent), 'consents');
}

/** What an agent directory's record says, or why it says nothing usable. */
export type AgentRecord = { readonly ok: true; readonly agent: AgentStateIdentity } | { readonly ok: false; readonly problem: string };

/** Reads <directory>/source.json. A directory that is missing reads as `missing`; anything unreadable is a problem, never "nobody's". */
export function readAgentRecord(directory: string): AgentRecord | 'missing' {
  let text: string;
  try {
    text = readFileSync(path.join(directory, AGENT_RECORD_FILE), 'utf8');
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT') {
      try {
        lstatSync(directory);
      } catch {
        return 'missing';
      }
      return { ok: false, problem: `it has no ${AGENT_RECORD_FILE}` };
    }
    if (errno === 'ENOTDIR') return { ok: false, problem: 'it is not a directory' };
    throw fileSystemError('read', path.join(directory, AGENT_RECORD_FILE), cause);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined; // not JSON: reported below as an unusable record
  }
  const agent = parseRecord(json);
  return agent !== undefined ? { ok: true, agent } : { ok: false, problem: `its ${AGENT_RECORD_FILE} is not a zotbox agent record` };
}

/** Whether the record belongs in this directory entry: its name and its source's key spell the entry. */
function recordFits(entry: string, agent: AgentStateIdentity): boolean {
  const parsed = parseAgentDirectoryName(entry);
  return parsed !== undefined && parsed.name === agent.name && parsed.key === agentSourceKey(agent.source);
}

function mismatch(directory: string, agent: AgentStateIdentity, found: string): ZotboxError {
  return new ZotboxError(
    'ZB_STATE_AGENT_MISMATCH',
    `${directory} is where the data of ${agent.name} from ${describeAgentSource(agent.source)} belongs, but ${found}; zotbox gives it to no agent. Fix: if a 'zotbox data move' was interrupted, run it again; otherwise look at what is there and move it away (mv ${JSON.stringify(directory)} somewhere else), then run again.`,
    { details: { path: directory, name: agent.name, source: describeAgentSource(agent.source) } },
  );
}

/** Throws ZB_STATE_AGENT_MISMATCH unless the existing directory records exactly this agent. */
export function requireAgentRecord(directory: string, agent: AgentStateIdentity): void {
  const record = readAgentRecord(directory);
  if (record === 'missing') throw mismatch(directory, agent, 'it disappeared while in use');
  if (!record.ok) throw mismatch(directory, agent, record.problem);
  if (record.agent.name !== agent.name || !isSameSource(record.agent.source, agent.source)) {
    throw mismatch(directory, agent, `it records ${JSON.stringify(record.agent.name)} from ${describeAgentSource(record.agent.source)}`);
  }
}

/** Writes a file whole (temp file, fsync, rename), mode 0600; leaves no temp file on failure. */
export function writeFileAtomically(file: string, text: string): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (cause) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw fileSystemError('write', file, cause);
  }
}

/** The text of a record for this agent. */
export function agentRecordText(agent: AgentStateIdentity): string {
  return `${JSON.stringify({ zotbox_agent: 1, name: agent.name, source: agent.source }, null, 2)}\n`;
}

/** A new, private directory beside the agents' ones, for building one before it is renamed into place. */
export function makeStagingDirectory(stateDirectory: string, purpose: string): string {
  const root = agentsRoot(stateDirectory);
  requireNoLinkBelow(stateDirectory, root);
  const staging = path.join(root, `.${purpose}-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    mkdirSync(staging, { mode: 0o700 });
    chmodSync(staging, 0o700);
  } catch (cause) {
    throw fileSystemError('create', staging, cause);
  }
  return staging;
}

function isTakenError(cause: unknown): boolean {
  const errno = (cause as NodeJS.ErrnoException).code;
  return errno === 'ENOTEMPTY' || errno === 'EEXIST';
}

/**
 * The agent's directory, made whole when it does not exist yet (record first,
 * in a staging directory renamed into place), and checked against its record
 * when it does. Throws ZB_STATE_AGENT_MISMATCH for a directory of someone else.
 */
export function ensureAgentDirectory(stateDirectory: string, agent: AgentStateIdentity): string {
  const directory = agentDirectory(stateDirectory, agent);
  requireNoLinkBelow(stateDirectory, directory);
  if (readAgentRecord(directory) === 'missing') {
    const staging = makeStagingDirectory(stateDirectory, 'new');
    try {
      writeFileAtomically(path.join(staging, AGENT_RECORD_FILE), agentRecordText(agent));
      renameSync(staging, directory);
    } catch (cause) {
      rmSync(staging, { recursive: true, force: true });
      // Another run made it first: it is checked below like any existing one.
      if (!isTakenError(cause)) throw cause instanceof ZotboxError ? cause : fileSystemError('create', directory, cause);
    }
  }
  requireNoLinkBelow(stateDirectory, directory);
  requireAgentRecord(directory, agent);
  return directory;
}

/**
 * Creates (for every run) the agent's directory, its data directory and its
 * sessions directory, all 0700 whatever the umask, and returns their paths.
 */
export function ensureAgentDirectories(stateDirectory: string, agent: AgentStateIdentity): { data: string; sessions: string } {
  ensureAgentDirectory(stateDirectory, agent);
  const data = agentDataDirectory(stateDirectory, agent);
  const sessions = agentSessionsDirectory(stateDirectory, agent);
  for (const directory of [data, sessions]) {
    // A planted link would take the agent's data or its sessions out of the state directory.
    requireNoLinkBelow(stateDirectory, directory);
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      chmodSync(directory, 0o700);
    } catch (cause) {
      throw fileSystemError('create', directory, cause);
    }
    requireNoLinkBelow(stateDirectory, directory);
  }
  return { data, sessions };
}

/** One directory of <state>/agents as the listings show it. */
export interface AgentDirectoryEntry {
  readonly directory: string;
  /** The name its entry spells. */
  readonly name: string;
  /** The source its record names, when the record is valid and fits the entry; undefined otherwise (see `problem`). */
  readonly source: AgentSourceIdentity | undefined;
  /** Why this directory is given to no agent, or undefined when it is in use. */
  readonly problem: string | undefined;
}

/**
 * Every keyed agent directory (or those of one name), sorted. Entries zotbox would
 * not make (legacy name-only directories, staging ones) are not listed here.
 */
export function listAgentDirectories(stateDirectory: string, name?: string): AgentDirectoryEntry[] {
  if (name !== undefined) requireAgentName(name);
  const root = agentsRoot(stateDirectory);
  requireNoLinkBelow(stateDirectory, root);
  const listed: AgentDirectoryEntry[] = [];
  for (const entry of readStateEntries(root).sort()) {
    const parsed = parseAgentDirectoryName(entry);
    if (parsed === undefined || (name !== undefined && parsed.name !== name)) continue;
    const directory = path.join(root, entry);
    requireNoLinkBelow(stateDirectory, directory);
    const record = readAgentRecord(directory);
    if (record === 'missing') continue; // removed since the listing
    if (!record.ok) listed.push({ directory, name: parsed.name, source: undefined, problem: record.problem });
    else if (!recordFits(entry, record.agent)) listed.push({ directory, name: parsed.name, source: undefined, problem: `its ${AGENT_RECORD_FILE} records another agent` });
    else listed.push({ directory, name: parsed.name, source: record.agent.source, problem: undefined });
  }
  return listed;
}
