// Where `git rev-parse --show-toplevel` leads from a directory a script runs in (shell-command-words.ts reads the
// expansion): the nearest folder up from it that holds a `.git` entry. A script a hook runs from a subfolder (`cd web &&
// ./check.sh`) has the repository's top there, not its working directory (review s05b). Where the nearest `.git` lies
// below a top git runs hooks at (a nested repository, a submodule), git's answer depends on the GIT_DIR the hook was
// given: zotbox cannot tell (null), as where there is no repository at all.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { isInsideRoot } from '../../../policy/scopes.js';

/** The repository top from `directory` (absolute), or null where zotbox cannot tell; `tops`: where git runs hooks. */
export function repositoryTopOf(directory: string, tops: readonly string[]): string | null {
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    const entry = gitEntry(at);
    if (entry === 'unknown') return null;
    if (entry === 'there') {
      const outer = tops.filter((top) => top !== at && isInsideRoot(at, top));
      return outer.length === 0 ? at : null;
    }
    if (path.dirname(at) === at) return null;
  }
}

/** Whether `folder/.git` is there (a directory, or the file a worktree or a submodule has); `unknown` where it cannot be looked at. */
function gitEntry(folder: string): 'there' | 'none' | 'unknown' {
  try {
    return lstatSync(path.join(folder, '.git'), { throwIfNoEntry: false }) === undefined ? 'none' : 'there';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'none' : 'unknown';
  }
}
