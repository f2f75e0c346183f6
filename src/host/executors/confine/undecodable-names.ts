// Names that are not UTF-8. Node spells every path as a string, so an entry whose name is not UTF-8 cannot be
// looked up by the name a listing gives (its bad bytes read back as U+FFFD), and nothing in it can be checked:
// git, a shell and every other tool reach it by its bytes all the same. The same holds for a pointer (a gitfile, a
// `.git` link) whose text is not UTF-8 (git-pointer-text.ts UNSPELLABLE). Before a call, any such name or pointer in
// the write scopes refuses the call: a file's name too, since the texts that name files for protection (configs,
// hooks, tool files) are read as UTF-8 and would protect another path; after one, every such name the command left,
// and every one below it, is moved aside by its bytes to a name zotbox can spell before anything is judged.
import { isUtf8 } from 'node:buffer';
import { readdirSync } from 'node:fs';
import { ZotboxError } from '../../../errors.js';
import type { UnsafeName } from './agent-name-checks.js';
import type { GitInventory } from './git-inventory.js';
import { isUnspellable } from './git-pointer-text.js';
import type { UndecodableEntry } from './scope-walk.js';
import { setAsideOrReport } from './set-aside.js';

/** How a path that is not UTF-8 is shown: its bad bytes as U+FFFD, and the bytes themselves, escaped. */
export function shownName(raw: Buffer): string {
  return `${raw.toString('utf8')} (bytes: ${JSON.stringify(raw.toString('latin1'))})`;
}

/** What refuses a call before it runs: any name in the write scopes that is not UTF-8, or a pointer whose text is not. */
export function undecodableRefusal(inventory: GitInventory): ZotboxError | undefined {
  const unspelled = inventory.undecodable[0];
  if (unspelled !== undefined) {
    return refusal(
      unspelled.path.toString('utf8'),
      `${shownName(unspelled.path)} has a name that is not UTF-8; zotbox cannot look at it by that name, nor inside it, nor tell whether a config, hook or tool file names it, so it cannot protect it`,
      'rename it to a UTF-8 name (convmv, or mv with the bytes)',
    );
  }
  for (const [entry, state] of inventory.gitEntries) {
    if (!isUnspellable(state.names)) continue;
    return refusal(entry, `${entry} names a directory by a path that is not UTF-8, so zotbox cannot follow it to what git opens`, 'rewrite it (git worktree repair, or a gitfile or link in UTF-8)');
  }
  return undefined;
}

function refusal(where: string, why: string, fix: string): ZotboxError {
  return new ZotboxError('ZB_CONFINEMENT_BIND_UNSAFE', `command refused: ${why}. Nothing was written or run. Fix: ${fix}, or declare a write scope that does not hold it.`, {
    details: { path: where },
  });
}

/**
 * Moves aside each entry whose name is not UTF-8 (the command left it: one before the call refused it), with what it
 * holds, to a `zotbox-renamed-N` beside it, and then every name below it that is not UTF-8 either, at any depth (read
 * by bytes: the walk did not go there). What became of each.
 */
export function setAsideUndecodableNames(after: readonly UndecodableEntry[], isProtected: (candidate: string) => boolean): UnsafeName[] {
  const moved: UnsafeName[] = [];
  const below: string[] = [];
  const moveAside = (raw: Buffer) => {
    const outcome = setAsideOrReport(raw, isProtected);
    moved.push({ path: raw.toString('utf8'), reason: `its name is not UTF-8 (${shownName(raw)}), so zotbox could not look at it by that name`, ...outcome });
    if (outcome.movedTo !== undefined) below.push(outcome.movedTo);
  };
  for (const entry of after) moveAside(entry.path);
  // Below what went aside: the walk never looked there, so every name is read by bytes here.
  for (let folder = below.pop(); folder !== undefined; folder = below.pop()) {
    let listing;
    try {
      listing = readdirSync(folder, { encoding: 'buffer', withFileTypes: true });
    } catch {
      continue; // a file, or gone: nothing below it
    }
    for (const entry of listing) {
      const full = Buffer.concat([Buffer.from(`${folder}/`), entry.name]);
      if (!isUtf8(entry.name)) moveAside(full);
      else if (entry.isDirectory()) below.push(full.toString('utf8'));
    }
  }
  return moved;
}
