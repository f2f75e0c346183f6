// Tool files that act on the write scopes from outside them (s33d review): the
// workspace is often one package of a larger repository, whose root `.husky/`
// hooks, `.envrc` (direnv loads it for every directory below) and editor settings
// name scripts and PATH directories inside the package. Each directory above a
// write root is listed, up to but not including the user's home directory and `/`
// (the home's `.vscode/`, `.claude/` ... are the tools' own global state, not a
// project's). Listings are cached by the directory's identity and times, as a
// search path's are (search-path-audit.ts), so a call lists only what changed.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

interface Listing {
  readonly key: string;
  readonly names: readonly string[];
}

const MAX_CACHED = 256;
const listings = new Map<string, Listing>();

/** The names in `directory`, or undefined when it cannot be listed (then the caller refuses: cannot read is not nothing). */
function namesIn(directory: string): readonly string[] | undefined {
  let key: string;
  try {
    const stats = lstatSync(directory, { bigint: true });
    if (!stats.isDirectory()) return [];
    key = `${stats.dev}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch (error) {
    // Not there (a write root not made yet): nothing above it to read; anything else is "cannot read".
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : undefined;
  }
  const cached = listings.get(directory);
  if (cached !== undefined && cached.key === key) return cached.names;
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return undefined;
  }
  if (listings.size >= MAX_CACHED) listings.delete(listings.keys().next().value!);
  listings.set(directory, { key, names });
  return names;
}

/**
 * The tool entries (names `isToolEntry` accepts) in every directory above the write roots, below the home directory
 * (or below `/` for a root outside it); `unreadable` lists directories that could not be listed.
 */
export function enclosingToolEntries(writeRoots: readonly string[], home: string, isToolEntry: (name: string) => boolean): { entries: string[]; unreadable: string[] } {
  const entries = new Set<string>();
  const unreadable: string[] = [];
  const seen = new Set<string>();
  for (const root of writeRoots) {
    for (let directory = path.dirname(root); directory !== path.dirname(directory) && directory !== home && !seen.has(directory); directory = path.dirname(directory)) {
      seen.add(directory);
      const names = namesIn(directory);
      if (names === undefined) unreadable.push(directory);
      else for (const name of names) if (isToolEntry(name)) entries.add(path.join(directory, name));
    }
  }
  return { entries: [...entries], unreadable };
}
