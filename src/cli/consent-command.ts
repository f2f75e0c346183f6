// `zotbox consent list [NAME]` and `zotbox consent revoke NAME [DIGEST] [--workspace DIR]`.
// Reads and deletes receipts only; never writes one (approving is `zotbox run`'s).
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { listReceipts, revokeReceipts, type ListedReceipt } from '../api/consent.js';
import { describeAgentSource, requireUsableStateDirectory, resolveSourceReference, resolveStateDirectory, stateDirectoryOrigin } from '../api/state.js';
import { ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';
import { unknownAction } from './unknown-action.js';

export const runConsent: CommandHandler = async (parsed, io) => {
  const [action, name, digest] = parsed.positionals;
  const json = parsed.values['json'] === true;
  const workspaceOption = parsed.values['workspace'];
  const sourceOption = parsed.values['source'];
  if (action !== 'list' && action !== 'revoke') {
    throw unknownAction('consent', action, ['list', 'revoke']);
  }
  if (action === 'list' && digest !== undefined) throw new ZotboxError('ZB_CLI_USAGE', "consent list takes at most an agent name. Run 'zotbox consent --help'.");
  if (action === 'list' && (workspaceOption !== undefined || sourceOption !== undefined))
    throw new ZotboxError('ZB_CLI_USAGE', "--workspace and --source are for consent revoke; consent list shows every receipt's workspace and source. Run 'zotbox consent --help'.");
  if (action === 'revoke' && name === undefined) throw new ZotboxError('ZB_CLI_USAGE', "consent revoke needs the agent name. Run 'zotbox consent --help'.");
  const state = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  requireUsableStateDirectory(state, { origin: stateDirectoryOrigin(io.env), write: action === 'revoke' });
  if (action === 'list') {
    const listed = listReceipts(state, name);
    if (json) io.stdout.write(`${JSON.stringify(listed.map(receiptJson), null, 2)}\n`);
    else if (listed.length === 0) writeTerminalText(io.stdout, `no consent receipts${name === undefined ? '' : ` for ${name}`} in ${state}\n`);
    // Names come from directory names and versions from receipt files: anyone who can write there chose them.
    else for (const r of listed) writeTerminalText(io.stdout, receiptLine(r));
    return 0;
  }
  const agent = name as string;
  const workspace = typeof workspaceOption === 'string' ? canonicalWorkspace(io, workspaceOption) : undefined;
  const source = typeof sourceOption === 'string' ? describeAgentSource(resolveSourceReference(sourceOption, io.cwd)) : undefined;
  const removed = revokeReceipts(state, agent, { ...(digest === undefined ? {} : { digest }), ...(workspace === undefined ? {} : { workspace }), ...(source === undefined ? {} : { source }) });
  io.stdout.write(json ? `${JSON.stringify({ ok: true, removed }, null, 2)}\n` : `revoked ${removed.length} receipt${removed.length === 1 ? '' : 's'} for ${agent}\n`);
  return 0;
};

function receiptJson(r: ListedReceipt) {
  return {
    name: r.name,
    source: r.source ?? null,
    file: r.file,
    valid: r.receipt !== undefined,
    trusted: r.trusted,
    digest: r.receipt?.digest ?? null,
    version: r.receipt?.version ?? null,
    approved_at: r.receipt?.approved_at ?? null,
    workspace: r.receipt?.workspace ?? null,
    permissions: r.receipt?.permissions ?? null,
  };
}

/** One line per receipt. UNTRUSTED: not signed by this installation (written by hand, by another program, or copied in); it is never used. */
function receiptLine(r: ListedReceipt): string {
  // Every part from a file, its name included, is one escaped field: a planted file name cannot start a line of its own.
  if (r.receipt === undefined) return `${field(r.name)}  INVALID  ${field(r.file)}\n`;
  const head = `${field(r.name)}@${field(r.receipt.version)}  ${field(r.receipt.digest)}`;
  if (!r.trusted) return `${head}  UNTRUSTED  ${field(r.file)}\n`;
  // Receipts written before workspaces were recorded (issue 13) do not say where they were approved.
  const workspace = r.receipt.workspace === undefined ? 'workspace not recorded' : `workspace ${field(r.receipt.workspace)}`;
  // A receipt binds the source it was approved for (issue 21): one moved or adopted with the agent's data is kept, never used.
  const source =
    r.receipt.source === undefined || r.receipt.source !== r.source
      ? `NOT USED: approved for ${r.receipt.source === undefined ? 'no recorded source' : field(r.receipt.source)}`
      : `from ${field(r.receipt.source)}`;
  return `${head}  approved ${field(r.receipt.approved_at)}  ${workspace}  ${source}\n`;
}

/** Receipts record the canonical workspace, as a run computes it; a directory that is gone can still be named as it was. */
function canonicalWorkspace(io: CliIo, directory: string): string {
  const absolute = path.resolve(io.cwd, directory);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute; // removed since: the receipt recorded its canonical path, which this may still equal
  }
}
