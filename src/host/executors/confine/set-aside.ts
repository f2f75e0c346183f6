// Moving an entry aside, in its own directory, to a name zotbox makes: what zotbox takes away from where a command
// left it (an unsafe name, a git directory it cannot judge) is never deleted, so nothing of the user's is lost.
import { lstatSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** How many numbered names zotbox tries in one directory, then random ones (a command may have made the numbered). */
const ASIDE_NAMES = 100;
const RANDOM_ASIDE_NAMES = 8;

function asideNames(): string[] {
  return [...Array.from({ length: ASIDE_NAMES }, (_, i) => `zotbox-renamed-${i + 1}`), ...Array.from({ length: RANDOM_ASIDE_NAMES }, () => `zotbox-renamed-${randomBytes(8).toString('hex')}`)];
}

/** Whether nothing stands at `candidate`; one zotbox cannot look at (past PATH_MAX, ELOOP, EACCES) is not free. */
function isFree(candidate: string): boolean {
  try {
    return lstatSync(candidate, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false; // cannot tell what stands there: never a name to rename onto
  }
}

/**
 * Moves `entry` to the first free `zotbox-renamed-N` beside it (then a random `zotbox-renamed-HEX`) that no protected
 * path is, holds or lies in (a name a tool file runs must not receive what the agent made); removes it only when none
 * is free, which a command cannot bring about (it cannot guess the random names). Every process of the call has
 * ended and the write scopes are held, so nothing makes the name between the look and the rename. Looking never
 * throws; the rename or removal itself may (EBUSY for a mount point, EACCES for a read-only parent): every caller
 * reports that per entry (setAsideOrReport).
 */
export function setAside(entry: string | Buffer, isProtected: (candidate: string) => boolean): string | undefined {
  // A name that is not UTF-8 comes as raw bytes (scope-walk.ts); its folder's path is UTF-8, as the walk reached it.
  const folder = path.dirname(typeof entry === 'string' ? entry : entry.toString('utf8'));
  for (const name of asideNames()) {
    const candidate = path.join(folder, name);
    if (!isFree(candidate) || isProtected(candidate)) continue;
    renameSync(entry, candidate);
    return candidate;
  }
  rmSync(entry, { recursive: true, force: true });
  return undefined;
}

/** What became of an entry set aside: moved (`movedTo`), removed (neither), or left where it is (`failed`: why). */
export interface AsideOutcome {
  readonly movedTo?: string;
  readonly failed?: string;
}

/** setAside, never throwing: a rename or removal that fails is reported, and the caller goes on with the next entry. */
export function setAsideOrReport(entry: string | Buffer, isProtected: (candidate: string) => boolean): AsideOutcome {
  try {
    const movedTo = setAside(entry, isProtected);
    return movedTo === undefined ? {} : { movedTo };
  } catch (error) {
    return { failed: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}
