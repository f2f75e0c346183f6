// Consent receipts (Part A): <state>/agents/<name>/consents/<digest>.json,
// binding the content digest AND the expanded permission summary. Written
// atomically (temp file, fsync, rename, mode 0600, directories 0700) and read
// back and verified: a receipt counts only if it parses and matches both.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ZotboxError, fileSystemError } from '../errors.js';

export const ConsentSummarySchema = z.strictObject({
  read: z.array(z.string()),
  write: z.array(z.string()),
  bash: z.strictObject({ mode: z.enum(['none', 'ask', 'allowlist']), allow: z.array(z.string()) }),
  confinement: z.string(),
});
export type ConsentSummary = z.infer<typeof ConsentSummarySchema>;

const ReceiptSchema = z.strictObject({
  receipt: z.literal(1),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  artifact_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/).nullable(),
  name: z.string(),
  version: z.string(),
  permissions: ConsentSummarySchema,
  approved_at: z.string(),
});
export type ConsentReceipt = z.infer<typeof ReceiptSchema>;

export function consentsDirectory(stateDirectory: string, agentName: string): string {
  return path.join(stateDirectory, 'agents', agentName, 'consents');
}

export function receiptPath(stateDirectory: string, agentName: string, digest: string): string {
  return path.join(consentsDirectory(stateDirectory, agentName), `${digest.replace(/^sha256:/, '')}.json`);
}

/** The receipt at `file` if it parses and binds this digest, name and permission summary; otherwise undefined. */
export function readMatchingReceipt(file: string, expected: { digest: string; name: string; permissions: ConsentSummary }): ConsentReceipt | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined; // no receipt (or unreadable): consent must be asked again
  }
  let parsed;
  try {
    parsed = ReceiptSchema.safeParse(JSON.parse(text));
  } catch {
    return undefined; // not JSON: a tampered or truncated receipt grants nothing
  }
  if (!parsed.success) return undefined;
  const receipt = parsed.data;
  const same = receipt.digest === expected.digest && receipt.name === expected.name && JSON.stringify(receipt.permissions) === JSON.stringify(expected.permissions);
  return same ? receipt : undefined;
}

/** Writes a receipt atomically; never leaves a partial file. */
export function writeReceipt(stateDirectory: string, receipt: ConsentReceipt): string {
  const directory = consentsDirectory(stateDirectory, receipt.name);
  const target = receiptPath(stateDirectory, receipt.name, receipt.digest);
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
  readonly file: string;
  /** The parsed receipt, or undefined when the file is not a valid receipt. */
  readonly receipt: ConsentReceipt | undefined;
}

export function listReceipts(stateDirectory: string, agentName?: string): ListedReceipt[] {
  const agentsDirectory = path.join(stateDirectory, 'agents');
  let names: string[];
  try {
    names = agentName === undefined ? readdirSync(agentsDirectory) : [agentName];
  } catch {
    return []; // no state yet
  }
  const listed: ListedReceipt[] = [];
  for (const name of names.sort()) {
    const directory = consentsDirectory(stateDirectory, name);
    let files: string[];
    try {
      files = readdirSync(directory).filter((f) => f.endsWith('.json')).sort();
    } catch {
      continue; // this agent has no receipts
    }
    for (const file of files) {
      const full = path.join(directory, file);
      let receipt: ConsentReceipt | undefined;
      try {
        const parsed = ReceiptSchema.safeParse(JSON.parse(readFileSync(full, 'utf8')));
        receipt = parsed.success ? parsed.data : undefined;
      } catch {
        receipt = undefined; // listed as invalid
      }
      listed.push({ name, file: full, receipt });
    }
  }
  return listed;
}

/** Deletes all receipts of an agent, or the one for `digest`. Returns the files removed. */
export function revokeReceipts(stateDirectory: string, agentName: string, digest?: string): string[] {
  const targets = listReceipts(stateDirectory, agentName).filter((r) => digest === undefined || path.basename(r.file) === `${digest.replace(/^sha256:/, '')}.json`);
  if (targets.length === 0) {
    throw new ZotboxError('ZB_CONSENT_NOT_FOUND', `no consent receipt for ${agentName}${digest === undefined ? '' : ` with digest ${digest}`}. List them with 'zotbox consent list'.`, {
      details: { name: agentName, ...(digest === undefined ? {} : { digest }) },
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
