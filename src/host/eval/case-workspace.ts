// A case's private workspace: a fresh 0700 folder under the eval's temp root
// holding a copy of the fixture, and afterwards the only way the eval host looks
// into it. After a run it may hold any link, FIFO, device or huge file the agent
// made, so nothing here follows a link at any component, opens a FIFO, or reads
// past a bound; expectation paths are refused before any I/O if they leave it.
import { createHash } from 'node:crypto';
import { mkdtempSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { errnoOf, readFileAtMost } from './bounded-read.js';
import { copyFixture, DEFAULT_FIXTURE_LIMITS, type FixtureLimits, type WorkspaceSnapshot } from './fixture-copy.js';
import { describeEntry, splitRelativePath, walkComponents, type EntryKind } from './no-link-path.js';
import { DEFAULT_CHANGE_LIMITS, detectChanges, type ChangeLimits, type WorkspaceChanges } from './workspace-changes.js';
import { removeWorkspace } from './workspace-remove.js';
import type { BeforeText } from './judge-evidence.js';

/** What a file expectation finds at a workspace path. */
export type WorkspaceFile =
  | { readonly kind: 'file'; readonly bytes: Buffer }
  | { readonly kind: 'absent' }
  /** Something other than a regular file is at `at` (the path itself, or a parent that is a link, FIFO, ...): never looked through. */
  | { readonly kind: 'not_regular'; readonly what: Exclude<EntryKind, 'file'>; readonly at: string }
  | { readonly kind: 'too_large'; readonly size: number }
  /** The host may not look (the run left a folder or the file chmod 000). */
  | { readonly kind: 'unreadable'; readonly at: string; readonly errno: string };

export interface CaseWorkspace {
  /** The canonical absolute path of the workspace. */
  readonly path: string;
  /** The fresh copy's regular files (path -> size and sha256), for change detection. */
  readonly snapshot: WorkspaceSnapshot;
  readWorkspaceFile(relative: string, maxBytes: number): WorkspaceFile;
  /**
   * A fixture file's text as it was copied into the workspace, for the judge's diff: read from the fixture
   * by the same no-link walk, at most `maxBytes`, and only when its sha256 is the snapshot's and it is UTF-8.
   */
  fixtureText(relative: string, maxBytes: number): BeforeText;
  changedFiles(limits?: ChangeLimits): WorkspaceChanges;
  /** Deletes the workspace and everything in it (calling it again does nothing); once `stop` fires it leaves the rest to the eval root's removal. */
  remove(stop?: AbortSignal): Promise<void>;
}

export { DEFAULT_CHANGE_LIMITS, DEFAULT_FIXTURE_LIMITS, type ChangeLimits, type FixtureLimits, type WorkspaceChanges };

/**
 * Makes a fresh private folder under `root` (the eval's temp root) and copies the
 * fixture folder `fixture` (canonical, from resolveSuitePath) into it; no fixture
 * gives an empty workspace. A fixture that cannot be copied leaves nothing behind.
 */
export async function createCaseWorkspace(
  root: string,
  fixture: string | undefined,
  limits: FixtureLimits = DEFAULT_FIXTURE_LIMITS,
  defaultChangeLimits: ChangeLimits = DEFAULT_CHANGE_LIMITS,
): Promise<CaseWorkspace> {
  let workspace: string;
  try {
    // mkdtemp creates it 0700 with a name nobody could have planted in advance.
    workspace = realpathSync.native(mkdtempSync(path.join(realpathSync.native(root), 'case-')));
  } catch (cause) {
    throw fileSystemError('create a case workspace in', root, cause);
  }
  let snapshot: WorkspaceSnapshot = new Map();
  try {
    if (fixture !== undefined) snapshot = await copyFixture(fixture, workspace, limits);
  } catch (error) {
    await removeWorkspace(workspace);
    throw error;
  }
  return {
    path: workspace,
    snapshot,
    readWorkspaceFile: (relative, maxBytes) => readWorkspaceFile(workspace, relative, maxBytes),
    fixtureText: (relative, maxBytes) => fixtureText(fixture, snapshot, relative, maxBytes),
    changedFiles: (changeLimits) => detectChanges(workspace, snapshot, changeLimits ?? defaultChangeLimits),
    remove: (stop) => removeWorkspace(workspace, stop),
  };
}

function fixtureText(fixture: string | undefined, snapshot: WorkspaceSnapshot, relative: string, maxBytes: number): BeforeText {
  const copied = snapshot.get(relative);
  if (fixture === undefined || copied === undefined) return { missing: 'it was not a file of the fixture' };
  if (copied.size > maxBytes) return { missing: `it had ${copied.size} bytes, over the ${maxBytes} read for a diff` };
  let found: WorkspaceFile;
  try {
    found = readWorkspaceFile(fixture, relative, maxBytes);
  } catch (error) {
    return { missing: `the fixture's copy could not be read (${errnoOf(error)})` };
  }
  if (found.kind !== 'file') return { missing: `the fixture's copy is ${found.kind} now` };
  if (createHash('sha256').update(found.bytes).digest('hex') !== copied.sha256) return { missing: "the fixture's copy changed since the run started" };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(found.bytes) };
  } catch {
    return { missing: 'it was not UTF-8 text' };
  }
}

function readWorkspaceFile(workspace: string, relative: string, maxBytes: number): WorkspaceFile {
  const split = splitRelativePath(relative);
  if (!split.ok) {
    throw new ZotboxError('ZB_EVAL_PATH_INVALID', `the expectation path "${relative}" is not inside the case workspace: ${split.reason}. Fix: name a path relative to the workspace, without "..".`, {
      details: { path: relative },
    });
  }
  const walk = walkComponents(workspace, split.segments);
  if (!walk.found) {
    if (walk.absent) return { kind: 'absent' };
    if ('errno' in walk) return { kind: 'unreadable', at: walk.at, errno: walk.errno };
    return { kind: 'not_regular', what: walk.kind, at: walk.at };
  }
  const what = describeEntry(walk.stats);
  if (what !== 'file') return { kind: 'not_regular', what, at: relative };
  // Decided from lstat's size: a huge (or sparse) file is never read.
  if (walk.stats.size > maxBytes) return { kind: 'too_large', size: walk.stats.size };
  try {
    const bytes = readFileAtMost(walk.path, maxBytes);
    return bytes === undefined ? { kind: 'too_large', size: maxBytes + 1 } : { kind: 'file', bytes };
  } catch (error) {
    // A file the run made unreadable is an outcome to report; anything else (a race, an I/O fault) is an error.
    if (errnoOf(error) === 'EACCES') return { kind: 'unreadable', at: relative, errno: 'EACCES' };
    throw error;
  }
}
