// Which session a run records to, and the history it starts from. Resolved
// before consent (a missing session is reported before anything is asked) and
// opened for writing only after it (a refused run leaves no file behind).
// --continue stays in the run's workspace (issue 13): a session recorded in
// another holds that workspace's tool output, and is reached only by id or file.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../errors.js';
import type { ChatMessage } from '../../policy/model-protocol.js';
import { latestSessionFile } from './session-catalog.js';
import { SessionWriter, historyForContinuation, newSessionId, readSession, rewriteSession, sessionFileFor } from './sessions.js';

/**
 * new: a fresh session in the agent's sessions directory (the default).
 * none: record nothing. continue: the agent's most recent session in this workspace.
 * { id }: that session of this agent, whatever its workspace. { file }: that file,
 * continued if it exists (whatever its workspace).
 */
export type SessionChoice = 'new' | 'none' | 'continue' | { readonly id: string } | { readonly file: string };

export interface PlannedSession {
  /** The messages the run starts from (empty for a new session). */
  readonly history: readonly ChatMessage[];
  /** Where the session is recorded; undefined with 'none'. */
  readonly file: string | undefined;
  readonly id: string | undefined;
  /** Creates or opens the file for appending; call once, after consent. */
  open(): SessionWriter | undefined;
}

/** `workspace` is the run's canonical workspace: recorded in a new session's header, and the one --continue looks in. */
export function planSession(choice: SessionChoice, sessionsDirectory: string, agentName: string, workspace: string): PlannedSession {
  if (choice === 'none') return { history: [], file: undefined, id: undefined, open: () => undefined };
  const fresh = (file: string, id: string): PlannedSession => ({
    history: [],
    file,
    id,
    open: () => SessionWriter.create(file, { id, agent: agentName, created_at: new Date().toISOString(), workspace }),
  });
  if (choice === 'new') {
    const id = newSessionId();
    return fresh(sessionFileFor(sessionsDirectory, id), id);
  }
  let file: string;
  if (choice === 'continue') {
    const latest = latestSessionFile(sessionsDirectory, { workspace });
    if (latest === undefined) throw nothingToContinue(sessionsDirectory, agentName, workspace);
    file = latest;
  } else if ('id' in choice) {
    file = sessionFileFor(sessionsDirectory, choice.id);
  } else {
    file = path.resolve(choice.file);
    if (!existsSync(file)) return fresh(file, path.basename(file).replace(/\.jsonl$/, ''));
  }
  const session = readSession(file);
  if (session.header.agent !== agentName) {
    throw new ZotboxError(
      'ZB_SESSION_MISMATCH',
      `the session ${file} belongs to the agent ${JSON.stringify(session.header.agent)}, not ${JSON.stringify(agentName)}. Continue it with that agent, or start a new session.`,
    );
  }
  const history = historyForContinuation(session.messages);
  return {
    history,
    file,
    id: session.header.id,
    open: () => {
      // The unanswered tail is cut from the file too, so the file stays a
      // conversation the model APIs accept.
      if (JSON.stringify(history) !== JSON.stringify(session.messages)) rewriteSession(file, { header: session.header, messages: history });
      return SessionWriter.append(file, history.length);
    },
  };
}

function nothingToContinue(sessionsDirectory: string, agentName: string, workspace: string): ZotboxError {
  const elsewhere = latestSessionFile(sessionsDirectory) !== undefined;
  return new ZotboxError(
    'ZB_SESSION_NOT_FOUND',
    `${agentName} has no session to continue in the workspace ${workspace}.${elsewhere ? ` Its sessions in other workspaces (or from before workspaces were recorded) are listed by 'zotbox sessions list ${agentName}'; continue one of them with --resume ID.` : ''} Run it without --continue to start one.`,
    { details: { agent: agentName, workspace } },
  );
}
