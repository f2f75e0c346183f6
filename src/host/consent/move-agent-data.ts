// The one way an agent's data follows it to a new source (issue 21 §6): `zotbox
// data move`. An agent's directory is renamed to its new key and its record
// rewritten; data kept by earlier versions under the name only (agents/<name>/,
// sessions/agents/<name>/) is adopted the same way, never given out by itself.
// Every step is a rename on one filesystem, undone in reverse on failure; a
// destination that holds anything is refused. Consent receipts move too, but
// they bind the source they were approved for: the moved agent is asked again.
import { lstatSync, readdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { AGENT_RECORD_FILE, agentDirectory, agentRecordText, agentsRoot, makeStagingDirectory, readAgentRecord, requireAgentRecord, writeFileAtomically } from './agent-directory.js';
import { describeAgentSource, isSameSource, type AgentSourceIdentity, type AgentStateIdentity } from './agent-identity.js';
import { isAgentName, readStateEntries, requireAgentName, requireNoLinkBelow } from './state-dir.js';

/** What a move or an adoption did. */
export interface MovedAgentData {
  /** The agent's directory now. */
  readonly directory: string;
  /** What was moved there (directories). */
  readonly moved: readonly string[];
  /** True when an interrupted move was finished (its directory was already in place). */
  readonly resumed: boolean;
}

/** Test seam: called after each rename of a move, before the next step. Production code never passes it. */
export type MoveSeam = (step: string) => void;

const SUBDIRECTORIES = ['data', 'sessions', 'consents'] as const;

function isMissing(file: string): boolean {
  try {
    lstatSync(file);
    return false;
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT') return true;
    throw fileSystemError('look at', file, cause);
  }
}

function destinationTaken(directory: string, agent: AgentStateIdentity, holds: string): ZotboxError {
  return new ZotboxError(
    'ZB_DATA_DESTINATION_EXISTS',
    `${agent.name} from ${describeAgentSource(agent.source)} already has data at ${directory} (${holds}); nothing was moved. Fix: if that data is not wanted, remove it (rm -r ${JSON.stringify(directory)}), then run the move again.`,
    { details: { path: directory, name: agent.name, source: describeAgentSource(agent.source) } },
  );
}

/**
 * Removes the agent's directory when it holds nothing but its record and empty
 * data/, sessions/ and consents/ (what one run that kept nothing leaves), so the
 * move can take its place; throws ZB_DATA_DESTINATION_EXISTS when it holds more.
 */
function clearEmptyDestination(directory: string, agent: AgentStateIdentity): void {
  const record = readAgentRecord(directory);
  if (record === 'missing') return;
  if (!record.ok) throw destinationTaken(directory, agent, `a directory that ${record.problem}`);
  const entries = readdirSync(directory);
  const unexpected = entries.find((entry) => entry !== AGENT_RECORD_FILE && !(SUBDIRECTORIES as readonly string[]).includes(entry));
  if (unexpected !== undefined) throw destinationTaken(directory, agent, `it holds ${unexpected}`);
  for (const sub of SUBDIRECTORIES) {
    const full = path.join(directory, sub);
    if (isMissing(full)) continue;
    if (!lstatSync(full).isDirectory() || readdirSync(full).length > 0) throw destinationTaken(directory, agent, `its ${sub}/ is not empty`);
  }
  try {
    for (const sub of SUBDIRECTORIES) if (!isMissing(path.join(directory, sub))) rmdirSync(path.join(directory, sub));
    unlinkSync(path.join(directory, AGENT_RECORD_FILE));
    rmdirSync(directory);
  } catch (cause) {
    // Something was written there meanwhile (a run of the agent): give the record back and refuse.
    if (!isMissing(directory)) writeFileAtomically(path.join(directory, AGENT_RECORD_FILE), agentRecordText(agent));
    throw destinationTaken(directory, agent, `it was written to while being cleared: ${(cause as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

function isTaken(cause: unknown): boolean {
  const errno = (cause as NodeJS.ErrnoException).code;
  return errno === 'ENOTEMPTY' || errno === 'EEXIST';
}

/**
 * Gives the data, sessions and receipts of `agent.name` from the source `from`
 * to `agent` (the same name at its new source), by renaming its directory.
 * Throws ZB_DATA_NOT_FOUND when there is nothing to move, ZB_DATA_DESTINATION_EXISTS
 * when the agent already has data at its new source, ZB_OPTION_INVALID when both
 * sources are one. Finishes a move a crash interrupted.
 */
export function moveAgentData(stateDirectory: string, request: MoveRequest): MovedAgentData {
  return moveAgentDataWithSeam(stateDirectory, request);
}

/** What to move: the data of `agent.name` from `from`, to `agent` (the same name at its new source). */
export interface MoveRequest {
  readonly agent: AgentStateIdentity;
  readonly from: AgentSourceIdentity;
}

/** moveAgentData with a test seam (not public: src/index.ts exports moveAgentData only). */
export function moveAgentDataWithSeam(stateDirectory: string, request: MoveRequest, seam?: MoveSeam): MovedAgentData {
  const { agent, from } = request;
  requireAgentName(agent.name);
  if (isSameSource(agent.source, from)) {
    throw new ZotboxError('ZB_OPTION_INVALID', `${agent.name} is already at ${describeAgentSource(from)}: there is nothing to move. Give --from the source the agent's data was kept under before.`, {
      details: { name: agent.name, source: describeAgentSource(from) },
    });
  }
  const old = { name: agent.name, source: from };
  const source = agentDirectory(stateDirectory, old);
  const target = agentDirectory(stateDirectory, agent);
  requireNoLinkBelow(stateDirectory, source);
  requireNoLinkBelow(stateDirectory, target);
  if (readAgentRecord(source) === 'missing') {
    // A move interrupted between its rename and its record: the directory is in place, recording the old source.
    const there = readAgentRecord(target);
    if (there !== 'missing' && there.ok && there.agent.name === old.name && isSameSource(there.agent.source, from)) {
      writeFileAtomically(path.join(target, AGENT_RECORD_FILE), agentRecordText(agent));
      return { directory: target, moved: [target], resumed: true };
    }
    throw new ZotboxError(
      'ZB_DATA_NOT_FOUND',
      `there is no data of ${agent.name} from ${describeAgentSource(from)} (it would be at ${source}). Fix: 'zotbox data list ${agent.name}' shows the sources its data is kept under; give one of them to --from (or --legacy for data from before zotbox kept it per source).`,
      { details: { path: source, name: agent.name, from: describeAgentSource(from) } },
    );
  }
  requireAgentRecord(source, old);
  clearEmptyDestination(target, agent);
  try {
    renameSync(source, target);
  } catch (cause) {
    if (isTaken(cause)) throw destinationTaken(target, agent, 'it appeared during the move');
    throw fileSystemError('move', source, cause);
  }
  try {
    seam?.('renamed');
    writeFileAtomically(path.join(target, AGENT_RECORD_FILE), agentRecordText(agent));
  } catch (error) {
    renameSync(target, source); // undo: the directory goes back under its old key, with its old record
    throw error;
  }
  return { directory: target, moved: [source], resumed: false };
}

/** Data kept by earlier versions under an agent's name only: never given to any agent, until adopted. */
export interface LegacyAgentData {
  readonly name: string;
  /** The name-only directories that exist: agents/<name>/data, agents/<name>/consents, sessions/agents/<name>. */
  readonly data: string | undefined;
  readonly consents: string | undefined;
  readonly sessions: string | undefined;
}

function legacyParts(stateDirectory: string, name: string): LegacyAgentData {
  const home = path.join(agentsRoot(stateDirectory), name);
  const sessions = path.join(stateDirectory, 'sessions', 'agents', name);
  // A directory zotbox made for one agent (it holds a valid record) is not legacy, whatever its name looks like.
  const record = readAgentRecord(home);
  const legacyHome = record === 'missing' || !record.ok;
  const existing = (directory: string) => {
    requireNoLinkBelow(stateDirectory, directory);
    return isMissing(directory) ? undefined : directory;
  };
  return {
    name,
    data: legacyHome ? existing(path.join(home, 'data')) : undefined,
    consents: legacyHome ? existing(path.join(home, 'consents')) : undefined,
    sessions: existing(sessions),
  };
}

/** Every name with data in the name-only layout of earlier versions (or that name's only). */
export function listLegacyAgentData(stateDirectory: string, name?: string): LegacyAgentData[] {
  const names =
    name === undefined
      ? [...new Set([...readStateEntries(agentsRoot(stateDirectory)), ...readStateEntries(path.join(stateDirectory, 'sessions', 'agents'))])].filter(isAgentName).sort()
      : [requireAgentName(name)];
  return names.map((n) => legacyParts(stateDirectory, n)).filter((l) => l.data !== undefined || l.consents !== undefined || l.sessions !== undefined);
}

/**
 * Gives the data, sessions and receipts an earlier zotbox kept under the agent's
 * name only to `agent` (that name from one source), as moveAgentData does:
 * built in a staging directory renamed into place, every step undone on failure.
 * Whatever else is in the old directory stays there.
 */
export function adoptLegacyAgentData(stateDirectory: string, agent: AgentStateIdentity): MovedAgentData {
  return adoptLegacyAgentDataWithSeam(stateDirectory, agent);
}

/** adoptLegacyAgentData with a test seam (not public). */
export function adoptLegacyAgentDataWithSeam(stateDirectory: string, agent: AgentStateIdentity, seam?: MoveSeam): MovedAgentData {
  requireAgentName(agent.name);
  const legacy = legacyParts(stateDirectory, agent.name);
  const parts = (
    [
      [legacy.data, 'data'],
      [legacy.consents, 'consents'],
      [legacy.sessions, 'sessions'],
    ] as const
  ).filter((part): part is readonly [string, (typeof SUBDIRECTORIES)[number]] => part[0] !== undefined);
  if (parts.length === 0) {
    throw new ZotboxError(
      'ZB_DATA_NOT_FOUND',
      `there is no data of ${agent.name} from before zotbox kept it per source (it would be in ${path.join(agentsRoot(stateDirectory), agent.name)} or ${path.join(stateDirectory, 'sessions', 'agents', agent.name)}). Fix: 'zotbox data list ${agent.name}' shows where its data is.`,
      { details: { name: agent.name } },
    );
  }
  for (const [directory] of parts) {
    if (!lstatSync(directory).isDirectory())
      throw new ZotboxError('ZB_IO_FAILED', `${directory} is not a directory; zotbox made none there that is not. Fix: move it away, then run again.`, { details: { path: directory } });
  }
  const target = agentDirectory(stateDirectory, agent);
  requireNoLinkBelow(stateDirectory, target);
  clearEmptyDestination(target, agent);
  const staging = makeStagingDirectory(stateDirectory, 'adopt');
  const done: [string, string][] = [];
  try {
    writeFileAtomically(path.join(staging, AGENT_RECORD_FILE), agentRecordText(agent));
    for (const [directory, sub] of parts) {
      renameSync(directory, path.join(staging, sub));
      done.push([directory, path.join(staging, sub)]);
      seam?.(sub);
    }
    try {
      renameSync(staging, target);
    } catch (cause) {
      throw isTaken(cause) ? destinationTaken(target, agent, 'it appeared during the move') : fileSystemError('move', staging, cause);
    }
  } catch (error) {
    for (const [from, to] of done.reverse()) renameSync(to, from);
    unlinkSafely(path.join(staging, AGENT_RECORD_FILE));
    rmdirSync(staging);
    throw error instanceof ZotboxError ? error : fileSystemError('move', target, error);
  }
  // The emptied name-only directory goes too, when nothing else is in it.
  removeIfEmpty(path.join(agentsRoot(stateDirectory), agent.name));
  return { directory: target, moved: parts.map(([directory]) => directory), resumed: false };
}

function unlinkSafely(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // not written: the failure came before the record
  }
}

function removeIfEmpty(directory: string): void {
  try {
    rmdirSync(directory);
  } catch {
    // not empty (something else is kept there), or already gone: it is left as it is
  }
}
