// What a command moved with its parent (`mv lib lib2`, `mv lib x/lib`): git directories, .git links and gitfiles,
// and configs. Each is judged against where it stood, so nothing of the user's is taken for new (and removed), and
// nothing of the agent's is taken for the user's (and kept).
import path from 'node:path';
import { isGitDirectoryName } from '../../../policy/git-control.js';
import type { GitDirectoryRecord } from './git-directory-state.js';
import type { GitEntryState, GitInventory } from './git-inventory.js';

export interface MovedGitDirectories {
  /** The record of where a git directory stood before the call, if it moved there with its parent. */
  readonly earlierOf: (directory: string) => GitDirectoryRecord | undefined;
  /** The path of a config before the call: its own, or where it stood if it moved with a git directory. */
  readonly earlierConfig: (file: string, ino: number | undefined) => string;
}

/**
 * Git directories a command moved with their parent: found by device and inode, gone from where they stood, and only
 * ones that were git directories before the call (a directory that only held a HEAD entry brings no baseline). A
 * git directory's inode cannot be freed by a command (it is bound over itself), so the match is not a guess.
 */
export function movedGitDirectories(before: GitInventory, after: GitInventory): MovedGitDirectories {
  const key = (record: GitDirectoryRecord) => (record.ino === undefined || record.dev === undefined ? undefined : `${record.dev}:${record.ino}`);
  const wasGit = (directory: string, record: GitDirectoryRecord) => record.usable || record.pointedTo || isGitDirectoryName(path.basename(directory));
  const gone = new Map<string, [string, GitDirectoryRecord]>();
  for (const [directory, record] of before.records) {
    const identity = key(record);
    const stillThere = after.records.get(directory);
    if (identity !== undefined && wasGit(directory, record) && (stillThere === undefined || key(stillThere) !== identity)) gone.set(identity, [directory, record]);
  }
  /** Each moved git directory, where it is now → where it was; the deepest first (one moved inside another maps by its own). */
  const pairs: [string, string][] = [];
  const earlier = new Map<string, GitDirectoryRecord>();
  for (const [directory, record] of after.records) {
    const identity = key(record);
    const from = identity === undefined || before.records.get(directory)?.ino === record.ino ? undefined : gone.get(identity);
    if (from === undefined) continue;
    earlier.set(directory, from[1]);
    pairs.push([directory, from[0]]);
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  return {
    earlierOf: (directory) => earlier.get(directory),
    earlierConfig: (file, ino) => {
      // Inside a moved git directory: its own config, where the directory stood.
      const holder = pairs.find(([now]) => file.startsWith(`${now}/`));
      if (holder !== undefined) return holder[1] + file.slice(holder[0].length);
      // Beside one (an include such as `../.gitconfig`): the same file (inode) at the same place relative to it.
      for (const [now, was] of pairs) {
        const candidate = path.resolve(was, path.relative(now, file));
        if (ino !== undefined && candidate !== file && before.configInodes.get(candidate) === ino && after.configInodes.get(candidate) !== ino) return candidate;
      }
      return file;
    },
  };
}

/**
 * .git links and gitfiles a command moved with their parent (`mv lib lib2` of a linked worktree): the same entry
 * (inode), gone from where it stood, each with the state it had there. Such an entry is the user's; whether it still
 * names what it named is the caller's question, as for one that stayed (git-aftercare.ts).
 */
export function movedPointers(before: GitInventory['gitEntries'], after: GitInventory['gitEntries']): Map<string, GitEntryState> {
  const isPointer = (kind: string) => kind === 'file' || kind === 'link';
  const gone = new Map<number, GitEntryState>();
  for (const [entry, state] of before) if (isPointer(state.kind) && state.ino !== undefined && after.get(entry)?.ino !== state.ino) gone.set(state.ino, state);
  const moved = new Map<string, GitEntryState>();
  for (const [entry, state] of after) {
    const earlier = state.ino === undefined ? undefined : gone.get(state.ino);
    if (isPointer(state.kind) && earlier !== undefined && !before.has(entry)) moved.set(entry, earlier);
  }
  return moved;
}
