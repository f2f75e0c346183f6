// Index flags that hide worktree changes from the user's review (issue 21 review,
// "index-hides-changes"). docs/security.md leaves what the user's tools run on
// request (package.json scripts, a Makefile) to the user's review of the agent's
// changes, and that review is `git status` and `git diff`. An entry marked
// skip-worktree or assume-unchanged (CE_VALID) is never compared with the
// worktree, so a change to it shows nowhere. After a command that changed an
// index, every entry carrying such a flag must have carried it before the
// command (the user's sparse checkout or own update-index); a flag the command
// set is cleared and the run stops. Intent-to-add entries show as new files and
// pass. The flags are read by zotbox's own parser (git-index-parse.ts), in the
// repository's object format, with bounded reads and names: nothing here runs
// git (third review, findings 6 and 7: `git ls-files` printed 312 MB for a 1.6 MB
// index). Clearing the flags, smudging the stat data and dropping the caches is
// one rewrite (git-index-rewrite.ts), done whatever else was found, so that the
// run never stops with an index git would trust as the command left it.
import path from 'node:path';
import { isIndexFile, type GitDirectoryRecord, type GitDirectoryViolation, type GitPathState } from './git-directory-state.js';
import { MAX_INDEX_NAME_BYTES, type IndexEntry, type ParsedIndex } from './git-index-parse.js';
import { rewriteChangedIndex } from './git-index-rewrite.js';
import { repositoryObjectFormat } from './git-object-format.js';

/**
 * The entries of `now` with a flag `earlier` did not have on the same path (any stage), each with only the flags
 * that are new. Without names to compare (either index past the name bound, or the earlier one not kept), every
 * flag counts as new.
 */
export function addedFlags(now: ParsedIndex, earlier: ParsedIndex | undefined): IndexEntry[] {
  const had = new Map<string, { skip: boolean; valid: boolean }>();
  if (earlier?.named === true && now.named) {
    for (const entry of earlier.entries) {
      if (!entry.skip && !entry.valid) continue;
      const known = had.get(entry.path!);
      had.set(entry.path!, { skip: entry.skip || known?.skip === true, valid: entry.valid || known?.valid === true });
    }
  }
  const added: IndexEntry[] = [];
  for (const entry of now.entries) {
    if (!entry.skip && !entry.valid) continue;
    const known = entry.path === undefined ? undefined : had.get(entry.path);
    const flags = { skip: entry.skip && known?.skip !== true, valid: entry.valid && known?.valid !== true };
    if (flags.skip || flags.valid) added.push({ ...entry, ...flags });
  }
  return added;
}

function changed(earlier: GitPathState | undefined, state: GitPathState): boolean {
  if (earlier === undefined || earlier.kind !== state.kind) return true;
  if (earlier.content !== undefined && state.content !== undefined) return !earlier.content.equals(state.content);
  return earlier.ino !== state.ino || earlier.stamp !== state.stamp;
}

/** A path as the user's git shows it (the index stores bytes, read here as latin1). */
function shown(entry: IndexEntry): string {
  return Buffer.from(entry.path ?? '', 'latin1').toString('utf8');
}

/** What the rewrite of one changed index found: the flags the command set, and why the index cannot be trusted. */
function indexViolations(index: string, holder: string, before: Buffer | undefined): GitDirectoryViolation[] {
  const format = repositoryObjectFormat(holder);
  if (!format.ok) {
    return [
      {
        path: index,
        reason: `zotbox cannot tell the object format git reads it in (${format.reason}), so it cannot check its flags or drop the stat data and caches git trusts; fix the repository's config, then remove the index and run git reset to rebuild it`,
      },
    ];
  }
  const rewrite = rewriteChangedIndex(index, before, format.hash, addedFlags);
  const violations: GitDirectoryViolation[] = [];
  const outcome = rewrite.failure === undefined ? 'zotbox cleared the flag' : `zotbox could not clear the flag (${rewrite.failure})`;
  if (rewrite.parsed?.named === false) {
    const flags = rewrite.cleared.length === 0 ? '' : `, cleared the skip-worktree and assume-unchanged flags of its ${rewrite.cleared.length} flagged entries`;
    violations.push({
      path: index,
      reason: `its entry names total ${rewrite.parsed.nameBytes} bytes once expanded (index version 4 compresses them), more than the ${MAX_INDEX_NAME_BYTES} zotbox compares, so it cannot tell which entries the command changed; ${
        rewrite.failure === undefined ? `zotbox zeroed the stat data of every entry${flags} and dropped its caches` : `and ${rewrite.failure}`
      }; review the staged changes with git diff --cached, or rebuild the index from HEAD with git reset`,
    });
    return violations;
  }
  for (const entry of rewrite.cleared) {
    for (const [flag, set] of [
      ['skip-worktree', entry.skip],
      ['assume-unchanged', entry.valid],
    ] as const) {
      if (set) violations.push({ path: index, reason: `the command marked ${shown(entry)} ${flag}, so the user's git status and git diff would not show its changes; ${outcome}` });
    }
  }
  if (rewrite.failure !== undefined && rewrite.cleared.length === 0) violations.push({ path: index, reason: rewrite.failure });
  return violations;
}

/** Checks each index of `directory` the command changed; clears flags it set, drops the caches, and returns what it found. */
export function indexFlagViolations(directory: string, before: GitDirectoryRecord | undefined, after: GitDirectoryRecord): GitDirectoryViolation[] {
  const violations: GitDirectoryViolation[] = [];
  for (const [relative, state] of after.entries) {
    if (!isIndexFile(relative) || state.kind !== 'file' || !changed(before?.entries.get(relative), state)) continue;
    const holder = path.join(directory, path.dirname(relative));
    violations.push(...indexViolations(path.join(directory, relative), holder, before?.entries.get(relative)?.content));
  }
  return violations;
}
