// `zotbox data list [NAME]` and `zotbox data move AGENT --from SOURCE | --legacy`
// (issue 21 §6): where each agent's data, sessions and receipts are kept, by name
// and source, and the one explicit step that gives them to the agent at a new
// source. Paths and sources come from the state directory: printed as fields.
import { homedir } from 'node:os';
import { openAgent } from '../api/agents.js';
import {
  adoptLegacyAgentData,
  describeAgentSource,
  listAgentDirectories,
  listLegacyAgentData,
  moveAgentData,
  requireUsableStateDirectory,
  resolveSourceReference,
  resolveStateDirectory,
  stateDirectoryOrigin,
  type AgentDirectoryEntry,
  type LegacyAgentData,
} from '../api/state.js';
import { ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';
import { unknownAction } from './unknown-action.js';

export const runData: CommandHandler = async (parsed, io) => {
  const [action, argument] = parsed.positionals;
  const json = parsed.values['json'] === true;
  const from = parsed.values['from'];
  const legacy = parsed.values['legacy'] === true;
  if (action !== 'list' && action !== 'move') throw unknownAction('data', action, ['list', 'move']);
  if (action === 'list' && (from !== undefined || legacy)) throw new ZotboxError('ZB_CLI_USAGE', "--from and --legacy are for data move. Run 'zotbox data --help'.");
  if (action === 'move' && argument === undefined) throw new ZotboxError('ZB_CLI_USAGE', "data move needs the agent where it is now: 'zotbox data move AGENT --from SOURCE'.");
  if (action === 'move' && (from === undefined) === !legacy) {
    throw new ZotboxError(
      'ZB_CLI_USAGE',
      "data move takes either --from SOURCE (the source the data is kept under) or --legacy (data from before it was kept per source), and not both. Run 'zotbox data --help'.",
    );
  }
  const state = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  requireUsableStateDirectory(state, { origin: stateDirectoryOrigin(io.env), write: action === 'move' });
  if (action === 'list') return list(io, state, argument, json);
  const base = io.env['ZOTBOX_GITHUB_BASE'];
  const agent = await openAgent(argument as string, { cwd: io.cwd, ...(io.signal === undefined ? {} : { signal: io.signal }), ...(base === undefined || base === '' ? {} : { githubBaseUrl: base }) });
  const identity = { name: agent.layout.manifest.name, source: agent.sourceIdentity };
  const moved = typeof from === 'string' ? moveAgentData(state, { agent: identity, from: resolveSourceReference(from, io.cwd) }) : adoptLegacyAgentData(state, identity);
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ ok: true, name: identity.name, source: describeAgentSource(identity.source), directory: moved.directory, moved: moved.moved, resumed: moved.resumed }, null, 2)}\n`,
    );
  } else {
    const what = moved.resumed ? 'finished the interrupted move of' : 'moved';
    writeTerminalText(io.stdout, `${what} the data of ${identity.name} to ${field(moved.directory)}, for ${identity.name} from ${field(describeAgentSource(identity.source))}\n`);
  }
  return 0;
};

function entryJson(entry: AgentDirectoryEntry) {
  return { name: entry.name, source: entry.source === undefined ? null : describeAgentSource(entry.source), directory: entry.directory, problem: entry.problem ?? null };
}

function legacyJson(entry: LegacyAgentData) {
  return { name: entry.name, data: entry.data ?? null, consents: entry.consents ?? null, sessions: entry.sessions ?? null };
}

function list(io: CliIo, state: string, name: string | undefined, json: boolean): number {
  const agents = listAgentDirectories(state, name);
  const legacy = listLegacyAgentData(state, name);
  if (json) {
    io.stdout.write(`${JSON.stringify({ agents: agents.map(entryJson), legacy: legacy.map(legacyJson) }, null, 2)}\n`);
    return 0;
  }
  if (agents.length === 0 && legacy.length === 0) writeTerminalText(io.stdout, `no agent data${name === undefined ? '' : ` of ${name}`} in ${state}\n`);
  for (const entry of agents) {
    const source = entry.source === undefined ? `GIVEN TO NO AGENT: ${entry.problem ?? ''}` : `from ${describeAgentSource(entry.source)}`;
    writeTerminalText(io.stdout, `${entry.name}  ${field(source)}  ${field(entry.directory)}\n`);
  }
  for (const entry of legacy) {
    const where = [entry.data, entry.consents, entry.sessions].filter((p) => p !== undefined).map((p) => field(p));
    writeTerminalText(io.stdout, `${entry.name}  LEGACY (kept by name only, given to no agent; 'zotbox data move AGENT --legacy' adopts it)  ${where.join('  ')}\n`);
  }
  return 0;
}
