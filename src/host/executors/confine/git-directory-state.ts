// One git directory as a closed world (issue 21 §2): before a command, a record of
// every path in it (kind, inode, times) with the bytes of every file that is not
// plain data, so a changed hook or sequencer file is found by its content and put
// back, never trusted for keeping its inode; after it, whatever is new or changed
// must be data by git-data-rules.ts. A link or special file, a file that cannot be
// read, one larger than zotbox reads, or one that vanishes while being read is
// never taken for "nothing to check": it is a violation.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, symlinkSync, writeFileSync, type BigIntStats, type Dirent } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isGitDirectoryName } from '../../../policy/git-control.js';
import { linkTargetOf, linkTextOf } from './git-pointer-text.js';
import { setAside } from './set-aside.js';
import { checkGitData, gitDataRule, isGitDataDirectory, isRerereRecord } from './git-data-rules.js';

/** Largest file whose content is read (and kept, before a command); larger ones fail every grammar. */
export const MAX_GIT_FILE_BYTES = 1024 * 1024;
/**
 * Largest file that is not data (a hook, an unknown file) whose bytes are kept before a command; a larger one is
 * compared by inode, size, mtime and ctime (no command can set a ctime back), and cannot be put back.
 */
export const MAX_KEPT_BYTES = 64 * 1024;
/** Largest index whose bytes are kept before a command: its flags are compared after it (git-index-flags.ts). */
export const MAX_INDEX_BYTES = 64 * 1024 * 1024;
/** Largest reflog whose bytes are kept: a changed larger one cannot be checked, and stops the run (git reflog expire shortens it). */
export const MAX_REFLOG_BYTES = 16 * 1024 * 1024;

export interface GitPathState {
  readonly kind: 'file' | 'directory' | 'link' | 'other';
  readonly ino: bigint;
  readonly mode: number;
  /** size, mtime and ctime in ns: a write changes ctime, which no command can set back. */
  readonly stamp: string;
  readonly link?: string;
  /** The bytes, for every file that is not opaque data (read at most MAX_GIT_FILE_BYTES). */
  readonly content?: Buffer;
  readonly oversized?: true;
  /** Why the content could not be read (gone meanwhile, not permitted, changed while read). */
  readonly unreadable?: string;
}

export interface GitDirectoryRecord {
  readonly ino: bigint | undefined;
  /** Its device (with `ino`, its identity: a repository moved with its parent is found by it). */
  readonly dev?: bigint;
  /** Git opens it: it holds a HEAD file or link, or a gitfile, .git link or commondir points at it. */
  readonly usable: boolean;
  /** Found through a gitfile, .git link or commondir rather than by its shape. */
  readonly pointedTo: boolean;
  readonly entries: ReadonlyMap<string, GitPathState>;
  /** Directories inside it (relative) that could not be listed. */
  readonly unlisted: readonly string[];
  /** Paths inside it (relative; `.` itself) that could not be looked at (ENAMETOOLONG, ELOOP, EACCES): the scan stops the run on each. */
  readonly unreachable?: readonly string[];
}

/** Test seam: called after a directory is listed, before its entries are looked at. Production never passes one. */
export interface GitDirectoryProbe {
  readonly afterList?: (directory: string) => void;
}

export interface GitDirectoryViolation {
  readonly path: string;
  readonly reason: string;
}

function kindOf(stats: BigIntStats): GitPathState['kind'] {
  return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : stats.isSymbolicLink() ? 'link' : 'other';
}

/**
 * Whether a file's bytes are kept: everything but objects, the index and patches (opaque). Loose refs and reflogs are
 * kept too: a ref or reflog a command changed to name a commit that would write a protected file is put back
 * (git-staged-content.ts).
 */
function keepsContent(relative: string): boolean {
  const rule = gitDataRule(relative);
  return (rule !== 'opaque' && rule !== 'text' && rule !== 'config') || isReflog(relative) || isIndexFile(relative) || isSharedIndex(relative);
}

/** The shared part of a split index (core.splitIndex): its entries are what the index stages, so it is kept like the index (git-substitution.ts). */
export function isSharedIndex(relative: string): boolean {
  return /^sharedindex\.[0-9a-f]{40,64}$/u.test(relative);
}

/**
 * Every reflog (HEAD's, each branch's, the stash's, each worktree's): each names commits the user's git checks out
 * (`git reset --hard main@{1}`, `stash@{2}`, `HEAD@{1}`), so each is kept and read like a ref.
 */
export function isReflog(relative: string): boolean {
  return /^(worktrees\/[^/]+\/)?logs\/(HEAD|refs\/.+)$/u.test(relative);
}

/** A loose object: stat-ed, so that one rewritten in place is seen and hashed again (git-substitution.ts). */
export function isLooseObject(relative: string): boolean {
  return /^objects\/[0-9a-f]{2}\/([0-9a-f]{38}|[0-9a-f]{62})$/u.test(relative);
}

/** The index files of a git directory (its own, each worktree's): stat-ed, so that a changed index is seen. */
export function isIndexFile(relative: string): boolean {
  return relative === 'index' || /^worktrees\/[^/]+\/index$/u.test(relative);
}

/** Packs, their indexes and the commit-graph: stat-ed, so that one changed in place is seen (git-substitution.ts). */
export function isObjectIndexFile(relative: string): boolean {
  return /^objects\/(pack|info)\//u.test(relative);
}

/** HEAD's reflog, whose last "checkout: moving from X" line the user's `git checkout -` goes back to: stat-ed, so that a changed one is seen. */
export function isHeadLog(relative: string): boolean {
  return /^(worktrees\/[^/]+\/)?logs\/HEAD$/u.test(relative);
}

/** The patches `git am --continue` and `git rebase --continue` (apply backend) apply: stat-ed, so that a changed one is seen. */
export function isPatchFile(relative: string): boolean {
  return /^(worktrees\/[^/]+\/)?rebase-apply\/(\d{4,}|patch)$/u.test(relative);
}

/** Reads a regular file without following a link, checking it is still the file that was listed. */
export function readGitFile(full: string, ino: bigint, limit = MAX_GIT_FILE_BYTES): { content: Buffer } | { oversized: true } | { unreadable: string } {
  let fd: number;
  try {
    fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return { unreadable: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile() || stats.ino !== ino) return { unreadable: 'replaced while being read' };
    if (stats.size > BigInt(limit)) return { oversized: true };
    const buffer = Buffer.alloc(Number(stats.size));
    let filled = 0;
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0) return { unreadable: 'shrank while being read' };
      filled += read;
    }
    return { content: buffer };
  } finally {
    closeSync(fd);
  }
}

const VANISHED = 'vanished while being checked';

/** A path's lstat, or why it cannot be had: never an error out of a scan (ENOENT is VANISHED; any other errno, its code). */
function lookAt(full: string): { stats: BigIntStats } | { unreadable: string } {
  try {
    const stats = lstatSync(full, { bigint: true, throwIfNoEntry: false });
    return stats === undefined ? { unreadable: VANISHED } : { stats };
  } catch (error) {
    return { unreadable: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

/**
 * Records every path in `directory`, following no link. Never throws: a path that cannot be looked at is an entry
 * `unreadable` and in `unreachable` (git-inventory.ts stops the run on it).
 */
export function recordGitDirectory(directory: string, pointedTo: boolean, probe?: GitDirectoryProbe): GitDirectoryRecord {
  const entries = new Map<string, GitPathState>();
  const unlisted: string[] = [];
  const unreachable: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    const full = relative === '' ? directory : path.join(directory, relative);
    let names: Dirent[];
    try {
      names = readdirSync(full, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (relative === '' && (code === 'ENOENT' || code === 'ENOTDIR')) return { ino: undefined, usable: false, pointedTo, entries, unlisted };
      unlisted.push(relative === '' ? '.' : relative);
      continue;
    }
    probe?.afterList?.(full);
    for (const dirent of names) {
      const name = dirent.name;
      const child = relative === '' ? name : `${relative}/${name}`;
      const childFull = path.join(full, name);
      // Objects, logs, messages and git's own directories: only their kind matters, which the listing gives (no lstat).
      const rule = dirent.isFile() ? gitDataRule(child) : undefined;
      if ((rule === 'opaque' && !isIndexFile(child) && !isPatchFile(child) && !isObjectIndexFile(child) && !isReflog(child) && !isLooseObject(child) && !isSharedIndex(child)) || rule === 'text') {
        entries.set(child, { kind: 'file', ino: 0n, mode: 0, stamp: '' });
        continue;
      }
      if (dirent.isDirectory() && isGitDataDirectory(child)) {
        entries.set(child, { kind: 'directory', ino: 0n, mode: 0o755, stamp: '' });
        pending.push(child);
        continue;
      }
      const looked = lookAt(childFull);
      if (!('stats' in looked)) {
        // Listed, then gone or past what zotbox can look at (ENAMETOOLONG, ELOOP, EACCES): recorded as unreadable, and
        // a path that cannot be looked at also in `unreachable`, so the scan stops the run whatever the directory is.
        entries.set(child, { kind: 'other', ino: -1n, mode: 0, stamp: '', unreadable: looked.unreadable });
        if (looked.unreadable !== VANISHED) unreachable.push(child);
        continue;
      }
      const stats = looked.stats;
      const kind = kindOf(stats);
      const base = { kind, ino: stats.ino, mode: Number(stats.mode & 0o7777n), stamp: `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` };
      if (kind === 'directory') {
        entries.set(child, base);
        pending.push(child);
      } else if (kind === 'link') {
        let link: string | undefined;
        try {
          link = linkTextOf(childFull); // by bytes: two targets that read alike as UTF-8 are not the same
        } catch {
          link = undefined; // replaced meanwhile: recorded unreadable below
        }
        entries.set(child, link === undefined ? { ...base, unreadable: VANISHED } : { ...base, link });
      } else if (kind === 'file' && keepsContent(child)) {
        // Bytes of grammar files up to MAX_GIT_FILE_BYTES; of other files (hooks, unknown) up to MAX_KEPT_BYTES, larger ones by their stamp.
        const limit = isIndexFile(child) || isSharedIndex(child) ? MAX_INDEX_BYTES : isReflog(child) ? MAX_REFLOG_BYTES : gitDataRule(child) === undefined ? MAX_KEPT_BYTES : MAX_GIT_FILE_BYTES;
        entries.set(child, { ...base, ...readGitFile(childFull, stats.ino, limit) });
      } else entries.set(child, base);
    }
  }
  const self = lookAt(directory);
  if ('unreadable' in self && self.unreadable !== VANISHED) unreachable.push('.');
  const root = 'stats' in self ? self.stats : undefined;
  return {
    ino: root?.ino,
    ...(root === undefined ? {} : { dev: root.dev }),
    usable: pointedTo || opensAsRepository(entries, directory),
    pointedTo,
    entries,
    unlisted,
    ...(unreachable.length > 0 ? { unreachable } : {}),
  };
}

/**
 * git's is_git_directory, read more widely: a HEAD that is a link, or a file that starts like a ref or an object id
 * (git reads only the first 40 hex digits; one zotbox could not read counts), with objects/ and refs/ (of any kind)
 * or a commondir; or, without them, a HEAD that is exactly a ref or an object id, so that a repository half-built
 * by one write is checked before another completes it. .git/logs holds a HEAD too, a reflog line: git never opens it.
 */
function opensAsRepository(entries: ReadonlyMap<string, GitPathState>, directory: string): boolean {
  const head = entries.get('HEAD');
  // A HEAD git finds that the listing did not show (a case-folding directory holding `head`, or one made meanwhile):
  // counted, its content unknown. Likewise objects/, refs/ and commondir below.
  if (head === undefined) return foundByName(directory, 'HEAD');
  if (head.kind === 'link') return true;
  if (head.kind !== 'file') return false;
  const text = head.content?.toString('latin1');
  // git reads an object id's hex digits in either case (get_oid_hex): so does this test, and "ref:" in any case (more checked, never less).
  if (text === undefined || /^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/iu.test(text)) return true;
  const has = (name: string) => entries.has(name) || foundByName(directory, name);
  return /^(ref:|[0-9a-f]{40})/iu.test(text) && (has('commondir') || (has('objects') && has('refs')));
}

/** Whether the file system finds `name` in `directory` (exactly as git opens it); "cannot tell" counts as found. */
function foundByName(directory: string, name: string): boolean {
  try {
    return lstatSync(path.join(directory, name), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/** Removes a HEAD; why it could not be (a path past PATH_MAX), never an error out of the aftercare. */
function removeHead(headPath: string): string | undefined {
  try {
    rmSync(headPath, { force: true });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

function sameStamp(a: GitPathState, b: GitPathState): boolean {
  return a.kind === b.kind && a.ino === b.ino && a.stamp === b.stamp;
}

/** Why `state` at `relative` breaks the rules, given what stood there before (undefined: acceptable). */
function judge(directory: string, relative: string, state: GitPathState, previous: GitPathState | undefined): string | undefined {
  if (state.unreadable !== undefined) return `it cannot be read (${state.unreadable}), so zotbox cannot check it`;
  if (state.kind === 'link' || state.kind === 'other') {
    const unchanged = previous !== undefined && previous.kind === state.kind && previous.ino === state.ino && previous.link === state.link;
    if (unchanged) return undefined; // the user's own, as it was
    return state.kind === 'link' ? `a symlink (to ${JSON.stringify(state.link)}) in a git directory, which git would follow` : 'a FIFO, socket or device in a git directory';
  }
  const notData = isRerereRecord(relative)
    ? "a rerere record, which the user's git replays into the worktree (at any path) on a merge that meets the same conflict; run the agent's merges with git -c rerere.enabled=false"
    : undefined;
  if (state.kind === 'directory') {
    if (isGitDataDirectory(relative)) return undefined;
    return previous?.kind === 'directory' && previous.ino === state.ino ? undefined : (notData ?? 'a directory git does not make');
  }
  const rule = gitDataRule(relative);
  if (rule === 'config') return undefined; // judged by its text (git-config-rules.ts)
  if (rule === undefined) {
    if (previous?.kind !== 'file') return notData ?? 'a file git does not write as data';
    if (previous.content !== undefined && state.content !== undefined) return previous.content.equals(state.content) ? undefined : 'its content changed';
    // Past the size zotbox reads: compared by inode, size and times (ctime cannot be set back), and never restorable.
    return sameStamp(previous, state) && previous.oversized === true && state.oversized === true ? undefined : 'it changed, or is too large to compare';
  }
  if (previous?.kind === 'file') {
    const unchanged = previous.content !== undefined && state.content !== undefined ? previous.content.equals(state.content) : sameStamp(previous, state);
    if (unchanged) return undefined;
  }
  if (rule === 'opaque' || rule === 'text') return undefined;
  if (state.oversized === true) return `it is larger than ${MAX_GIT_FILE_BYTES} bytes`;
  const read = state.content === undefined ? readGitFile(path.join(directory, relative), state.ino) : { content: state.content };
  if ('unreadable' in read) return `it cannot be read (${read.unreadable}), so zotbox cannot check it`;
  if ('oversized' in read) return `it is larger than ${MAX_GIT_FILE_BYTES} bytes`;
  const why = checkGitData(rule, read.content.toString('utf8'));
  return why;
}

/** Puts back what stood at `relative` before, from the record; false when its bytes were not kept. */
function restore(directory: string, relative: string, before: GitDirectoryRecord): boolean {
  const state = before.entries.get(relative);
  if (state === undefined) return true;
  const full = path.join(directory, relative);
  if (state.kind === 'link' && state.link !== undefined) symlinkSync(linkTargetOf(state.link), full);
  else if (state.kind === 'file' && state.content !== undefined) writeFileSync(full, state.content, { mode: state.mode, flag: 'wx' });
  else if (state.kind === 'directory') {
    mkdirSync(full, { mode: state.mode });
    let complete = true;
    for (const child of before.entries.keys()) if (path.posix.dirname(child) === relative) complete = restore(directory, child, before) && complete;
    return complete;
  } else return false;
  return true;
}

/** What the HEAD of a git directory moved aside is renamed to, with a random part: a name the command made cannot take it. */
const SET_ASIDE_HEAD = 'HEAD.zotbox-set-aside';

/** Renames the HEAD git would open in a directory set aside (found by git's name) to a free name, so that git opens it no more; what it did. */
function unopenable(directory: string): string {
  if (!foundByName(directory, 'HEAD')) return '';
  for (let attempt = 0; attempt < 8; attempt++) {
    const name = `${SET_ASIDE_HEAD}-${randomBytes(6).toString('hex')}`;
    if (lstatSync(path.join(directory, name), { throwIfNoEntry: false }) !== undefined) continue;
    try {
      renameSync(path.join(directory, 'HEAD'), path.join(directory, name));
      return `, its HEAD renamed ${name} so that git does not open it`;
    } catch (error) {
      return `; renaming its HEAD failed (${(error as NodeJS.ErrnoException).code ?? String(error)}), so git still opens it: do not run git there`;
    }
  }
  return '; no free name for its HEAD, so git still opens it: do not run git there';
}

/** Puts back what stood at `relative` before (removing what stands there now); false when its bytes were not kept. */
export function putBackGitPath(directory: string, relative: string, before: GitDirectoryRecord): boolean {
  rmSync(path.join(directory, relative), { recursive: true, force: true });
  return restore(directory, relative, before);
}

/**
 * Compares a git directory after a command with its record before (or, `moved`, the
 * record of the git directory it was before a command moved it with its parent;
 * neither: new to git), undoes every path that breaks the rules and returns what was
 * undone. Undoing: against a record, the path is removed and what stood there put
 * back; in a new directory at git's place (named like `.git`), the directory is moved
 * aside whole, its HEAD renamed so that git does not open it; in a new
 * repository under any other name (the agent's write of a HEAD file made a project
 * directory one, or a pointer it made names one), its HEAD is removed. Nothing of the
 * user's is deleted.
 */
export function undoGitDirectoryChanges(directory: string, before: GitDirectoryRecord | undefined, after: GitDirectoryRecord, moved?: GitDirectoryRecord): GitDirectoryViolation[] {
  // A directory named like .git is git's even while git does not open it (no HEAD yet): the user's `git init` there
  // keeps its config and hooks. So it is held to git's data whenever it exists; any other, while git opens it or a
  // pointer names it (a pointer of the user's that names another directory than before is moved aside:
  // git-aftercare.ts; one that named this one before gave it a usable record, its baseline).
  const owned = isGitDirectoryName(path.basename(directory));
  // The baseline: the record of this directory where it stood, or of the git directory it was before a command moved
  // it with its parent (`moved`, git-aftercare.ts). Either only of one that was a git directory before the call: a
  // directory that only held a HEAD entry brings no baseline.
  const here = before !== undefined && before.ino === after.ino && (before.usable || owned) ? before : undefined;
  const earlier = here ?? moved;
  if (earlier === undefined && !after.usable && !owned) return [];
  const bad: GitDirectoryViolation[] = after.unlisted.map((relative) => ({ path: relative, reason: 'it cannot be listed, so zotbox cannot check it' }));
  for (const [relative, state] of after.entries) {
    const reason = judge(directory, relative, state, earlier?.entries.get(relative));
    if (reason !== undefined) bad.push({ path: relative, reason });
  }
  // Only the topmost of nested paths is undone and named (a new directory is removed whole).
  bad.sort((a, b) => a.path.localeCompare(b.path));
  const topmost = bad.filter((v, i) => !bad.slice(0, i).some((o) => v.path.startsWith(`${o.path}/`)));
  if (topmost.length === 0) return [];
  if (earlier === undefined && owned) {
    // Git's place with nothing to compare against: what is there may be the user's (a folder moved there), so nothing
    // in it is deleted; it is moved aside whole, and git finds no repository there any more, nor where it went: its
    // HEAD is renamed, so that the user's `git log` there (reviewing it) runs none of its config's programs.
    let outcome: string;
    try {
      const movedTo = setAside(directory, () => false);
      outcome =
        movedTo === undefined
          ? `zotbox removed ${directory} (no name of its own was free beside it)`
          : `zotbox moved ${directory} whole to ${movedTo}, deleting nothing${unopenable(movedTo)}; review its config and hooks before running git there`;
    } catch (error) {
      // EBUSY (a mount point), EACCES (a parent made read-only): reported, never a raw error out of the aftercare.
      outcome = `moving ${directory} aside failed (${(error as NodeJS.ErrnoException).code ?? String(error)}): review it by hand`;
    }
    return topmost.map((v) => ({ path: path.join(directory, v.path), reason: `${v.reason}; ${outcome}` }));
  }
  if (earlier === undefined) {
    // Not a git directory before the call, and not git's place: the user's directory it may be (a HEAD file the
    // command wrote made it one, or a pointer the command made names it, which the caller undoes), so nothing in it is
    // removed. Git opens it only by its HEAD: a HEAD that is a file or link is removed instead.
    const head = after.entries.get('HEAD');
    const headPath = path.join(directory, 'HEAD');
    // One the listing did not show (a case-folding directory's `head`) is found by git's name, as opensAsRepository did.
    const defused = head === undefined ? foundByName(directory, 'HEAD') : head.kind !== 'directory';
    const failed = defused ? removeHead(headPath) : undefined;
    const outcome =
      failed !== undefined
        ? `removing ${headPath} failed (${failed}): review it by hand`
        : defused
          ? `zotbox removed ${headPath}, so git no longer opens ${directory} as a repository`
          : `zotbox left ${directory} as it is: without a HEAD git does not open it`;
    return topmost.map((v) => ({ path: path.join(directory, v.path), reason: `${v.reason}; ${outcome}` }));
  }
  return topmost.map((v) => {
    const full = path.join(directory, v.path);
    try {
      rmSync(full, { recursive: true, force: true });
      if (!restore(directory, v.path, earlier)) return { path: full, reason: `${v.reason}; it was removed (its earlier content was not kept)` };
    } catch (error) {
      return { path: full, reason: `${v.reason}; undoing it failed (${(error as NodeJS.ErrnoException).code ?? String(error)}): review it by hand` };
    }
    return { path: full, reason: v.reason };
  });
}
