// Paths a suite names (a workspace fixture, a replay transcript, a grader),
// resolved inside the suite folder: the folder itself is realpath'ed once (the
// user chose it); below it every component is lstat'ed and a link anywhere is
// refused, never followed. Files are opened O_NOFOLLOW and re-checked by fstat.
import { realpathSync } from 'node:fs';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { readFileAtMost } from './bounded-read.js';
import { describeEntry, splitRelativePath, walkComponents } from './no-link-path.js';

export interface SuitePathOptions {
  /** For files: the largest size accepted, in bytes. */
  readonly maxBytes?: number;
}

function invalid(suiteDirectory: string, relative: string, what: string, why: string, fix: string): ZotboxError {
  return new ZotboxError('ZB_EVAL_PATH_INVALID', `the suite path "${relative}" (${what}) ${why}. Fix: ${fix}.`, { details: { suite_directory: suiteDirectory, path: relative, what } });
}

const INSIDE = 'name a path relative to the suite folder, without ".." or empty segments';
const NO_LINK = 'put the real file or folder inside the suite folder instead of a link to it';

/**
 * The canonical absolute path of `relative` inside `suiteDirectory`, which must be
 * a `kind` (a regular file or a directory), reached without passing through a link.
 * `what` names its use in messages ("the grader", "the workspace fixture").
 */
export function resolveSuitePath(suiteDirectory: string, relative: string, kind: 'file' | 'directory', what: string, options: SuitePathOptions = {}): string {
  const split = splitRelativePath(relative);
  if (!split.ok) throw invalid(suiteDirectory, relative, what, `is not inside the suite folder: ${split.reason}`, INSIDE);
  let root: string;
  try {
    root = realpathSync.native(suiteDirectory);
  } catch (cause) {
    throw fileSystemError('open the suite folder', suiteDirectory, cause);
  }
  const walk = walkComponents(root, split.segments);
  if (!walk.found) {
    if (walk.absent) throw invalid(suiteDirectory, relative, what, `does not exist in ${root}`, `create it, or correct the path`);
    if ('errno' in walk) throw invalid(suiteDirectory, relative, what, `cannot be looked at: "${walk.at}" gave ${walk.errno}`, 'make the folders on the path readable');
    throw invalid(suiteDirectory, relative, what, `passes through "${walk.at}", which is a ${walk.kind}, not a folder`, walk.kind === 'symlink' ? NO_LINK : 'correct the path');
  }
  const found = describeEntry(walk.stats);
  if (found === 'symlink') throw invalid(suiteDirectory, relative, what, 'is a symlink', NO_LINK);
  if (found !== kind) throw invalid(suiteDirectory, relative, what, `is a ${found}, but it must be a ${kind === 'file' ? 'regular file' : 'folder'}`, 'correct the path');
  if (kind === 'file' && options.maxBytes !== undefined && walk.stats.size > options.maxBytes) {
    throw invalid(suiteDirectory, relative, what, `is ${walk.stats.size} bytes, more than the ${options.maxBytes} allowed`, 'use a smaller file');
  }
  return walk.path;
}

/**
 * The UTF-8 text of a file inside the suite folder, at most `maxBytes` long:
 * checked by resolveSuitePath, then opened without following a link and
 * re-checked on the descriptor (the check's result is never trusted at the open).
 */
export function readSuiteFile(suiteDirectory: string, relative: string, what: string, maxBytes: number): string {
  const canonical = resolveSuitePath(suiteDirectory, relative, 'file', what, { maxBytes });
  const bytes = readFileAtMost(canonical, maxBytes);
  if (bytes === undefined) throw invalid(suiteDirectory, relative, what, `grew past the ${maxBytes} bytes allowed while it was read`, 'use a smaller file');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new ZotboxError('ZB_EVAL_PATH_INVALID', `the suite path "${relative}" (${what}) is not UTF-8 text. Fix: save it as UTF-8.`, {
      cause,
      details: { suite_directory: suiteDirectory, path: relative, what },
    });
  }
}
