// Removes a case workspace completely, whatever the run left in it: folders
// made read-only or chmod 000 are given back u+rwx first (only entries lstat
// says are directories: a link is never chmod'ed through), then fs.rm deletes
// the tree, unlinking links rather than descending into what they point at.
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileSystemError } from '../../errors.js';

/** Gives the owner rwx on every directory below and including `root`, top down (a parent first, so its children can be listed). */
function makeDirectoriesWritable(root: string): void {
  const pending: string[] = [root];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    const stats = lstatSync(directory, { throwIfNoEntry: false });
    if (stats === undefined || !stats.isDirectory()) continue;
    if ((stats.mode & 0o700) !== 0o700) chmodSync(directory, (stats.mode & 0o7777) | 0o700);
    // withFileTypes reads each entry's own type (d_type, or lstat where the file system has none): a link to a folder is not a folder here.
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) pending.push(`${directory}/${entry.name}`);
    }
  }
}

/**
 * Deletes `root` and everything below it; nothing there is an error (idempotent).
 * fs.rm lstat's each entry and unlinks a symlink, so a link to a folder outside
 * removes the link and leaves the folder (pinned by case-workspace.test.ts).
 */
export async function removeWorkspace(root: string): Promise<void> {
  try {
    makeDirectoriesWritable(root);
    await rm(root, { recursive: true, force: true, maxRetries: 2 });
  } catch (cause) {
    throw fileSystemError('remove the case workspace', root, cause);
  }
}
