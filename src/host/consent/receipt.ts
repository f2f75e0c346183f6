// Consent receipts (Part A): <state>/agents/<name>-<source key>/consents/<digest>-<key>.json,
// one per content digest AND expanded permission summary (<key> is a hash of the
// summary), so each workspace an agent was approved in keeps its own (issue 13).
// A receipt also records and binds the agent's source (issue 21 §6): consent for
// one folder or repository never covers another, nor data moved from it.
// Signed with the installation's key (issue 9 §6); written atomically (temp file,
// fsync, rename, mode 0600, directories 0700); a receipt counts only if it parses,
// its mac verifies and it matches both. Never trusts a receipt another writer made.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { ensureReceiptKey, readReceiptKey } from './receipt-key.js';
import { canonicalJson, computeReceiptMac, isReceiptMacValid } from './receipt-mac.js';
import { agentConsentsDirectory, ensureAgentDirectory, listAgentDirectories } from './agent-directory.js';
import { describeAgentSource, type AgentSourceIdentity, type AgentStateIdentity } from './agent-identity.js';
import { readStateEntries, requireAgentName, requireNoLinkBelow } from './state-dir.js';

const ConfinementSummarySchema = z.enum(['bubblewrap', 'unconfined']);
/** The confinement consent shows and a receipt binds: a confined approval never covers an unconfined run. */
export type ConfinementSummary = z.infer<typeof ConfinementSummarySchema>;

export const ConsentSummarySchema = z.strictObject({
  read: z.array(z.string()),
  write: z.array(z.string()),
  bash: z.strictObject({ mode: z.enum(['none', 'ask', 'allowlist']), allow: z.array(z.string()) }),
  confinement: ConfinementSummarySchema,
  // permissions.net.allow as declared; present only when not empty, so receipts of agents without it keep their key.
  net: z.array(z.string()).optional(),
});
export type ConsentSummary = z.infer<typeof ConsentSummarySchema>;

const ReceiptSchema = z.strictObject({
  // 2: signed receipts. Version 1 had no mac; those are never trusted.
  receipt: z.literal(2),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  artifact_digest: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .nullable(),
  name: z.string(),
  version: z.string(),
  permissions: ConsentSummarySchema,
  approved_at: z.string(),
  // The canonical workspace the run was approved in, for `consent list`; signed like
  // every field. Absent in receipts written before issue 13, and when unknown.
  workspace: z.string().optional(),
  // The agent's source as describeAgentSource gives it (issue 21); absent in older receipts, which are then never used.
  source: z.string().optional(),
  // Optional only so that an unsigned receipt is listed as UNTRUSTED rather than invalid.
  mac: z.string().optional(),
});
export type ConsentReceipt = z.infer<typeof ReceiptSchema>;
/** A receipt before it is signed. */
export type UnsignedReceipt = Omit<ConsentReceipt, 'mac'>;

export function consentsDirectory(stateDirectory: string, agent: AgentStateIdentity): string {
  requireAgentName(agent.name);
  return agentConsentsDirectory(stateDirectory, agent);
}

const digestHex = (digest: string) => digest.replace(/^sha256:/, '');

/**
 * 16 hex digits of SHA-256 over the canonical permission summary and the
 * workspace: tells receipts of one digest apart. The workspace is part of it
 * because permissions need not name it (an agent with only a bash allowlist runs
 * its commands wherever it is started): consent in one workspace never covers another.
 */
export function permissionsKey(permissions: ConsentSummary, workspace?: string): string {
  return createHash('sha256')
    .update(canonicalJson({ permissions, workspace: workspace ?? null }))
    .digest('hex')
    .slice(0, 16);
}

/** Where the receipt of this agent (name and source) for this digest, these expanded permissions and this workspace is kept. */
export function receiptPath(stateDirectory: string, agent: AgentStateIdentity, digest: string, permissions: ConsentSummary, workspace?: string): string {
  return path.join(consentsDirectory(stateDirectory, agent), `${digestHex(digest)}-${permissionsKey(permissions, workspace)}.json`);
}

/** The receipt in a file, if it is one (parsing only: not yet trusted). */
function parseReceiptFile(file: string): ConsentReceipt | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined; // no receipt (or unreadable): consent must be asked again
  }
  try {
    const parsed = ReceiptSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // not JSON: a tampered or truncated receipt grants nothing
  }
}

/** Whether this installation's key signed the receipt. */
function isSignedBy(key: Buffer | undefined, receipt: ConsentReceipt): boolean {
  if (key === undefined) return false; // no key yet: nothing was ever signed here
  const { mac, ...fields } = receipt;
  return isReceiptMacValid(key, fields, mac);
}

/**
 * The receipt for this digest if it parses, was signed with this installation's
 * key, and binds this digest, name and permission summary; otherwise undefined.
 * Throws ZB_IO_FAILED when the key file itself is unsafe (receipt-key.ts).
 */
export function readMatchingReceipt(
  stateDirectory: string,
  expected: { digest: string; name: string; source: AgentSourceIdentity; permissions: ConsentSummary; workspace?: string },
): ConsentReceipt | undefined {
  // The key first: an unsafe key file is reported even before the first receipt exists.
  const key = readReceiptKey(stateDirectory);
  const file = receiptPath(stateDirectory, { name: expected.name, source: expected.source }, expected.digest, expected.permissions, expected.workspace);
  requireNoLinkBelow(stateDirectory, path.dirname(file));
  const receipt = parseReceiptFile(file);
  if (receipt === undefined || !isSignedBy(key, receipt)) return undefined;
  // Every field the user approved must match, the workspace and the source included: a receipt that records
  // no workspace (written before workspaces were recorded, or by a library caller that gives none) counts only
  // where none is given, so never for a run; one that records no source (before issue 21) never counts.
  const same =
    receipt.digest === expected.digest &&
    receipt.name === expected.name &&
    receipt.source === describeAgentSource(expected.source) &&
    JSON.stringify(receipt.permissions) === JSON.stringify(expected.permissions) &&
    (receipt.workspace ?? null) === (expected.workspace ?? null);
  return same ? receipt : undefined;
}

/**
 * Signs and writes a receipt of the agent from `source` atomically (creating the
 * key on first use, and the agent's directory); never leaves a partial file.
 */
export function writeReceipt(stateDirectory: string, source: AgentSourceIdentity, fields: Omit<UnsignedReceipt, 'source'>): string {
  const agent = { name: fields.name, source };
  const unsigned: UnsignedReceipt = { ...fields, source: describeAgentSource(source) };
  const receipt: ConsentReceipt = { ...unsigned, mac: computeReceiptMac(ensureReceiptKey(stateDirectory), unsigned) };
  ensureAgentDirectory(stateDirectory, agent);
  const directory = consentsDirectory(stateDirectory, agent);
  requireNoLinkBelow(stateDirectory, directory);
  const target = receiptPath(stateDirectory, agent, receipt.digest, receipt.permissions, receipt.workspace);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw fileSystemError('create', directory, cause);
  }
  const temp = path.join(directory, `.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    writeSync(fd, `${JSON.stringify(receipt, null, 2)}\n`);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
    return target;
  } catch (cause) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // nothing was created
    }
    throw fileSystemError('save the consent receipt', target, cause);
  }
}

export interface ListedReceipt {
  readonly name: string;
  /** The source of the agent whose directory holds it (describeAgentSource), or undefined when that directory is given to no agent. */
  readonly source: string | undefined;
  readonly file: string;
  /** The parsed receipt, or undefined when the file is not a valid receipt. */
  readonly receipt: ConsentReceipt | undefined;
  /** Whether this installation signed it; only a trusted receipt can stand in for consent. */
  readonly trusted: boolean;
}

/** Every receipt file of every agent (or of every agent of one name), parsed but not verified. */
function scanReceipts(stateDirectory: string, agentName: string | undefined): Omit<ListedReceipt, 'trusted'>[] {
  // Only directories zotbox makes (<name>-<key>): legacy name-only ones are `zotbox data list`'s.
  const agents = listAgentDirectories(stateDirectory, agentName === undefined ? undefined : requireAgentName(agentName));
  const listed: Omit<ListedReceipt, 'trusted'>[] = [];
  for (const agent of agents) {
    const directory = path.join(agent.directory, 'consents');
    requireNoLinkBelow(stateDirectory, directory);
    const files = readStateEntries(directory, { strayIsEmpty: true })
      .filter((f) => f.endsWith('.json'))
      .sort();
    const source = agent.source === undefined ? undefined : describeAgentSource(agent.source);
    for (const file of files) {
      const full = path.join(directory, file);
      listed.push({ name: agent.name, source, file: full, receipt: parseReceiptFile(full) });
    }
  }
  return listed;
}

/** Receipts with whether each is trusted. Throws ZB_IO_FAILED when the key file is unsafe or a directory cannot be listed. */
export function listReceipts(stateDirectory: string, agentName?: string): ListedReceipt[] {
  const key = readReceiptKey(stateDirectory);
  return scanReceipts(stateDirectory, agentName).map((r) => ({ ...r, trusted: r.receipt !== undefined && isSignedBy(key, r.receipt) }));
}

/** Which receipts of an agent to revoke: all, those of one digest (every workspace), those approved in one workspace, or both. */
export interface RevokeFilter {
  readonly digest?: string;
  /** The canonical workspace recorded in the receipt; receipts that record none never match. */
  readonly workspace?: string;
  /** Only the receipts of the agent from this source (as describeAgentSource writes it). */
  readonly source?: string;
}

/** Whether a receipt file is for `digest`, judged by its name (a receipt that does not parse can still be revoked). */
function isFileForDigest(file: string, digest: string): boolean {
  const name = path.basename(file);
  const hex = digestHex(digest);
  return name === `${hex}.json` || (name.startsWith(`${hex}-`) && name.endsWith('.json'));
}

/**
 * Deletes the agent's receipts that pass the filter, trusted or not, and returns
 * the files removed. A string is a digest, as before `RevokeFilter` existed.
 */
export function revokeReceipts(stateDirectory: string, agentName: string, filter: string | RevokeFilter = {}): string[] {
  const { digest, workspace, source } = typeof filter === 'string' ? { digest: filter, workspace: undefined, source: undefined } : filter;
  const targets = scanReceipts(stateDirectory, agentName).filter(
    (r) => (digest === undefined || isFileForDigest(r.file, digest)) && (workspace === undefined || r.receipt?.workspace === workspace) && (source === undefined || r.source === source),
  );
  if (targets.length === 0) {
    const which = `${source === undefined ? '' : ` from ${source}`}${digest === undefined ? '' : ` with digest ${digest}`}${workspace === undefined ? '' : ` approved in ${workspace}`}`;
    throw new ZotboxError('ZB_CONSENT_NOT_FOUND', `no consent receipt for ${agentName}${which}. List them with 'zotbox consent list ${agentName}'.`, {
      details: { name: agentName, ...(digest === undefined ? {} : { digest }), ...(workspace === undefined ? {} : { workspace }), ...(source === undefined ? {} : { source }) },
    });
  }
  for (const target of targets) {
    try {
      unlinkSync(target.file);
    } catch (cause) {
      throw fileSystemError('delete', target.file, cause);
    }
  }
  return targets.map((t) => t.file);
}
