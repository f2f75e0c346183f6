// One rule for every writer (review s46u): the agent does not make a name the user's tools would read as an option
// or as shell code (policy/agent-file-names.ts). The write tool is refused before it writes; after a command (and
// after every file-tool write, as a second line) each such entry new since the call began is moved aside, in its own
// directory, to a name zotbox makes (nothing in it is lost: a user's folder renamed to "Tom's notes" keeps its
// files), and the run stops. Names that were there before are the user's and stay; .git holds git's data and is not checked. The names
// come from the scope walk the git checks already make (git-inventory.ts): no walk of its own.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';
import { isInsideToolData } from '../../../policy/agent-file-names.js';
import { unsafeEntryReason } from './agent-name-places.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import type { GitInventory } from './git-inventory.js';
import { setAsideOrReport } from './set-aside.js';

/** How to name files instead, for both errors (policy/agent-file-names.ts has the rule). */
const NAMING =
  'choose a name that does not start with "-", an expanding brace ({a,b}) or, at the top of a repository, "@"; with no line end, tab or control character; no space before a word starting with "-" or "@"; and none of ` ; & | < > " \' \\ or a $ a shell expands ($( ${ $VAR; $name in lower case is fine).';

export interface UnsafeName {
  readonly path: string;
  readonly reason: string;
  /** Where it was moved (absent: removed, as no name of zotbox's own was free there). */
  readonly movedTo?: string;
  /** Why it could be neither moved nor removed (it is still there: the user reviews it). */
  readonly failed?: string;
}

/** The first component the write would create, below the write root holding `canonical`, that is an unsafe name. */
function unsafeNewComponent(canonical: string, root: string, writeRoots: readonly string[]): UnsafeName | undefined {
  let current = root;
  for (const component of path.relative(root, canonical).split('/')) {
    current = path.join(current, component);
    if (lstatSync(current, { throwIfNoEntry: false }) !== undefined) continue; // already there: the user's name
    const reason = unsafeEntryReason(current, writeRoots);
    if (reason !== undefined) return { path: current, reason };
  }
  return undefined;
}

/** Refuses a write tool call that would create a file or directory named like an option or shell code (ZB_POLICY_PATH_NAME_UNSAFE). */
export function refuseUnsafeNewName(canonical: string, writeRoots: readonly string[]): void {
  // Git's data (git metadata is refused to the write tool elsewhere).
  if (isInsideToolData(canonical)) return;
  for (const root of writeRoots) {
    if (canonical === root || !isInsideRoot(canonical, root)) continue;
    const found = unsafeNewComponent(canonical, root, writeRoots);
    if (found === undefined) continue;
    const name = path.basename(found.path);
    throw new ZotboxError(
      'ZB_POLICY_PATH_NAME_UNSAFE',
      `write denied: ${canonical} would create ${JSON.stringify(name)} (${found.path}): ${found.reason}. The user's git hooks and scripts hand file names to programs and shells, which would read it as an option or as code. Nothing was written. Fix: ${NAMING}`,
      { details: { path: canonical, component: found.path } },
    );
  }
}

/**
 * Sets aside every entry with an unsafe name in `after` that `before` did not have (a file made, a directory made or
 * renamed to it), innermost first, so that a directory set aside holds no unsafe name either. Names below a directory
 * named like .git are git's (the scan leaves them out); those in a bare repository under any other name are not: the
 * outer repository's `git add -A` stages its files like any other.
 * `protectedPaths`: what the user's tools run or read (protected-locations.ts), never a name to move anything to.
 */
export function setAsideNewUnsafeNames(before: GitInventory, after: GitInventory, writeRoots: readonly string[], protectedPaths: readonly string[]): UnsafeName[] {
  const isProtected = (candidate: string) => protectedPaths.some((held) => isInsideRoot(candidate, held) || isInsideRoot(held, candidate));
  const existing = new Set(before.unsafeNames);
  const removed: UnsafeName[] = [];
  for (const entry of [...after.unsafeNames].sort((a, b) => b.length - a.length)) {
    if (existing.has(entry)) continue;
    // The walk lists every `@` name: a new one is unsafe only at a repository's top or a write root.
    const reason = reasonOf(entry, writeRoots);
    // Gone already: the git aftercare, which runs first, removed it (a repository the command made there).
    if (reason === undefined || isGone(entry)) continue;
    // Per entry, never throwing: one that cannot be moved is reported, and the others still go aside.
    removed.push({ path: entry, reason, ...setAsideOrReport(entry, isProtected) });
  }
  return removed;
}

/** unsafeEntryReason, never throwing: a place zotbox cannot look at (is there a `.git` beside it?) counts as unsafe. */
function reasonOf(entry: string, writeRoots: readonly string[]): string | undefined {
  try {
    return unsafeEntryReason(entry, writeRoots);
  } catch (error) {
    return `zotbox cannot tell whether its name is safe where it stands (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

/** Whether `entry` is gone; one zotbox cannot look at (past PATH_MAX) is not: it is set aside or reported. */
function isGone(entry: string): boolean {
  try {
    return lstatSync(entry, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

function outcomeOf(entry: UnsafeName): string {
  if (entry.failed !== undefined) return `moving it aside failed (${entry.failed}): remove or rename it by hand`;
  return entry.movedTo === undefined ? "removed: no name of zotbox's own was free beside it" : `moved to ${entry.movedTo}`;
}

export function unsafeNameError(removed: readonly UnsafeName[]): ZotboxError {
  const list = removed.map((entry) => `${entry.path} (${entry.reason}; ${outcomeOf(entry)})`).join('; ');
  return new ZotboxError(
    'ZB_CONFINEMENT_NAME_UNSAFE',
    `the command left names the user's tools would read as an option or as shell code, or that are not UTF-8: ${list}. zotbox moved each aside, with what it holds, and stopped the run; rename them as you wish. Git hooks and scripts hand file names to programs and shells; ${NAMING}`,
    { details: { paths: removed.map((entry) => entry.path) } },
  );
}
