// What an allowed git subcommand reads and writes (issue 10 item 1): each rule
// in table-git.ts declares its effects with the marks below; this check finds
// the repository (git-repository.ts) and decides every effect against the scopes.
// A subcommand whose rule declares no effect is denied: effects are a closed world too.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { decidePathAccess } from '../path-decision.js';
import { absoluteFrom } from '../path-resolve.js';
import { isInsideRoot } from '../scopes.js';
import { deny as no, type Check } from '../shell-check.js';
import { findGitRepository, type GitRepository } from './git-repository.js';
import type { ParsedArguments } from './parse-arguments.js';
import type { ArgumentContext } from './value-kinds.js';

/** It reads the repository (worktree and .git) and writes nothing. */
export const GIT_READS = 'git-reads';
/** It writes the .git directory: the index, refs or objects. */
export const GIT_WRITES_GITDIR = 'git-writes-gitdir';
/** It may write any file of the worktree (a branch switch, a merge, git apply's patch paths), and so .git, which lies inside it. */
export const GIT_WRITES_WORKTREE = 'git-writes-worktree';
/** It writes the worktree paths its positionals name; none, a glob or pathspec magic means the whole worktree. */
export const GIT_WRITES_PATHSPECS = 'git-writes-pathspecs';
/** git checkout: the positionals after "--" are the paths it writes; without "--" one may be a branch, so the whole worktree. */
export const GIT_WRITES_PATHS_AFTER_DASHDASH = 'git-writes-paths-after-dashdash';
/** git branch, git tag: given a name, it creates (or deletes, renames) a ref in .git. */
export const GIT_NAMES_WRITE_GITDIR = 'git-names-write-gitdir';
/** Set by an option that makes branch or tag only list (--list): the names are patterns, nothing is written. */
export const GIT_LISTING = 'git-listing';
/** Set by an option that sends the writes to the index instead of the worktree (--staged, --cached). */
export const GIT_ONLY_INDEX = 'git-only-index';
/** Set by an option that writes the worktree as well as the index (git restore --worktree with --staged). */
export const GIT_ALSO_WORKTREE = 'git-also-worktree';
/** Set by an option that makes the command only report what it would do (git clean -n, git apply --check). */
export const GIT_DRY_RUN = 'git-dry-run';
/** git init: creates (or re-initialises) a repository in its directory argument, or the working directory. */
export const GIT_CREATES_REPOSITORY = 'git-creates-repository';
/** Its positionals may name files anywhere (git diff A B compares files outside the repository): each must be readable. */
export const GIT_ARGUMENTS_MAY_BE_FILES = 'git-arguments-may-be-files';
/** It needs no repository and touches no file (git version). */
export const GIT_NO_REPOSITORY = 'git-no-repository';

const WRITE_DECLARATIONS = [GIT_WRITES_GITDIR, GIT_WRITES_WORKTREE, GIT_WRITES_PATHSPECS, GIT_WRITES_PATHS_AFTER_DASHDASH, GIT_NAMES_WRITE_GITDIR];

type WorktreeWrites = { readonly kind: 'none' } | { readonly kind: 'all'; readonly because: string } | { readonly kind: 'paths'; readonly paths: readonly string[] };

interface GitEffects {
  readonly repository: 'none' | 'create' | 'existing';
  readonly readsArguments: boolean;
  readonly writesGitDirectory: boolean;
  readonly worktree: WorktreeWrites;
}

const NO_WORKTREE_WRITES: WorktreeWrites = { kind: 'none' };

/** Git's glob characters (a backslash escapes one) and pathspec magic (":(top)", ":/", ":!"). */
function isBroadPathspec(spec: string): boolean {
  return /[*?[\\]/.test(spec) || spec.startsWith(':');
}

function pathspecWrites(specs: readonly string[]): WorktreeWrites {
  if (specs.length === 0) return { kind: 'all', because: 'it names no path, so it works on the whole worktree' };
  const broad = specs.find(isBroadPathspec);
  if (broad !== undefined) return { kind: 'all', because: `the pathspec ${JSON.stringify(broad)} is a pattern (* ? [ \\) or has pathspec magic (a leading ":"), so it may match any file` };
  return { kind: 'paths', paths: specs };
}

function worktreeWrites(marks: ReadonlySet<string>, parsed: ParsedArguments): WorktreeWrites {
  if (marks.has(GIT_ONLY_INDEX) && !marks.has(GIT_ALSO_WORKTREE)) return NO_WORKTREE_WRITES;
  if (marks.has(GIT_WRITES_WORKTREE)) return { kind: 'all', because: 'it may change any file of the worktree' };
  if (marks.has(GIT_WRITES_PATHSPECS)) return pathspecWrites(parsed.positionals);
  if (marks.has(GIT_WRITES_PATHS_AFTER_DASHDASH)) {
    if (parsed.dashDash === undefined) return { kind: 'all', because: 'without "--" before the paths, git may take an argument (or nothing) as a branch to switch to, which rewrites the worktree' };
    return pathspecWrites(parsed.positionals.slice(parsed.dashDash));
  }
  return NO_WORKTREE_WRITES;
}

/** The effects the rule declares for this use, or a denial when it declares none. */
function declaredEffects(label: string, parsed: ParsedArguments): Check<GitEffects> {
  // The rule's own marks too: a bare subcommand ("git stash") is read with its parent's reading, which does not carry them.
  const marks = new Set([...parsed.marks, ...(parsed.rule.marks ?? [])]);
  const readsArguments = marks.has(GIT_ARGUMENTS_MAY_BE_FILES);
  if (marks.has(GIT_NO_REPOSITORY)) return { ok: true, value: { repository: 'none', readsArguments, writesGitDirectory: false, worktree: NO_WORKTREE_WRITES } };
  if (marks.has(GIT_CREATES_REPOSITORY)) return { ok: true, value: { repository: 'create', readsArguments, writesGitDirectory: true, worktree: NO_WORKTREE_WRITES } };
  if (!marks.has(GIT_READS) && !WRITE_DECLARATIONS.some((mark) => marks.has(mark))) {
    return no('ZB_POLICY_SHELL_ARGUMENT', `${label}: zotbox's rule for it declares no effect on the repository, so it cannot be checked against the scopes. Use another git command.`);
  }
  if (marks.has(GIT_DRY_RUN)) return { ok: true, value: { repository: 'existing', readsArguments, writesGitDirectory: false, worktree: NO_WORKTREE_WRITES } };
  const namesWrite = marks.has(GIT_NAMES_WRITE_GITDIR) && parsed.positionals.length > 0 && !marks.has(GIT_LISTING);
  const writesGitDirectory = marks.has(GIT_WRITES_GITDIR) || marks.has(GIT_ONLY_INDEX) || namesWrite;
  return { ok: true, value: { repository: 'existing', readsArguments, writesGitDirectory, worktree: worktreeWrites(marks, parsed) } };
}

function describeWriteRoots(context: ArgumentContext): string {
  return context.scopes.write.length === 0 ? 'none declared' : context.scopes.write.map((s) => s.root).join(', ');
}

function checkWorktreeWrites(label: string, writes: WorktreeWrites, repository: GitRepository, context: ArgumentContext): Check<null> {
  if (writes.kind === 'paths') {
    for (const spec of writes.paths) {
      const decision = decidePathAccess('write', absoluteFrom(context.cwd, spec), context.scopes);
      if (!decision.allow) return no(decision.code, `${label} writes ${JSON.stringify(spec)}: ${decision.reason}`);
    }
  }
  if (writes.kind === 'all') {
    const decision = decidePathAccess('write', repository.worktree, context.scopes);
    if (!decision.allow) {
      return no(
        decision.code,
        `${label} writes the worktree ${repository.worktree}: ${writes.because}. ${decision.reason} Or name the files it may change where the command allows it (git restore FILE, git checkout BRANCH -- FILE).`,
      );
    }
  }
  return { ok: true, value: null };
}

function checkGitDirectoryWrite(label: string, repository: GitRepository, context: ArgumentContext): Check<null> {
  // Not decidePathAccess: it refuses every write inside git metadata to the file tools; git itself only needs the scopes to cover the repository.
  if (context.scopes.write.some((scope) => isInsideRoot(repository.gitDirectory, scope.root))) return { ok: true, value: null };
  return no(
    'ZB_POLICY_PATH_OUTSIDE_SCOPE',
    `${label} writes the repository ${repository.worktree} (its .git directory: index, refs, objects), which is outside the write scopes (${describeWriteRoots(context)}). Fix: use a read-only git command (status, log, diff, show), or declare the repository in permissions.fs.write.`,
  );
}

function checkArgumentReads(label: string, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  for (const argument of parsed.positionals) {
    const decision = decidePathAccess('read', absoluteFrom(context.cwd, argument), context.scopes);
    if (!decision.allow) return no(decision.code, `${label} may read ${JSON.stringify(argument)} as a file (git diff compares files outside the repository too): ${decision.reason}`);
  }
  return { ok: true, value: null };
}

/** git init [DIR]: DIR (or the working directory) must be writable, and an existing .git there a real directory. */
function checkNewRepository(label: string, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  // git init DIR, git clone URL DIR: the repository is made in the last positional (clone's rule requires DIR).
  const target = parsed.positionals[parsed.positionals.length - 1] ?? '.';
  const decision = decidePathAccess('write', absoluteFrom(context.cwd, target), context.scopes);
  if (!decision.allow) return no(decision.code, `${label} creates a repository in ${JSON.stringify(target)}: ${decision.reason}`);
  const dotGit = path.join(decision.canonicalPath, '.git');
  let isDirectory = true;
  try {
    isDirectory = lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory() ?? true;
  } catch {
    isDirectory = false; // cannot be inspected: refused below, never guessed
  }
  if (!isDirectory)
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${label}: ${dotGit} exists and is not a directory (a gitfile or a link), which would send git init to a repository elsewhere. Fix: choose another directory.`,
    );
  return { ok: true, value: null };
}

/** The named check 'git-effects' (rule-format.ts): the repository is readable, and every write the subcommand declares is inside the write scopes. */
export function checkGitEffects(name: string, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  const label = [name, ...parsed.subcommands].join(' ');
  const effects = declaredEffects(label, parsed);
  if (!effects.ok) return effects;
  const { repository: needs, readsArguments, writesGitDirectory, worktree } = effects.value;
  if (needs === 'none') return { ok: true, value: null };
  if (needs === 'create') return checkNewRepository(label, parsed, context);
  if (readsArguments) {
    const files = checkArgumentReads(label, parsed, context);
    if (!files.ok) return files;
  }
  const found = findGitRepository(context.cwd, label);
  if (!found.ok) return found;
  const repository = found.value;
  if (repository === undefined) {
    // With no repository git refuses to run ("not a git repository"), or, for git diff, compares the files just checked.
    if (!writesGitDirectory && worktree.kind === 'none') return { ok: true, value: null };
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${label}: ${context.cwd} is not inside a git repository (no .git from there up to /), so zotbox cannot tell what it would write (outside one, git apply writes like patch). Fix: cd into the repository first, or create one with git init.`,
    );
  }
  // The .git directory is a real directory inside the worktree (git-repository.ts), so this read covers it too.
  const read = decidePathAccess('read', repository.worktree, context.scopes);
  if (!read.allow) return no(read.code, `${label} reads the whole repository ${repository.worktree}: ${read.reason}`);
  const written = checkWorktreeWrites(label, worktree, repository, context);
  if (!written.ok) return written;
  return writesGitDirectory ? checkGitDirectoryWrite(label, repository, context) : { ok: true, value: null };
}
