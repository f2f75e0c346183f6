// Removes a case workspace (or the eval's temp directory) completely, whatever
// the run left in it: links, FIFOs, devices, folders made read-only or chmod 000,
// and trees deeper than PATH_MAX (adversarial14/deep-workspace). No path here ever
// grows past the root, one staging name and one entry name: every folder found is
// first renamed into a private staging folder directly under the root, then
// emptied there. Only entries lstat says are folders are chmod'ed, renamed or
// descended into; a link is unlinked, never followed. The run's processes have
// all ended by then (bubblewrap's PID namespace dies with the command), so nothing
// races the walk.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, renameSync, rmdirSync, unlinkSync, type Stats } from 'node:fs';
import { fileSystemError } from '../../errors.js';

/**
 * Deletes `root` and everything below it; a missing root is not an error (idempotent). Once `stop` fires it returns
 * with the work half done (an interrupted eval removes its whole temp folder later, after its reports).
 */
export async function removeWorkspace(root: string, stop?: AbortSignal): Promise<void> {
  try {
    await removeTree(root, stop);
  } catch (cause) {
    throw fileSystemError('remove the case workspace', root, cause);
  }
}

/**
 * How many entries are removed between two turns of the event loop: a run can leave any number of files, and while
 * they go, signals, other cases' timers and progress must still be served (a tick of this many takes a few ms).
 */
const ENTRIES_PER_TURN = 256;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function removeTree(root: string, stop: AbortSignal | undefined): Promise<void> {
  const top = lstatSync(root, { throwIfNoEntry: false });
  if (top === undefined) return;
  if (!top.isDirectory()) {
    unlinkSync(root);
    return;
  }
  ownerCanUse(root, top);
  const staging = mkdtempSync(`${root}/.zotbox-rm-`);
  let moved = 0;
  let sinceTurn = 0;
  const pending: string[] = [root];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    for (const name of readdirSync(directory)) {
      if (++sinceTurn === ENTRIES_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
        if (stop?.aborted === true) return;
      }
      const entry = `${directory}/${name}`;
      if (entry === staging) continue;
      const stats = lstatSync(entry);
      if (!stats.isDirectory()) {
        unlinkSync(entry);
        continue;
      }
      // Moving a folder needs write access to it (its ".." changes): give it back first.
      ownerCanUse(entry, stats);
      const flat = `${staging}/${moved++}`;
      renameSync(entry, flat);
      pending.push(flat);
    }
    // Everything in it was unlinked or moved out: it is empty (the root and staging last).
    if (directory !== root) rmdirSync(directory);
  }
  rmdirSync(staging);
  rmdirSync(root);
}

function ownerCanUse(directory: string, stats: Stats): void {
  if ((stats.mode & 0o700) !== 0o700) chmodSync(directory, (stats.mode & 0o7777) | 0o700);
}
