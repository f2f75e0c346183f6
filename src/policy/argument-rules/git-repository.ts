// Finds the repository a git command works on, the way git's discovery does:
// from the working directory up, the first directory with a ".git" entry, or
// one that is itself a git directory. Only a worktree whose .git is a real
// directory, and whose config does not move the worktree, is accepted: a gitfile,
// a link, core.worktree or a config include would send git elsewhere. Never throws.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { deny as no, type Check } from '../shell-check.js';

export interface GitRepository {
  /** The worktree's root directory (canonical when the working directory is). */
  readonly worktree: string;
  /** Its .git directory, a real directory directly inside the worktree. */
  readonly gitDirectory: string;
}

const FIX = 'Fix: run git in a repository whose .git is a directory, from inside its worktree (cd into it first).';

function lstatOrUndefined(file: string): Stats | undefined | 'error' {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    // An entry that cannot be inspected (EACCES, ENOTDIR) leaves the repository unknown: the caller refuses.
    return 'error';
  }
}

/** git's is_git_directory: HEAD, objects and refs. A directory shaped like this is a bare repository to git. */
function looksLikeGitDirectory(directory: string): boolean {
  const head = lstatOrUndefined(path.join(directory, 'HEAD'));
  const objects = lstatOrUndefined(path.join(directory, 'objects'));
  const refs = lstatOrUndefined(path.join(directory, 'refs'));
  return typeof head === 'object' && typeof objects === 'object' && typeof refs === 'object';
}

/** Largest config read whole; a larger one is refused rather than half read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Why the repository's own config may put the worktree elsewhere, or undefined.
 * Read leniently, so an odd spelling can only refuse more: a key named worktree
 * in any section (core.worktree), or any include (which could set it).
 */
function configMovingWorktree(gitDirectory: string): string | undefined {
  for (const name of ['config', 'config.worktree']) {
    const file = path.join(gitDirectory, name);
    let text: string;
    try {
      const stats = lstatSync(file, { throwIfNoEntry: false });
      if (stats === undefined) continue;
      // lstat, then only a regular file: a FIFO would block the gate, a link could lead to /dev/zero.
      if (!stats.isFile()) return `${file} is not a regular file`;
      if (stats.size > MAX_CONFIG_BYTES) return `${file} is larger than zotbox reads whole`;
      const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        if (!fstatSync(fd).isFile()) return `${file} is not a regular file`;
        text = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch {
      return `${file} cannot be read`; // unknown content: refused, never assumed harmless
    }
    if (/^\s*(?:\[[^\]]*\]\s*)?worktree\s*(?:=|$)/imu.test(text)) return `${file} sets core.worktree, which puts the worktree somewhere else`;
    if (/^\s*\[\s*include/imu.test(text)) return `${file} includes other config files, which could set core.worktree`;
  }
  return undefined;
}

/** The ".git" entry of `directory`, decided: a repository, nothing (walk on), or a refusal. */
function readDotGit(directory: string, program: string): Check<GitRepository | undefined> {
  const dotGit = path.join(directory, '.git');
  const stats = lstatOrUndefined(dotGit);
  if (stats === undefined) return { ok: true, value: undefined };
  if (stats === 'error') return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${dotGit} cannot be inspected, so zotbox cannot tell which repository git would use. ${FIX}`);
  if (stats.isFile()) {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${program}: ${dotGit} is a gitfile (a file pointing git at a repository elsewhere: a linked worktree or a submodule); zotbox does not follow it, because the scopes would not describe what git reads and writes there. ${FIX}`,
    );
  }
  if (stats.isSymbolicLink()) return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${dotGit} is a symbolic link; zotbox does not follow it to a repository elsewhere. ${FIX}`);
  if (!stats.isDirectory() || !looksLikeGitDirectory(dotGit)) {
    return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${dotGit} is not a git directory (no HEAD, objects and refs), so git would look further up; zotbox refuses rather than guess. ${FIX}`);
  }
  const moved = configMovingWorktree(dotGit);
  if (moved !== undefined) return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${moved}; zotbox checks git's writes against the directory that holds .git. ${FIX}`);
  return { ok: true, value: { worktree: directory, gitDirectory: dotGit } };
}

/**
 * The repository git would use when run in `directory` (absolute); undefined when
 * there is none, so git finds none either; a denial when git would use one that
 * zotbox cannot bound.
 */
export function findGitRepository(directory: string, program: string): Check<GitRepository | undefined> {
  let cwd: string;
  try {
    cwd = realpathSync.native(directory);
  } catch {
    return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: the working directory ${directory} cannot be resolved, so zotbox cannot tell which repository git would use. ${FIX}`);
  }
  for (let candidate = cwd; ; candidate = path.dirname(candidate)) {
    const found = readDotGit(candidate, program);
    if (!found.ok) return found;
    if (found.value !== undefined) return { ok: true, value: found.value };
    // Inside .git itself (cd .git/refs) this is where the walk ends too.
    if (looksLikeGitDirectory(candidate)) {
      return no(
        'ZB_POLICY_SHELL_ARGUMENT',
        `${program}: ${candidate} is shaped like a git directory (HEAD, objects, refs): a bare repository, or the inside of a .git, which git would work on without a worktree. ${FIX}`,
      );
    }
    if (candidate === path.dirname(candidate)) break;
  }
  return { ok: true, value: undefined };
}
