// Names that are not UTF-8. Node spells every path as a string, so an entry whose name is not UTF-8 cannot be
// looked up by the name a listing gives (its bad bytes read back as U+FFFD), and nothing in it can be checked:
// git, a shell and every other tool reach it by its bytes all the same. Before a call, one in the write scopes refuses
// the call; one a command made is moved aside, by its bytes, to a name zotbox can spell, before anything is judged.
import { ZotboxError } from '../../../errors.js';
import type { UnsafeName } from './agent-name-checks.js';
import { setAsideOrReport } from './set-aside.js';

/** How a name that is not UTF-8 is shown: its bad bytes as U+FFFD, and the bytes themselves, escaped. */
export function shownName(raw: Buffer): string {
  return `${raw.toString('utf8')} (bytes: ${JSON.stringify(raw.toString('latin1'))})`;
}

/** The refusal before a call when the write scopes hold a name that is not UTF-8. */
export function undecodableError(raw: Buffer): ZotboxError {
  const where = raw.toString('utf8');
  return new ZotboxError(
    'ZB_CONFINEMENT_BIND_UNSAFE',
    `command refused: ${shownName(raw)} has a name that is not UTF-8; zotbox cannot look inside it by that name, so it cannot tell what git metadata or tool files it holds. Nothing was written or run. Fix: rename it to a UTF-8 name (convmv, or mv with the bytes), or declare a write scope that does not hold it.`,
    { details: { path: where } },
  );
}

/** Moves each name a command left that is not UTF-8, with what it holds, to a `zotbox-renamed-N` beside it; what became of each. */
export function setAsideUndecodableNames(undecodable: readonly Buffer[], isProtected: (candidate: string) => boolean): UnsafeName[] {
  return undecodable.map((raw) => ({
    path: raw.toString('utf8'),
    reason: `its name is not UTF-8 (bytes: ${JSON.stringify(raw.toString('latin1'))}), so zotbox could not look inside it by that name`,
    ...setAsideOrReport(raw, isProtected),
  }));
}
