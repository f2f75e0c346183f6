// The eval's private temp directory: every case workspace (and each suite's
// consent probe) lives under it, so an interrupted or failed eval is cleaned up
// by removing one folder, without following any link a run left in it.
import { mkdtempSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileSystemError } from '../../errors.js';
import { removeWorkspace } from './workspace-remove.js';

export function makeEvalRoot(parent: string): string {
  try {
    // mkdtemp makes it 0700, under a name nobody could have planted in advance: other users cannot reach the case workspaces.
    return realpathSync.native(mkdtempSync(path.join(parent, 'zotbox-eval-')));
  } catch (cause) {
    throw fileSystemError('create the eval temp directory in', parent, cause);
  }
}

/** A fresh private directory under the eval root (a case's ${agent_data}, a consent probe's workspace). */
export function makeCaseDirectory(evalRoot: string, prefix: string): string {
  try {
    return realpathSync.native(mkdtempSync(path.join(evalRoot, prefix)));
  } catch (cause) {
    throw fileSystemError('create a directory in', evalRoot, cause);
  }
}

export async function removeEvalRoot(root: string): Promise<void> {
  await removeWorkspace(root);
}
