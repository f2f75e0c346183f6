// Where an agent-made name stands decides one rule (policy/agent-file-names.ts responseFileReason): a leading `@` is a
// response file of options only where a hook's word starts, at a repository's top or a write root.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { responseFileReason, unsafeNameReason } from '../../../policy/agent-file-names.js';

/** Whether `directory` is where a hook's names start: a write root, or a repository's top (it holds `.git`). */
export function isNamesTop(directory: string, writeRoots: readonly string[]): boolean {
  return writeRoots.includes(directory) || lstatSync(path.join(directory, '.git'), { throwIfNoEntry: false }) !== undefined;
}

/** Why `entry`'s name is unsafe where it stands (a leading `@` only at a top, isNamesTop), or undefined. */
export function unsafeEntryReason(entry: string, writeRoots: readonly string[]): string | undefined {
  const name = path.basename(entry);
  return unsafeNameReason(name) ?? (responseFileReason(name) !== undefined && isNamesTop(path.dirname(entry), writeRoots) ? responseFileReason(name) : undefined);
}
