// The object format a repository's git reads its index in (issue 21, third
// review, finding 8 "index-hash-ambiguity"): SHA-1 or SHA-256, as git's setup.c
// decides it, from the common directory's config file alone (no includes, no
// user config: git reads the repository format from there only). Version 0 or
// no version: SHA-1, and an extensions.objectFormat there is one git refuses
// ("v1-only extension"); version 1: the extension's value, "sha1" or "sha256"
// exactly; any other version or value git refuses. Whatever zotbox cannot read
// or decide is a reason, never a guess: the caller refuses the index.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { readConfigEntries } from './git-config-text.js';
import type { IndexHash } from './git-index-parse.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { commondirDirectory } from './git-pointer-text.js';

export type ObjectFormat = { readonly ok: true; readonly hash: IndexHash } | { readonly ok: false; readonly reason: string };

/** A file's text as git reads it (following links); undefined when absent; the reason when it exists but cannot be read whole. */
function textOf(file: string): { text: string | undefined } | { problem: string } {
  try {
    if (lstatSync(file, { throwIfNoEntry: false }) === undefined) return { text: undefined };
  } catch (error) {
    return { problem: `${file} cannot be looked at (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const real = resolveCanonicalPath(file);
  const text = real.ok ? readSmallFile(real.path) : undefined;
  if (text === OVERSIZED) return { problem: `${file} is larger than zotbox reads` };
  return text === undefined ? { problem: `${file} exists but cannot be read` } : { text };
}

/** The common directory of the git directory `gitDirectory` (a linked worktree's is its main repository's), as git's get_common_dir finds it. */
function commonDirectoryOf(gitDirectory: string): { directory: string } | { problem: string } {
  const read = textOf(path.join(gitDirectory, 'commondir'));
  if ('problem' in read) return read;
  if (read.text === undefined) return { directory: gitDirectory };
  // Read as git reads it (git-pointer-text.ts): one reader for every place that follows a commondir.
  const written = commondirDirectory(read.text);
  return written === undefined ? { problem: `${path.join(gitDirectory, 'commondir')} is empty` } : { directory: path.resolve(gitDirectory, written) };
}

/** The object format git reads the indexes of the git directory `gitDirectory` in. */
export function repositoryObjectFormat(gitDirectory: string): ObjectFormat {
  const common = commonDirectoryOf(gitDirectory);
  if ('problem' in common) return { ok: false, reason: common.problem };
  const file = path.join(common.directory, 'config');
  const read = textOf(file);
  if ('problem' in read) return { ok: false, reason: read.problem };
  let version = '0';
  let format: string | undefined;
  // The last value wins, as git's config callback overwrites the one before.
  const reading = readConfigEntries(read.text ?? '');
  if (reading.badLine !== undefined) return { ok: false, reason: `git cannot read ${file} past line ${reading.badLine} ("bad config line")` };
  for (const entry of reading.entries) {
    if (entry.subsection !== undefined) continue;
    if (entry.section === 'core' && entry.key === 'repositoryformatversion') version = (entry.value ?? '').trim();
    if (entry.section === 'extensions' && entry.key === 'objectformat') format = entry.value ?? '';
  }
  if (version !== '0' && version !== '1') return { ok: false, reason: `${file} sets core.repositoryFormatVersion to ${JSON.stringify(version)}, which zotbox does not read` };
  if (format === undefined) return { ok: true, hash: 'sha1' };
  if (version === '0') return { ok: false, reason: `${file} sets extensions.objectFormat in a version 0 repository, which git refuses or ignores by version` };
  if (format !== 'sha1' && format !== 'sha256') return { ok: false, reason: `${file} sets extensions.objectFormat to ${JSON.stringify(format)}, which git does not know` };
  return { ok: true, hash: format };
}
