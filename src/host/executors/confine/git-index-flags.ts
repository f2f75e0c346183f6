// Index flags that hide worktree changes from the user's review (issue 21 review,
// "index-hides-changes"). docs/security.md leaves what the user's tools run on
// request (package.json scripts, a Makefile) to the user's review of the agent's
// changes, and that review is `git status` and `git diff`. An entry marked
// skip-worktree or assume-unchanged (CE_VALID) is never compared with the
// worktree, so a change to it shows nowhere. After a command that changed an
// index, every entry carrying such a flag must have carried it before the
// command (the user's sparse checkout or own update-index); a flag the command
// set is cleared and the run stops. Intent-to-add entries show as new files and
// pass. The flags are read by git itself (git ls-files -v) through the host's
// plumbing; what cannot be read fails. Then what the index trusts without
// rereading (stat data, cache-tree, untracked and fsmonitor caches...) is smudged
// or dropped whenever the command wrote the index (git-index-rewrite.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isIndexFile, type GitDirectoryRecord, type GitDirectoryViolation, type GitPathState } from './git-directory-state.js';
import { rewriteChangedIndex } from './git-index-rewrite.js';
import { runPlumbing } from './git-plumbing.js';

interface Flags {
  /** skip-worktree: git never looks at the worktree file. */
  readonly skip: boolean;
  /** assume-unchanged (CE_VALID): git takes the worktree file for unchanged. */
  readonly valid: boolean;
}

/** The entries `git ls-files -v` shows with a flag, path → flags, in the index `holder/index` or `indexFile`; undefined when unreadable. */
export function flaggedEntries(holder: string, indexFile?: string): Map<string, Flags> | undefined {
  const listed = runPlumbing(holder, ['ls-files', '-v', '-z'], '', indexFile);
  if (!listed.ok) return undefined;
  const flagged = new Map<string, Flags>();
  const tokens = listed.output.toString('utf8').split('\0');
  if (tokens.at(-1) === '') tokens.pop();
  for (const token of tokens) {
    // H cached, M unmerged, S skip-worktree; lower case when assume-unchanged.
    const match = /^([HMShms]) (.*)$/su.exec(token);
    if (match === null) return undefined;
    const tag = match[1]!;
    const flags = { skip: tag.toUpperCase() === 'S', valid: tag !== tag.toUpperCase() };
    if (!flags.skip && !flags.valid) continue;
    const had = flagged.get(match[2]!);
    flagged.set(match[2]!, { skip: flags.skip || had?.skip === true, valid: flags.valid || had?.valid === true });
  }
  return flagged;
}

/** The flagged entries of an index as it was before the command, from its kept bytes; an empty map when they were not kept (every flag then counts as new). */
function flaggedBefore(holder: string, state: GitPathState | undefined): Map<string, Flags> {
  if (state?.content === undefined) return new Map<string, Flags>();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'zotbox-index-'));
  try {
    const copy = path.join(scratch, 'index');
    writeFileSync(copy, state.content, { mode: 0o600 });
    return flaggedEntries(holder, copy) ?? new Map<string, Flags>();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function changed(earlier: GitPathState | undefined, state: GitPathState): boolean {
  if (earlier === undefined || earlier.kind !== state.kind) return true;
  if (earlier.content !== undefined && state.content !== undefined) return !earlier.content.equals(state.content);
  return earlier.ino !== state.ino || earlier.stamp !== state.stamp;
}

/** Checks each index of `directory` the command changed; clears flags it set, drops the caches, and returns what it found. */
export function indexFlagViolations(directory: string, before: GitDirectoryRecord | undefined, after: GitDirectoryRecord): GitDirectoryViolation[] {
  const violations: GitDirectoryViolation[] = [];
  for (const [relative, state] of after.entries) {
    if (!isIndexFile(relative) || state.kind !== 'file' || !changed(before?.entries.get(relative), state)) continue;
    const holder = path.join(directory, path.dirname(relative));
    const index = path.join(directory, relative);
    const now = flaggedEntries(holder);
    if (now === undefined) {
      violations.push({ path: index, reason: 'zotbox could not read its entry flags, so it cannot tell whether it hides changes from git status; review it with git ls-files -v' });
      continue;
    }
    const earlier = now.size === 0 ? new Map<string, Flags>() : flaggedBefore(holder, before?.entries.get(relative));
    const skip: string[] = [];
    const valid: string[] = [];
    for (const [file, flags] of now) {
      if (flags.skip && earlier.get(file)?.skip !== true) skip.push(file);
      if (flags.valid && earlier.get(file)?.valid !== true) valid.push(file);
    }
    // Clearing writes the index through the plumbing, which also drops the caches (core.untrackedCache and core.fsmonitor are off there).
    const clear = (option: string, files: readonly string[]) => files.length === 0 || runPlumbing(holder, ['update-index', option, '-z', '--stdin'], files.map((f) => `${f}\0`).join('')).ok;
    if (skip.length + valid.length > 0) {
      const cleared = clear('--no-skip-worktree', skip) && clear('--no-assume-unchanged', valid);
      const left = cleared ? flaggedEntries(holder) : undefined;
      const stuck = left === undefined || skip.some((file) => left.get(file)?.skip === true) || valid.some((file) => left.get(file)?.valid === true);
      const outcome = stuck ? 'zotbox could not clear the flag: review it with git ls-files -v' : 'zotbox cleared the flag';
      const hides = (file: string, flag: string) => `the command marked ${file} ${flag}, so the user's git status and git diff would not show its changes; ${outcome}`;
      for (const file of skip) violations.push({ path: index, reason: hides(file, 'skip-worktree') });
      for (const file of valid) violations.push({ path: index, reason: hides(file, 'assume-unchanged') });
    }
    // Then what the index trusts without rereading: new stat data is smudged, the extensions dropped (git-index-rewrite.ts).
    const failed = rewriteChangedIndex(index, before?.entries.get(relative)?.content);
    if (failed !== undefined) violations.push({ path: index, reason: failed });
  }
  return violations;
}
