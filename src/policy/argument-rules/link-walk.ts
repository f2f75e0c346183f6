// For programs told to follow symbolic links inside directory trees (cp -rL,
// tar -h, grep -R, rg -L, find -L, du -L): every link the program would follow
// is decided as the program would use it, after resolution (issue 10 item 4).
// The walk itself never follows a link: it decides the link, then walks the
// directory the link resolves to as its own tree. Bounded, fails closed on a
// directory it cannot list; never throws.
import { lstatSync, readdirSync } from 'node:fs';
import { decidePathAccess, decideUnconfinedTree, type PathTool } from '../path-decision.js';
import type { CompiledScopes } from '../scopes.js';
import { deny as no, type Check } from '../shell-check.js';

/** Entries examined at most for one argument: beyond this the command is denied rather than half-checked. */
export const MAX_WALKED_ENTRIES = 20_000;

const errnoOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** Absent: nothing there to follow (a destination not made yet, a link to nothing). */
function isAbsence(error: unknown): boolean {
  const code = errnoOf(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The names in `directory`; undefined when it is absent or not a directory; a
 * denial when it exists but cannot be listed: what it holds cannot be vouched
 * for, and another command of the same line may make it readable before the
 * program gets there (the git-metadata walk fails closed the same way).
 */
function listDirectory(directory: string): Check<string[] | undefined> {
  try {
    if (!lstatSync(directory).isDirectory()) return { ok: true, value: undefined };
    return { ok: true, value: readdirSync(directory) };
  } catch (error) {
    if (isAbsence(error)) return { ok: true, value: undefined };
    return no(
      'ZB_POLICY_PATH_UNRESOLVABLE',
      `${directory} cannot be listed (${String(errnoOf(error) ?? error)}), so the links in it cannot be checked; make it readable, or copy without following links.`,
    );
  }
}

/** Whether `entry` is a directory to walk, a link to decide, or neither; a denial when it cannot be examined. */
function entryType(entry: string): Check<'directory' | 'link' | 'other'> {
  try {
    const stats = lstatSync(entry);
    return { ok: true, value: stats.isDirectory() ? 'directory' : stats.isSymbolicLink() ? 'link' : 'other' };
  } catch (error) {
    // Removed since it was listed: nothing left to follow.
    if (isAbsence(error)) return { ok: true, value: 'other' };
    return no('ZB_POLICY_PATH_UNRESOLVABLE', `${entry} cannot be examined (${String(errnoOf(error) ?? error)}), so whether it is a link cannot be checked.`);
  }
}

/**
 * Decides, as `tool`, every symbolic link in the tree at `root` (canonical),
 * and walks each directory a link resolves to as a tree of its own.
 */
export function checkLinksInTree(root: string, tool: PathTool, scopes: CompiledScopes, limit: number = MAX_WALKED_ENTRIES, confined = false): Check<null> {
  const pending = [root];
  // Canonical directories: the walk only descends real directories and canonical link targets, so a loop ends here.
  const seen = new Set<string>();
  let examined = 0;
  while (pending.length > 0) {
    const directory = pending.pop()!;
    if (seen.has(directory)) continue;
    seen.add(directory);
    const names = listDirectory(directory);
    if (!names.ok) return names;
    for (const name of names.value ?? []) {
      examined += 1;
      if (examined > limit) {
        return no('ZB_POLICY_SHELL_ARGUMENT', `more than ${limit} entries to check under ${root}; follow links in a smaller tree, or copy without following them.`);
      }
      const entry = directory === '/' ? `/${name}` : `${directory}/${name}`;
      const type = entryType(entry);
      if (!type.ok) return type;
      if (type.value === 'directory') pending.push(entry);
      if (type.value !== 'link') continue;
      const access = decidePathAccess(tool, entry, scopes);
      // Unconfined, a link to a directory that holds the state directory would take the program into it.
      const decision = confined ? access : decideUnconfinedTree(access, scopes.context);
      if (!decision.allow) return no(decision.code, `the link ${entry}: ${decision.reason}`);
      pending.push(decision.canonicalPath);
    }
  }
  return { ok: true, value: null };
}
