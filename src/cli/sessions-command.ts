// `zotbox sessions list [NAME]`, `sessions show ID`, `sessions rm ID`: the recorded
// conversations in the state directory. Every field printed as text came from a
// session file (an agent's tool output, a model's words) and is sanitized.
import { homedir } from 'node:os';
import { findSession, listSessions, readSession, removeSession, sessionWorkspace, type LoadedSession, type SessionSummary } from '../api/sessions.js';
import { requireUsableStateDirectory, resolveStateDirectory, stateDirectoryOrigin } from '../api/state.js';
import { ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';

const ACTIONS = ['list', 'show', 'rm'] as const;

export const runSessions: CommandHandler = async (parsed, io) => {
  const [action, argument] = parsed.positionals;
  const json = parsed.values['json'] === true;
  const agentOption = parsed.values['agent'];
  const agent = typeof agentOption === 'string' ? agentOption : undefined;
  if (!(ACTIONS as readonly (string | undefined)[]).includes(action)) {
    throw new ZotboxError('ZB_CLI_USAGE', `unknown sessions action ${JSON.stringify(action)}; use list, show or rm. Run 'zotbox sessions --help'.`);
  }
  if (action === 'list' && agent !== undefined) throw new ZotboxError('ZB_CLI_USAGE', "sessions list takes the agent name as its argument, not --agent: 'zotbox sessions list NAME'.");
  if (action !== 'list' && argument === undefined)
    throw new ZotboxError('ZB_CLI_USAGE', `sessions ${action ?? ''} needs a session id ('zotbox sessions list' shows them). Run 'zotbox sessions --help'.`);
  const state = stateDirectoryFor(io, action === 'rm');
  if (action === 'list') return list(io, state, argument, json);
  const id = argument as string;
  if (action === 'show') return show(io, findSession(state, id, agent).file, json);
  const removed = removeSession(state, id, agent);
  if (json) io.stdout.write(`${JSON.stringify({ ok: true, removed: removed.file, agent: removed.agent, source: removed.source }, null, 2)}\n`);
  // The source is a path from the agent's record: any character may be in it.
  else writeTerminalText(io.stdout, `removed session ${id} of ${removed.agent} from ${field(removed.source ?? 'an unknown source')}\n`);
  return 0;
};

function stateDirectoryFor(io: CliIo, write: boolean): string {
  const state = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  requireUsableStateDirectory(state, { origin: stateDirectoryOrigin(io.env), write });
  return state;
}

function list(io: CliIo, state: string, agent: string | undefined, json: boolean): number {
  const sessions = listSessions(state, agent);
  if (json) io.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
  else if (sessions.length === 0) writeTerminalText(io.stdout, `no sessions${agent === undefined ? '' : ` of ${agent}`} in ${state}\n`);
  else for (const session of sessions) writeTerminalText(io.stdout, summaryLine(session));
  return 0;
}

/** id, agent, message count, created, last written, workspace, then the agent's source (issue 21): the two fields of any length last. */
function summaryLine(s: SessionSummary): string {
  const source = `from ${s.source === null ? '(an agent directory given to no agent)' : field(s.source)}`;
  if (s.problem !== null) return `${s.id}  ${s.agent}  INVALID  ${field(s.problem)}  ${source}\n`;
  const workspace = s.workspace === null ? '(no workspace recorded)' : field(s.workspace);
  return `${s.id}  ${s.agent}  ${s.messages ?? 0} message${s.messages === 1 ? '' : 's'}  created ${field(s.created_at ?? '')}  last ${s.last_written_at}  ${workspace}  ${source}\n`;
}

function show(io: CliIo, file: string, json: boolean): number {
  const session = readSession(file);
  if (json) {
    // The lines as stored (a torn last line dropped): one JSON value per line, like `run --json`.
    const lines = [session.header, ...session.messages.map((message) => ({ type: 'message', message }))];
    io.stdout.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  } else {
    writeTerminalText(io.stdout, conversationText(session));
  }
  return 0;
}

/** Longest tool input or result shown in full; the rest is summarized by its length (--json has everything). */
const SHOWN_TOOL_TEXT = 400;

function clip(text: string): string {
  return text.length <= SHOWN_TOOL_TEXT ? text : `${text.slice(0, SHOWN_TOOL_TEXT)}… (${text.length} characters; --json shows all)`;
}

/** The conversation as a reader wants it: who spoke, what they said, each tool call and its result. */
function conversationText({ header, messages }: LoadedSession): string {
  const workspace = sessionWorkspace(header);
  const lines = [
    `session ${field(header.id)} of ${field(header.agent)}, created ${field(header.created_at)}`,
    `workspace: ${workspace === undefined ? '(not recorded: a session from before workspaces were recorded)' : field(workspace)}`,
    `${messages.length} message${messages.length === 1 ? '' : 's'}`,
  ];
  for (const message of messages) {
    lines.push('', `── ${message.role}`);
    for (const block of message.content) {
      if (block.type === 'text') lines.push(block.text.split('\n').map(field).join('\n'));
      else if (block.type === 'tool_use') lines.push(`→ ${field(block.name)} ${field(clip(JSON.stringify(block.input)))}`);
      else lines.push(`← ${block.is_error ? 'error' : 'result'}: ${field(clip(block.content))}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
