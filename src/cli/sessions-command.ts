// `zotbox sessions list [NAME]`, `sessions show ID`, `sessions rm ID`, `sessions prune`: the recorded
// conversations in the state directory. Every field printed as text came from a
// session file (an agent's tool output, a model's words) and is sanitized.
import { homedir } from 'node:os';
import { findSession, listSessions, pruneSessions, readSession, removeSession, sessionWorkspace, type LoadedSession, type SessionSummary } from '../api/sessions.js';
import { requireUsableStateDirectory, resolveStateDirectory, stateDirectoryOrigin } from '../api/state.js';
import { ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';
import { unknownAction } from './unknown-action.js';

const ACTIONS = ['list', 'show', 'rm', 'prune'] as const;

export const runSessions: CommandHandler = async (parsed, io) => {
  const [action, argument] = parsed.positionals;
  const json = parsed.values['json'] === true;
  const agentOption = parsed.values['agent'];
  const agent = typeof agentOption === 'string' ? agentOption : undefined;
  if (!(ACTIONS as readonly (string | undefined)[]).includes(action)) {
    throw unknownAction('sessions', action, ['list', 'show', 'rm', 'prune']);
  }
  if (action === 'list' && agent !== undefined) throw new ZotboxError('ZB_CLI_USAGE', "sessions list takes the agent name as its argument, not --agent: 'zotbox sessions list NAME'.");
  if (action !== 'list' && action !== 'prune' && argument === undefined)
    throw new ZotboxError('ZB_CLI_USAGE', `sessions ${action ?? ''} needs a session id ('zotbox sessions list' shows them). Run 'zotbox sessions --help'.`);
  if (action !== 'prune' && (parsed.values['older-than'] !== undefined || parsed.values['empty'] !== undefined)) {
    throw new ZotboxError('ZB_CLI_USAGE', `--older-than and --empty are for 'sessions prune', not 'sessions ${action ?? ''}'.`);
  }
  if (action === 'prune') {
    if (agent !== undefined) throw new ZotboxError('ZB_CLI_USAGE', "sessions prune takes the agent name as its argument, not --agent: 'zotbox sessions prune NAME --empty'.");
    return prune(io, stateDirectoryFor(io, true), argument, parsed.values, json);
  }
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

/** Longest first prompt shown on a list line, in characters. */
const PROMPT_PREVIEW = 60;

/** The first prompt on one line: whitespace runs as one space, controls escaped, cut at PROMPT_PREVIEW characters. */
function promptPreview(prompt: string | null): string {
  if (prompt === null) return '(no prompt)';
  const flat = Array.from(field(prompt.replace(/\s+/g, ' ').trim()));
  return JSON.stringify(flat.length > PROMPT_PREVIEW ? `${flat.slice(0, PROMPT_PREVIEW - 1).join('')}…` : flat.join(''));
}

/** id, agent, message count, created, last written, the first prompt, workspace, then the agent's source (issue 21): the two fields of any length last. */
function summaryLine(s: SessionSummary): string {
  const source = `from ${s.source === null ? '(an agent directory given to no agent)' : field(s.source)}`;
  if (s.problem !== null) return `${s.id}  ${s.agent}  INVALID  ${field(s.problem)}  ${source}\n`;
  const workspace = s.workspace === null ? '(no workspace recorded)' : field(s.workspace);
  return `${s.id}  ${s.agent}  ${s.messages ?? 0} message${s.messages === 1 ? '' : 's'}  created ${field(s.created_at ?? '')}  last ${s.last_written_at}  ${promptPreview(s.first_prompt)}  ${workspace}  ${source}\n`;
}

const AGE_UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "30d" → milliseconds; anything else is a usage error that shows the form. */
export function parseAge(text: string): number {
  const match = /^(\d+)([mhdw])$/.exec(text.trim());
  const unit = match === null ? undefined : AGE_UNITS[match[2]!];
  if (match === null || unit === undefined) {
    throw new ZotboxError('ZB_CLI_USAGE', `--older-than takes an age as a number and a unit, m (minutes), h (hours), d (days) or w (weeks), such as 30d; got ${JSON.stringify(text)}.`);
  }
  return Number(match[1]) * unit;
}

function prune(io: CliIo, state: string, agent: string | undefined, values: Readonly<Record<string, unknown>>, json: boolean): number {
  const olderThan = values['older-than'];
  const pruned = pruneSessions(state, {
    ...(typeof olderThan === 'string' ? { olderThanMs: parseAge(olderThan) } : {}),
    empty: values['empty'] === true,
    now: Date.now(),
    ...(agent === undefined ? {} : { agentName: agent }),
  });
  if (json) io.stdout.write(`${JSON.stringify({ ok: true, removed: pruned }, null, 2)}\n`);
  else {
    for (const session of pruned) writeTerminalText(io.stdout, `removed ${summaryLine(session)}`);
    writeTerminalText(io.stdout, `${pruned.length} session${pruned.length === 1 ? '' : 's'} removed from ${state}\n`);
  }
  return 0;
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

/** Text as text (issue 27): its line breaks are line breaks (\r\n too), every other control escaped within its line. */
function textLines(text: string): string {
  return text.split(/\r?\n/).map(field).join('\n');
}

/**
 * A tool result as a reader wants it: the text a read returned, the output a command
 * printed (after its exit), else the result as stored (a JSON document's line breaks
 * are its own).
 */
function resultText(content: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return content; // not JSON: plain text, shown as it is
  }
  if (typeof parsed !== 'object' || parsed === null) return content;
  const r = parsed as Record<string, unknown>;
  if (typeof r['stdout'] === 'string' && typeof r['stderr'] === 'string') {
    const exit = typeof r['exitCode'] === 'number' ? `exit ${r['exitCode']}` : `killed by ${String(r['signal'])}`;
    return [exit, r['stdout'].trimEnd(), r['stderr'].trimEnd()].filter((part) => part !== '').join('\n');
  }
  if (typeof r['content'] === 'string' && typeof r['path'] === 'string') return `${r['path']}:\n${r['content']}`;
  return content;
}

const indented = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

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
      if (block.type === 'text') lines.push(textLines(block.text));
      else if (block.type === 'tool_use') lines.push(`→ ${field(block.name)} ${field(clip(JSON.stringify(block.input)))}`);
      else lines.push(`← ${block.is_error ? 'error' : 'result'}:`, indented(textLines(clip(resultText(block.content)))));
    }
  }
  return `${lines.join('\n')}\n`;
}
