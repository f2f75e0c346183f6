// A file a tool runs or reads that is a link (a hook's `sh tools/check.sh` where `tools/check.sh -> ../scripts/check.sh`)
// is read where it leads, as the tool runs it there: every hop of the link, inside the write scopes, is protected as a
// hook's are (link-targets.ts), and the file it ends at is read. Closed world: a link zotbox cannot follow (a loop, a
// hop it cannot read, one that leads to nothing) is unresolved and refuses every writer.
import { lstatSync } from 'node:fs';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { linkTargets } from './link-targets.js';

export type LinkedProgram =
  /** `file`: the file it ends at, to read; `locations`: its hops and that file, in the scopes. */
  { readonly file: string; readonly locations: readonly ControlLocation[] } | { readonly unresolved: readonly string[] };

/** Whether `file` is itself a link (its last component); a name zotbox cannot examine counts as one (followed, or unresolved). */
export function isLink(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

/** Where the link `link` leads, with each of its hops in `writeRoots` protected for `reason`, or why it cannot be followed. */
export function linkedProgram(link: string, reason: string, writeRoots: readonly string[]): LinkedProgram {
  const hops = linkTargets([{ path: link, reason }], writeRoots, () => false);
  if (hops.unresolved.length > 0) return { unresolved: hops.unresolved };
  const resolved = resolveCanonicalPath(link);
  if (!resolved.ok) return { unresolved: [`the link ${link} cannot be followed (${resolved.reason}), and what it leads to runs as ${reason}`] };
  if (!resolved.exists) return { unresolved: [`the link ${link} leads to nothing zotbox can read (${resolved.path}), and what is made there runs as ${reason}`] };
  return { file: resolved.path, locations: hops.locations };
}
