// Every way git reads other objects or other history than the user has (issue 21
// review, "packed-replace-ref"): after a command, a git directory in a write scope
// may not substitute objects or history, wherever git keeps the substitution.
// - Replace refs (git reads the second object wherever the first is named), loose
//   under refs/replace/ or as a line of packed-refs, and any ref file, HEAD, todo
//   or head-name that names one (the user's own git would write it later).
// - New lines in `shallow` (git takes the commit for a root: history ends there).
// - Objects whose content is not what their id says: a new or changed loose object
//   (stat-ed before and after, git-directory-state.ts) is hashed, since git does not
//   check a blob's id when it checks it out; a new or changed pack is verified by git
//   (git verify-pack), since git reads a pack before a loose object and trusts its
//   index for an id's offset.
// - A shared index (sharedindex.*) the user had, changed in place.
// - Caches that stand in for objects (commit-graph, multi-pack-index, reverse
//   indexes, bitmaps) that a command wrote are removed: git rebuilds them from the
//   objects, and zotbox's own plumbing never reads them (git-plumbing.ts).
// `info/grafts`, `objects/info/alternates` and `http-alternates` are no data at
// all (git-data-rules.ts), and `core.useReplaceRefs` is config (git-config-rules.ts).
// What breaks a rule is undone and returned; the caller stops the run.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { gitDataRule } from './git-data-rules.js';
import { isObjectIndexFile, isSharedIndex, putBackGitPath, readGitFile, type GitDirectoryRecord, type GitDirectoryViolation, type GitPathState } from './git-directory-state.js';
import { runPlumbing } from './git-plumbing.js';

const REPLACE_REF = /^(?:worktrees\/[^/]+\/)?refs\/replace\//u;
/** Files whose text names refs git writes or follows later: a name under refs/replace/ there would make the user's git write a replace ref. */
const NAMING_RULES = new Set(['ref', 'ref-name', 'ref-names', 'update-refs', 'todo']);
const LOOSE_OBJECT = /^objects\/([0-9a-f]{2})\/([0-9a-f]{38}|[0-9a-f]{62})$/u;
const PACK_FILE = /^objects\/pack\/(pack-[0-9a-f]{40,64})\.(pack|idx)$/u;
/** Caches git rebuilds from the objects; a command's version of one is removed, never read. */
const CACHE_FILE = /^objects\/(info\/commit-graphs?(\/|$)|pack\/(multi-pack-index|pack-[0-9a-f]{40,64}\.(rev|bitmap))$)/u;
/** Largest loose object zotbox inflates to check its id; a larger new one is removed. */
const MAX_LOOSE_OBJECT = 512 * 1024 * 1024;

const EMPTY: GitDirectoryRecord = { ino: undefined, usable: false, pointedTo: false, entries: new Map(), unlisted: [] };

function textOf(state: GitPathState | undefined): string | undefined {
  return state?.kind === 'file' && state.content !== undefined ? state.content.toString('latin1') : undefined;
}

function same(earlier: GitPathState | undefined, state: GitPathState): boolean {
  if (earlier === undefined || earlier.kind !== state.kind) return false;
  if (earlier.content !== undefined && state.content !== undefined) return earlier.content.equals(state.content);
  return earlier.ino === state.ino && earlier.stamp === state.stamp && earlier.ino !== 0n;
}

/** The replace refs a record holds, name → where it is written and what it names (an unreadable loose one names its stamp). */
function replaceRefsOf(record: GitDirectoryRecord): Map<string, { where: string; value: string }> {
  const refs = new Map<string, { where: string; value: string }>();
  for (const [relative, state] of record.entries) {
    if (!REPLACE_REF.test(relative) || state.kind === 'directory') continue;
    refs.set(relative.replace(/^worktrees\/[^/]+\//u, ''), { where: relative, value: textOf(state)?.trim() ?? `${state.kind}:${state.ino}:${state.stamp}` });
  }
  const packed = record.entries.get('packed-refs');
  const text = textOf(packed) ?? (packed === undefined ? '' : undefined);
  // A packed-refs zotbox could not read may hold any replace ref.
  if (text === undefined && packed !== undefined) refs.set('refs/replace/?', { where: 'packed-refs', value: `${String(packed.ino)}:${packed.stamp}` });
  for (const line of (text ?? '').split('\n')) {
    const name = / (refs\/replace\/.*)$/u.exec(line)?.[1];
    if (name !== undefined) refs.set(name, { where: 'packed-refs', value: line.split(' ')[0]! });
  }
  return refs;
}

/** git's id of a loose object file's content, or why it is not one. */
function looseObjectId(data: Buffer, hash: 'sha1' | 'sha256'): string | { why: string } {
  let inflated: Buffer;
  try {
    inflated = inflateSync(data, { maxOutputLength: MAX_LOOSE_OBJECT });
  } catch {
    return { why: 'it is not a zlib stream zotbox can read (or larger than it reads)' };
  }
  const header = /^(blob|tree|commit|tag) (\d+)\0/u.exec(inflated.subarray(0, 32).toString('latin1'));
  if (header === null || Number(header[2]) !== inflated.length - header[0].length) return { why: 'it is not a git object' };
  return createHash(hash).update(inflated).digest('hex');
}

/** The files of one pack (pack-HASH.*) in objects/pack. */
function packFiles(directory: string, base: string): string[] {
  try {
    return readdirSync(path.join(directory, 'objects', 'pack')).filter((name) => name.startsWith(`${base}.`));
  } catch {
    return [];
  }
}

/**
 * Checks the git directory `directory` after a command against its record before (undefined: new to zotbox),
 * undoes every substitution of objects or history, and returns what was undone.
 */
export function substitutionViolations(directory: string, before: GitDirectoryRecord | undefined, after: GitDirectoryRecord): GitDirectoryViolation[] {
  const earlier = before ?? EMPTY;
  const violations: GitDirectoryViolation[] = [];
  const putBack = new Set<string>();
  const fail = (relative: string, reason: string, undo: string | null = relative) => {
    violations.push({ path: path.join(directory, relative), reason });
    if (undo !== null) putBack.add(undo);
  };

  // Replace refs, loose or packed: none may be added or changed.
  const replaceBefore = replaceRefsOf(earlier);
  for (const [name, ref] of replaceRefsOf(after)) {
    if (replaceBefore.get(name)?.value === ref.value) continue;
    fail(
      ref.where,
      `${name} is a replace ref: the user's git would read another object wherever ${name.slice('refs/replace/'.length) || 'it'} is named (a checkout, reset or stash writes it into the worktree)`,
    );
  }

  for (const [relative, state] of after.entries) {
    if (relative.startsWith('objects/') || same(earlier.entries.get(relative), state)) continue;
    const rule = gitDataRule(relative);
    // A ref, HEAD, todo list or head-name that names a replace ref: the user's commit, branch or rebase would write it.
    const text = textOf(state);
    if (rule !== undefined && NAMING_RULES.has(rule) && !REPLACE_REF.test(relative) && text !== undefined && /refs\/replace\//u.test(text)) {
      const state = /^((?:worktrees\/[^/]+\/)?(?:rebase-merge|rebase-apply|sequencer))\//u.exec(relative)?.[1];
      fail(relative, "it names a ref under refs/replace/, which the user's git would write (a replace ref substitutes objects)", state !== undefined && !earlier.entries.has(state) ? state : relative);
    }
    // New shallow lines: git takes those commits for roots.
    if (relative === 'shallow') {
      const had = new Set((textOf(earlier.entries.get(relative)) ?? '').split('\n'));
      const added = (text ?? '?').split('\n').filter((line) => line !== '' && !had.has(line));
      if (added.length > 0) fail(relative, `a shallow line makes git take ${added[0]!.slice(0, 64)} for a root commit: the user's git log, merge and rebase would see history end there`);
    }
  }

  // Objects: a new or changed loose object must hash to its name (one the user had is compared by inode, size and times).
  for (const [relative, state] of after.entries) {
    const match = LOOSE_OBJECT.exec(relative);
    if (match === null || state.kind !== 'file' || same(earlier.entries.get(relative), state)) continue;
    const full = path.join(directory, relative);
    const read = readGitFile(full, lstatSync(full, { bigint: true, throwIfNoEntry: false })?.ino ?? -1n, MAX_LOOSE_OBJECT);
    const id: string | { why: string } =
      'content' in read
        ? looseObjectId(read.content, match[2]!.length === 62 ? 'sha256' : 'sha1')
        : { why: 'unreadable' in read ? `it cannot be read (${read.unreadable})` : 'it is larger than zotbox reads' };
    if (id === `${match[1]!}${match[2]!}`) continue;
    const had =
      earlier.entries.get(relative)?.kind === 'file'
        ? "; it was removed, and the user's earlier bytes were not kept: git now reports the object missing (fetch it again, or restore it from a clone)"
        : '';
    fail(relative, `a loose object whose content is not its id (${typeof id === 'string' ? `it holds ${id}` : id.why}): git would read it in place of the object the user has${had}`);
  }

  // The shared part of a split index, which git writes anew under a new name and never rewrites: one the user had that
  // changed in place would stage other content under an index that did not change (a changed index with a split is
  // refused by git-index-flags.ts). Put back from its kept bytes.
  for (const [relative, state] of after.entries) {
    const had = earlier.entries.get(relative);
    if (!isSharedIndex(relative) || had === undefined || same(had, state)) continue;
    fail(relative, "a shared index (core.splitIndex) changed in place, which git never does: the user's git would stage its entries (git checkout -- . writes them); it was put back");
  }

  // Packs: a new or changed pack or index is verified by git; caches a command wrote are removed.
  const packs = new Set<string>();
  let caches = false;
  for (const [relative, state] of after.entries) {
    if (!isObjectIndexFile(relative) || state.kind !== 'file' || same(earlier.entries.get(relative), state)) continue;
    if (CACHE_FILE.test(relative)) caches = true;
    const base = PACK_FILE.exec(relative)?.[1];
    if (base !== undefined) packs.add(base);
  }
  for (const base of packs) {
    const idx = path.join(directory, 'objects', 'pack', `${base}.idx`);
    if (!after.entries.has(`objects/pack/${base}.idx`)) continue; // git reads no pack without its index
    const verified = runPlumbing(directory, ['verify-pack', idx]);
    if (verified.ok) continue;
    const known = earlier.entries.has(`objects/pack/${base}.idx`);
    // A new pack is removed whole; a pack the user had loses only its index, which `git index-pack` rebuilds from the pack.
    for (const name of known ? [`${base}.idx`] : packFiles(directory, base)) rmSync(path.join(directory, 'objects', 'pack', name), { force: true });
    fail(
      `objects/pack/${base}.idx`,
      `git verify-pack finds the pack's index does not match its objects (${verified.reason}): git would read other content for an object the user has; ${known ? `the index was removed: rebuild it with git index-pack ${path.join(directory, 'objects', 'pack', `${base}.pack`)}` : 'the pack was removed'}`,
      null,
    );
  }
  if (caches) {
    // Silently: the user's git works without them and writes them again; kept, an agent's graph could lie about a commit's tree or parents.
    for (const relative of ['objects/info/commit-graph', 'objects/info/commit-graphs', 'objects/pack/multi-pack-index']) rmSync(path.join(directory, relative), { recursive: true, force: true });
    for (const relative of after.entries.keys())
      if (/^objects\/pack\/pack-[0-9a-f]{40,64}\.(rev|bitmap)$/u.test(relative) && !same(earlier.entries.get(relative), after.entries.get(relative)!))
        rmSync(path.join(directory, relative), { force: true });
  }

  for (const relative of putBack) {
    if (LOOSE_OBJECT.test(relative)) rmSync(path.join(directory, relative), { force: true });
    else if (!putBackGitPath(directory, relative, earlier)) violations.push({ path: path.join(directory, relative), reason: 'its earlier content was not kept: review it by hand' });
  }
  return violations;
}
