// The project roots of the Nx workspace a directory lies in, where Nx loads a task's environment files besides the
// workspace root (nx-targets.ts): the workspace root is the nearest directory at or above it holding nx.json (else the
// directory itself), and a project root every directory below it holding project.json or package.json (Nx infers
// projects from both). Closed world: a directory that cannot be listed, or more than MAX_DIRECTORIES, is unresolved.
// Reads directory listings only.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Directories listed per workspace at most: past it, the rest is unresolved. */
const MAX_DIRECTORIES = 5000;
/** Directories Nx never takes projects from (its own ignore defaults) and that hold no project's root. */
const SKIPPED = new Set(['node_modules', '.git', '.nx', 'dist', 'tmp', 'out-tsc', '.yarn', '.angular', 'coverage']);

/** The Nx workspace root for `directory`: the nearest directory at or above it holding nx.json, else `directory`. */
export function nxWorkspaceRoot(directory: string): string {
  for (let at = directory; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'nx.json'))) return at;
    if (path.dirname(at) === at) return directory;
  }
}

/** The project roots below the workspace root of `directory` (absolute), or why zotbox cannot list them. */
export function nxProjectRoots(directory: string): { roots: string[]; unresolved?: string } {
  const top = nxWorkspaceRoot(directory);
  const roots: string[] = [];
  const queue = [top];
  let listed = 0;
  while (queue.length > 0) {
    const at = queue.shift()!;
    if (++listed > MAX_DIRECTORIES) return { roots, unresolved: `the Nx workspace ${top} has more directories than zotbox lists for its project roots` };
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch (error) {
      // Not there (a directory the command may run in, not made yet): no project below it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return { roots, unresolved: `${at} (in the Nx workspace ${top}) cannot be listed for its project roots` };
    }
    if (at !== top && entries.some((entry) => entry.isFile() && (entry.name === 'project.json' || entry.name === 'package.json'))) roots.push(at);
    for (const entry of entries) if (entry.isDirectory() && !SKIPPED.has(entry.name)) queue.push(path.join(at, entry.name));
  }
  return { roots };
}
