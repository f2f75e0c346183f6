// Copies a workspace fixture into a fresh case workspace: regular files (their
// content and executable bit) and directories only, within limits. A link,
// FIFO, socket or device in the fixture is refused by name, never followed or
// opened; the walk lstat's, and every file is opened O_NOFOLLOW and re-checked.
// Returns the copy's snapshot (path -> size and sha256 of the bytes written).
import { createHash } from 'node:crypto';
import { closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync, readdirSync, writeSync, type Stats } from 'node:fs';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { compareUtf8 } from '../../archive/entry-name.js';
import { openChecked, readChunks } from './bounded-read.js';
import { describeEntry } from './no-link-path.js';

export interface FixtureLimits {
  /** Files and directories in the fixture, its root excluded. */
  readonly maxEntries: number;
  /** Bytes over all its files. */
  readonly maxBytes: number;
}

export const DEFAULT_FIXTURE_LIMITS: FixtureLimits = { maxEntries: 10_000, maxBytes: 256 * 1024 * 1024 };

export interface SnapshotEntry {
  readonly size: number;
  readonly sha256: string;
}

/** Regular files of a fresh workspace, by relative path with "/" separators. */
export type WorkspaceSnapshot = ReadonlyMap<string, SnapshotEntry>;

function refuse(fixture: string, relative: string, why: string, fix: string): ZotboxError {
  return new ZotboxError('ZB_EVAL_FIXTURE_INVALID', `the workspace fixture ${fixture} cannot be copied: ${relative === '' ? 'the fixture' : `"${relative}"`} ${why}. Fix: ${fix}.`, {
    details: { fixture, path: relative },
  });
}

interface CopyState {
  readonly fixture: string;
  readonly limits: FixtureLimits;
  readonly snapshot: Map<string, SnapshotEntry>;
  entries: number;
  bytes: number;
}

/** Copies the fixture directory `fixture` (canonical) into the existing empty directory `destination`. */
export async function copyFixture(fixture: string, destination: string, limits: FixtureLimits = DEFAULT_FIXTURE_LIMITS): Promise<WorkspaceSnapshot> {
  const rootStats = lstatOrThrow(fixture, fixture);
  if (!rootStats.isDirectory()) throw refuse(fixture, '', `is a ${describeEntry(rootStats)}, not a folder`, 'point the case at a folder inside the suite folder');
  const state: CopyState = { fixture, limits, snapshot: new Map(), entries: 0, bytes: 0 };
  // An explicit stack, not recursion: a deep fixture must not exhaust the call stack.
  const pending: string[] = [''];
  for (let relative = pending.pop(); relative !== undefined; relative = pending.pop()) {
    const names = listDirectory(relative === '' ? fixture : `${fixture}/${relative}`);
    for (const name of names.sort(compareUtf8)) {
      const child = relative === '' ? name : `${relative}/${name}`;
      if (copyEntry(state, child, destination)) pending.push(child);
    }
    await new Promise((resolve) => setImmediate(resolve)); // let the event loop breathe between directories
  }
  return state.snapshot;
}

function lstatOrThrow(absolute: string, fixture: string): Stats {
  try {
    return lstatSync(absolute);
  } catch (cause) {
    throw fileSystemError('read the workspace fixture', absolute === fixture ? fixture : absolute, cause);
  }
}

function listDirectory(absolute: string): string[] {
  try {
    return readdirSync(absolute);
  } catch (cause) {
    throw fileSystemError('list the workspace fixture folder', absolute, cause);
  }
}

/** Copies one entry; returns true when it is a directory to descend into. */
function copyEntry(state: CopyState, relative: string, destination: string): boolean {
  state.entries += 1;
  if (state.entries > state.limits.maxEntries) {
    throw refuse(state.fixture, relative, `is past the limit of ${state.limits.maxEntries} files and folders`, 'make the fixture smaller');
  }
  const source = `${state.fixture}/${relative}`;
  const stats = lstatOrThrow(source, state.fixture);
  const target = `${destination}/${relative}`;
  if (stats.isDirectory()) {
    try {
      mkdirSync(target, { mode: 0o755 });
    } catch (cause) {
      throw fileSystemError('create the workspace folder', target, cause);
    }
    return true;
  }
  if (!stats.isFile()) {
    throw refuse(state.fixture, relative, `is a ${describeEntry(stats)}; a fixture holds only regular files and folders`, 'replace it with a copy of the file it stands for, or remove it');
  }
  copyFile(state, relative, source, target, stats);
  return false;
}

function copyFile(state: CopyState, relative: string, source: string, target: string, stats: Stats): void {
  const budget = state.limits.maxBytes - state.bytes;
  const tooLarge = () => refuse(state.fixture, relative, `takes the fixture past its limit of ${state.limits.maxBytes} bytes`, 'make the fixture smaller');
  if (stats.size > budget) throw tooLarge();
  const input = openChecked(source);
  let output: number | undefined;
  try {
    // O_EXCL | O_NOFOLLOW: the fresh workspace is empty, so anything already at the name is refused, never written through.
    output = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    const hash = createHash('sha256');
    const out = output;
    const copied = readChunks(input, budget, (chunk) => {
      hash.update(chunk);
      let written = 0;
      while (written < chunk.length) written += writeSync(out, chunk, written, chunk.length - written);
    });
    if (copied > budget) throw tooLarge(); // it grew since the lstat
    fchmodSync(output, (stats.mode & 0o100) !== 0 ? 0o755 : 0o644);
    state.bytes += copied;
    state.snapshot.set(relative, { size: copied, sha256: hash.digest('hex') });
  } catch (cause) {
    throw fileSystemError('copy the fixture file', source, cause);
  } finally {
    closeSync(input);
    if (output !== undefined) closeSync(output);
  }
}
