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

/**
 * Moves `entry` to the first free `zotbox-renamed-N` beside it (then a random `zotbox-renamed-HEX`) that no protected
 * path is, holds or lies in (a name a tool file runs must not receive what the agent made); removes it only when none
 * is free, which a command cannot bring about (it cannot guess the random names). Every process of the call has
 * ended and the write scopes are held, so nothing makes the name between the look and the rename.
 */
export function setAside(entry: string, isProtected: (candidate: string) => boolean): string | undefined {
  for (const name of asideNames()) {
    const candidate = path.join(path.dirname(entry), name);
    if (lstatSync(candidate, { throwIfNoEntry: false }) !== undefined || isProtected(candidate)) continue;
    renameSync(entry, candidate);
    return candidate;
  }
  rmSync(entry, { recursive: true, force: true });
  return undefined;
}
