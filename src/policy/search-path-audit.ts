// Unconfined, an allowed program runs on the host, and it may start others by name
// from the same search path: npm is `#!/usr/bin/env node`, git runs ssh and its
// pager, make runs sh (adv27c). Which names a program looks up is not known, so
// with confinement off no name on the search path may be one the agent can change:
// while one is, no command runs. Confined, the sandbox bounds what such a name runs,
// and only the name a command writes is checked (program-location.ts).
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChangeablePath } from './changeable-program.js';
import { changeableInSearchDirectory, describeChangeable } from './program-location.js';
import type { CompiledScopes } from './scopes.js';
import { deny, type Check } from './shell-check.js';

interface DirectoryAudit {
  /** The directory's identity and last change when audited: a new, removed or renamed name changes it. */
  readonly stamp: string;
  readonly finding: { readonly entry: string; readonly why: ChangeablePath } | undefined;
}

/**
 * Audits by directory and write scopes; a directory is listed again only once it changed. What the agent can do
 * does not change a finding without changing the directory: a path on the way inside a write scope counts whether
 * or not it exists yet, and a hard link to a file outside the scopes is never allowed to it (ZB_POLICY_PATH_HARDLINK).
 */
const audits = new Map<string, DirectoryAudit>();
/** A long-lived host sees many workspaces: past this many audits, the oldest are forgotten. */
const MAX_AUDITS = 256;

function stampOf(directory: string): string | undefined {
  const stats = statSync(directory, { throwIfNoEntry: false, bigint: true });
  return stats === undefined ? undefined : `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

function auditDirectory(directory: string, scopes: CompiledScopes): DirectoryAudit['finding'] {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    // A directory that is not there holds nothing; one that cannot be listed is not known to hold nothing.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { entry: directory, why: { why: `cannot be listed (${code ?? String(cause)})` } };
  }
  for (const dirent of entries) {
    // Directories are not run; everything else (links, files, what lstat could not type) is looked at.
    if (dirent.isDirectory()) continue;
    const entry = path.join(directory, dirent.name);
    const why = changeableInSearchDirectory(entry, scopes);
    if (why !== undefined) return { entry, why };
  }
  return undefined;
}

/** The first name on `searchPath` whose file the agent could change, or undefined. */
export function findChangeableName(searchPath: readonly string[], scopes: CompiledScopes): { readonly entry: string; readonly why: ChangeablePath } | undefined {
  const roots = scopes.write.map(({ root }) => root).join('\0');
  for (const directory of searchPath) {
    const stamp = stampOf(directory);
    if (stamp === undefined) continue;
    const key = `${directory}\0${roots}`;
    let audit = audits.get(key);
    if (audit?.stamp !== stamp) {
      audit = { stamp, finding: auditDirectory(directory, scopes) };
      audits.delete(key);
      if (audits.size >= MAX_AUDITS) audits.delete(audits.keys().next().value as string);
      audits.set(key, audit);
    }
    if (audit.finding !== undefined) return audit.finding;
  }
  return undefined;
}

/** With confinement off: denies every command while a name on the search path is one the agent could change. */
export function checkSearchPathUnconfined(searchPath: readonly string[], scopes: CompiledScopes): Check<null> {
  const finding = findChangeableName(searchPath, scopes);
  if (finding === undefined) return { ok: true, value: null };
  return deny(
    'ZB_POLICY_SHELL_PROGRAM',
    `no command runs unconfined while the search path holds a program the agent could change: ${describeChangeable(finding.entry, finding.why)}. A program run on this host may start any name on the search path (npm starts node by name), so it could run what the agent wrote. Fix: install that program outside the write scopes (a copy, not a link), or run with confinement (drop --confine off).`,
  );
}
