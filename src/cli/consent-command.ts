// `zotbox consent list [NAME]` and `zotbox consent revoke NAME [DIGEST]`.
import { homedir } from 'node:os';
import { listReceipts, revokeReceipts } from '../api/consent.js';
import { resolveStateDirectory } from '../api/state.js';
import { ZotboxError } from '../errors.js';
import type { CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';

export const runConsent: CommandHandler = async (parsed, io) => {
  const [action, name, digest] = parsed.positionals;
  const state = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  const json = parsed.values['json'] === true;
  if (action === 'list') {
    if (digest !== undefined) throw new ZotboxError('ZB_CLI_USAGE', "consent list takes at most an agent name. Run 'zotbox consent --help'.");
    const listed = listReceipts(state, name);
    if (json) {
      io.stdout.write(
        `${JSON.stringify(
          listed.map((r) => ({
            name: r.name,
            file: r.file,
            valid: r.receipt !== undefined,
            trusted: r.trusted,
            digest: r.receipt?.digest ?? null,
            version: r.receipt?.version ?? null,
            approved_at: r.receipt?.approved_at ?? null,
            permissions: r.receipt?.permissions ?? null,
          })),
          null,
          2,
        )}\n`,
      );
    } else if (listed.length === 0) {
      io.stdout.write(`no consent receipts${name === undefined ? '' : ` for ${name}`} in ${state}\n`);
    } else {
      // Names come from directory names and versions from receipt files: anyone who can write there chose them.
      for (const r of listed) {
        // UNTRUSTED: not signed by this installation (written by hand, by another program, or copied in); it is never used.
        writeTerminalText(
          io.stdout,
          r.receipt === undefined
            ? `${r.name}  INVALID  ${r.file}\n`
            : `${r.name}@${field(r.receipt.version)}  ${r.receipt.digest}  ${r.trusted ? `approved ${r.receipt.approved_at}` : `UNTRUSTED  ${r.file}`}\n`,
        );
      }
    }
    return 0;
  }
  if (action === 'revoke') {
    if (name === undefined) throw new ZotboxError('ZB_CLI_USAGE', "consent revoke needs the agent name. Run 'zotbox consent --help'.");
    const removed = revokeReceipts(state, name, digest);
    io.stdout.write(json ? `${JSON.stringify({ ok: true, removed }, null, 2)}\n` : `revoked ${removed.length} receipt${removed.length === 1 ? '' : 's'} for ${name}\n`);
    return 0;
  }
  throw new ZotboxError('ZB_CLI_USAGE', `unknown consent action ${JSON.stringify(action)}; use list or revoke. Run 'zotbox consent --help'.`);
};
