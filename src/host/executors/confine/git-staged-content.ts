// Git data that the user's own git later writes into the worktree (issue 21 §2,
// adversarial review "git-index-staging"): the index, and every commit a ref,
// HEAD, a pseudo-ref (ORIG_HEAD, MERGE_HEAD, FETCH_HEAD, ...), a reflog (main@{1})
// or the sequencer state names. After a command that changed any of them, none may carry, at a
// protected path (a control location or a tool file no write scope names), an
// entry the user did not have there before the command: a new commit (one no
// ref reached before) may change such a path only to what the worktree or HEAD
// held there; an index entry there must be HEAD's (before, or after when HEAD
// is acceptable) or the worktree's. Replace refs, loose or packed, are refused
// first (git-substitution.ts). What breaks this is undone (refs and sequencer
// files put back from the record, index entries set back to HEAD's) and the run
// stops. Reading is done by the host's git plumbing (git-plumbing.ts); whatever
// it cannot read fails.
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { findControlLocation, ungrantedToolFile, type ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { gitDataRule } from './git-data-rules.js';
import { isHeadLog, isIndexFile, isReflog, putBackGitPath, type GitDirectoryRecord, type GitDirectoryViolation, type GitPathState } from './git-directory-state.js';
import { pointerText, type GitInventory } from './git-inventory.js';
import { spelled, worktreeLocation } from './git-pointer-text.js';
import { indexFlagViolations } from './git-index-flags.js';
import { parseEntryList, parseRawDiff, runPlumbing, type TreeEntry } from './git-plumbing.js';
import { amReach, amStateChanges, changedAmStates, previousCheckoutReach, sequencerReach } from './git-sequencer-state.js';
import { substitutionViolations } from './git-substitution.js';
import type { ProtectedRecord } from './protected-locations.js';

export interface StagedContentContext {
  readonly writeRoots: readonly string[];
  /** Control locations before and after the command. */
  readonly locations: readonly ControlLocation[];
  /** The protected files as they were before the command (their bytes). */
  readonly worktreeBefore: ProtectedRecord;
  /** The worktrees whose files the git directory's index and commits describe. */
  readonly bases: readonly string[];
}

type Recorded = ProtectedRecord['entries'] extends ReadonlyMap<string, infer R> ? R : never;

/** Files whose content names commits git later writes into the worktree (and every reflog, isReflog). */
const REF_RULES = new Set(['ref', 'oid', 'oids', 'fetch-head', 'packed-refs', 'todo', 'rewritten-list', 'update-refs', 'bisect-start']);
const FULL_OID = /\b[0-9a-f]{64}\b|\b[0-9a-f]{40}\b/gu;
const ZERO = /^0+$/u;
/** Todo commands whose object id git applies; `merge -C <id>` too. */
const TODO_PICKS = /^(pick|p|reword|r|edit|e|squash|s|fixup|f|merge|m)$/u;

function isRefFile(relative: string): boolean {
  if (isReflog(relative)) return true;
  const rule = gitDataRule(relative);
  return rule !== undefined && REF_RULES.has(rule);
}

function textOf(state: GitPathState | undefined): string | undefined {
  return state?.kind === 'file' && state.content !== undefined ? state.content.toString('latin1') : undefined;
}

/**
 * Object ids a ref-like file names: full ids; in a reflog the old and new id of each line, as git reads them for
 * `name@{n}` (a message's words name nothing: HEAD's "checkout: moving from X" is read by previousCheckoutReach);
 * in a todo list the (maybe short) ids of the commits it applies.
 */
function namedObjects(relative: string, text: string): string[] {
  if (isReflog(relative))
    return text
      .split('\n')
      .flatMap((line) => line.split(' ').slice(0, 2))
      .filter((word) => /^[0-9a-f]{40}$|^[0-9a-f]{64}$/u.test(word) && !ZERO.test(word));
  if (gitDataRule(relative) !== 'todo') return [...text.matchAll(FULL_OID)].map((m) => m[0]).filter((oid) => !ZERO.test(oid));
  const ids: string[] = [];
  for (const line of text.split('\n')) {
    const words = line.trim().split(/[ \t]+/u);
    if (!TODO_PICKS.test(words[0] ?? '')) continue;
    const at = words[1] === '-C' || words[1] === '-c' ? 2 : 1;
    if (/^[0-9a-f]{4,64}$/u.test(words[at] ?? '')) ids.push(words[at]!);
  }
  return ids;
}

/** The commit HEAD names in a record (following one symbolic ref through loose refs or packed-refs). */
function headOf(record: GitDirectoryRecord | undefined, head: string, common: GitDirectoryRecord | undefined): string | undefined {
  const text = textOf(record?.entries.get(head))?.trim();
  if (text === undefined) return undefined;
  if (/^[0-9a-f]{40,64}$/u.test(text)) return text;
  const name = /^ref: (refs\/\S+)$/u.exec(text)?.[1];
  if (name === undefined || common === undefined) return undefined;
  const loose = textOf(common.entries.get(name))?.trim();
  if (loose !== undefined) return /^[0-9a-f]{40,64}$/u.test(loose) ? loose : undefined;
  const packed = textOf(common.entries.get('packed-refs')) ?? '';
  return new RegExp(`^([0-9a-f]{40,64}) ${name.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}$`, 'mu').exec(packed)?.[1];
}

/** Objects are most of a git directory's entries and never name a commit for the user to check out: skipped before any rule is asked. */
const isObject = (relative: string) => relative.startsWith('objects/');

function changedFiles(before: GitDirectoryRecord | undefined, after: GitDirectoryRecord, pick: (relative: string) => boolean): string[] {
  const changed: string[] = [];
  for (const [relative, state] of after.entries) {
    if (isObject(relative) || !pick(relative)) continue;
    const earlier = before?.entries.get(relative);
    const same =
      earlier !== undefined &&
      earlier.kind === state.kind &&
      (earlier.content !== undefined && state.content !== undefined ? earlier.content.equals(state.content) : earlier.ino === state.ino && earlier.stamp === state.stamp);
    if (!same) changed.push(relative);
  }
  return changed;
}

/** git's blob id of `data`, in the repository's hash (told by the length of its ids). */
function blobId(data: Buffer, oidLength: number): string {
  return createHash(oidLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${data.length}\0`)
    .update(data)
    .digest('hex');
}

/** The entry the worktree had at `absolute` before the command, as git would stage it; undefined when none was recorded. */
function worktreeEntry(record: ProtectedRecord, absolute: string, oidLength: number): TreeEntry | undefined {
  for (const [recorded, root] of record.entries) {
    if (!isInsideRoot(absolute, recorded)) continue;
    let at: Recorded | undefined = root;
    for (const part of path
      .relative(recorded, absolute)
      .split(path.sep)
      .filter((p) => p !== ''))
      at = at?.kind === 'directory' ? at.children.get(part) : undefined;
    if (at?.kind === 'file') return { mode: (at.mode & 0o100) === 0 ? '100644' : '100755', oid: blobId(at.data, oidLength) };
    if (at?.kind === 'link') return { mode: '120000', oid: blobId(Buffer.from(at.target), oidLength) };
    return undefined;
  }
  return undefined;
}

/** Whether a path git writes at `relative` in one of the worktrees is protected: a control location, an ungranted tool file, or a directory on the way to a control location (a link there redirects it). */
function protectedReason(relative: string, context: StagedContentContext, bases: readonly string[]): { absolute: string; reason: string } | undefined {
  for (const base of bases) {
    const absolute = path.join(base, relative);
    if (!context.writeRoots.some((root) => isInsideRoot(absolute, root))) continue;
    const location = findControlLocation(absolute, context.locations);
    // A write scope at or inside the location names it explicitly: the agent's.
    const granted = (l: ControlLocation) => context.writeRoots.some((root) => isInsideRoot(absolute, root) && isInsideRoot(root, l.path));
    if (location !== undefined && !granted(location)) return { absolute, reason: location.reason };
    const tool = ungrantedToolFile(absolute, context.writeRoots);
    if (tool !== undefined) return { absolute, reason: `a file other tools run on their own: ${tool.rule.runBy}` };
    const under = context.locations.find((l) => isInsideRoot(l.path, absolute) && l.path !== absolute);
    if (under !== undefined) return { absolute, reason: `on the way to ${under.path} (${under.reason})` };
  }
  return undefined;
}

const sameEntry = (a: TreeEntry | undefined, b: TreeEntry | undefined) => a !== undefined && b !== undefined && a.mode === b.mode && a.oid === b.oid;

/**
 * Checks what a command changed in the index and refs of the git directory `directory` (relative paths of
 * `after`), undoes what breaks the rule and returns what was undone. Nothing changed: no git runs.
 */
export function checkStagedContent(directory: string, before: GitDirectoryRecord | undefined, after: GitDirectoryRecord, context: StagedContentContext): GitDirectoryViolation[] {
  const refFiles = changedFiles(before, after, isRefFile);
  const indexFiles = changedFiles(before, after, isIndexFile);
  const amStates = changedAmStates(before, after);
  const headLogs = changedFiles(before, after, isHeadLog);
  if (refFiles.length === 0 && indexFiles.length === 0 && amStates.length === 0 && headLogs.length === 0) return [];
  const violations: GitDirectoryViolation[] = [];
  const fail = (where: string, reason: string) => violations.push({ path: path.join(directory, where), reason });
  const git = (args: readonly string[], input = '', gitDir = directory) => {
    const result = runPlumbing(gitDir, args, input);
    return result.ok ? result.output : undefined;
  };
  // Each worktree's files: the git directory's own, and each linked worktree's (worktrees/NAME/gitdir names its .git file).
  const worktreeBases = new Map<string, readonly string[]>([['', context.bases]]);
  for (const [relative, state] of after.entries) {
    const name = /^worktrees\/([^/]+)\/gitdir$/u.exec(relative)?.[1];
    const text = textOf(state);
    // Read by bytes, then spelled: a worktree at a UTF-8 path that is not ASCII (`/home/josé/wt`) is found where it is.
    const written = text === undefined ? undefined : worktreeLocation(text);
    const worktree = written === undefined ? undefined : spelled(Buffer.from(written, 'latin1'));
    if (name !== undefined && worktree !== undefined && path.isAbsolute(worktree)) worktreeBases.set(`worktrees/${name}`, [worktree]);
  }
  const everyBase = [...new Set([...worktreeBases.values()].flat())];
  for (const relative of refFiles) if (after.entries.get(relative)?.oversized === true) fail(relative, 'it is too large for zotbox to read, so it cannot check the commits it names');

  // Before: every object any ref-like file named (reachable from them is the user's, or was checked then).
  const known = new Set<string>();
  for (const [relative, state] of before?.entries ?? []) if (!isObject(relative) && isRefFile(relative)) for (const oid of namedObjects(relative, textOf(state) ?? '')) known.add(oid);
  const headBefore = headOf(before, 'HEAD', before);
  const oidLength = headBefore?.length ?? [...known][0]?.length ?? 40;

  // What the user had at a protected path: the worktree's file, or HEAD's entry, before the command.
  const headBeforeEntries = new Map<string, TreeEntry>();
  const loadHeadBefore = (paths: readonly string[]) => {
    const wanted = paths.filter((p) => !headBeforeEntries.has(p));
    if (headBefore === undefined || wanted.length === 0) return true;
    const listed = git(['ls-tree', '-z', '--full-tree', headBefore, '--', ...wanted]);
    const entries = listed === undefined ? undefined : parseEntryList(listed);
    if (entries === undefined) return false;
    for (const { path: p, entry } of entries) headBeforeEntries.set(p, entry);
    return true;
  };
  const allowed = (relative: string, entry: TreeEntry, absolute: string) =>
    ZERO.test(entry.oid) || sameEntry(entry, headBeforeEntries.get(relative)) || sameEntry(entry, worktreeEntry(context.worktreeBefore, absolute, oidLength));

  // Revisions a todo list or BISECT_START leaves for the user's git to resolve later: resolved now, or refused (git-sequencer-state.ts).
  const reached = new Map<string, string[]>();
  for (const relative of refFiles.filter((r) => gitDataRule(r) === 'todo' || gitDataRule(r) === 'bisect-start')) {
    const holder = /^worktrees\/[^/]+/u.exec(relative)?.[0];
    const reach = sequencerReach(holder === undefined ? directory : path.join(directory, holder), relative, textOf(after.entries.get(relative)) ?? '');
    reached.set(relative, reach.oids);
    for (const why of reach.refused) fail(relative, why);
  }
  const namedNow = (relative: string) => [...namedObjects(relative, textOf(after.entries.get(relative)) ?? ''), ...(reached.get(relative) ?? [])];

  // After: the objects the changed ref-like files name now, by kind.
  const named = [...new Set(refFiles.flatMap(namedNow))].filter((oid) => !known.has(oid));
  const badCommits = new Set<string>();
  if (named.length > 0) {
    const kinds = git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], named.map((oid) => `${oid}^{}\n`).join(''));
    const lines = kinds?.toString('latin1').trimEnd().split('\n') ?? [];
    const commits: string[] = [];
    const trees: string[] = [];
    /** What each named id resolved to (short ids in todo lists, tags peeled). */
    const resolved = new Map<string, string>();
    if (kinds === undefined || lines.length !== named.length) fail(refFiles[0]!, 'zotbox could not read the objects it names, so it cannot check them');
    else
      lines.forEach((line, index) => {
        const [oid = '', kind = ''] = line.split(' ');
        resolved.set(named[index] ?? '', oid);
        if (kind === 'commit') commits.push(oid);
        else if (kind === 'tree') trees.push(oid);
        else if (kind !== 'blob') fail(refFiles[0]!, `it names ${named[index] ?? line}, which zotbox cannot read (${kind || 'unreadable'})`);
      });
    if (commits.length > 0 || trees.length > 0) {
      const list = commits.length === 0 ? Buffer.alloc(0) : git(['rev-list', '--ignore-missing', '--stdin'], `${[...commits, ...[...known].map((oid) => `^${oid}`)].join('\n')}\n`);
      const fresh =
        list
          ?.toString('latin1')
          .split('\n')
          .filter((line) => line !== '') ?? [];
      const diff = fresh.length === 0 ? Buffer.alloc(0) : git(['diff-tree', '--stdin', '-r', '-c', '--root', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'], `${fresh.join('\n')}\n`);
      // A tree a ref names (AUTO_MERGE): what differs from HEAD before, or all of it.
      const treeDiffs = trees.map((tree) => {
        const output = headBefore === undefined ? git(['ls-tree', '-r', '-z', '--full-tree', tree]) : git(['diff-tree', '-r', '-z', '--no-renames', headBefore, tree]);
        if (output === undefined) return undefined;
        return headBefore === undefined ? parseEntryList(output)?.map((e) => ({ commit: tree, ...e })) : parseRawDiff(output, tree);
      });
      const all = [list === undefined || diff === undefined ? undefined : parseRawDiff(diff), ...treeDiffs];
      const changes = all.some((c) => c === undefined) ? undefined : all.flatMap((c) => c!);
      if (changes === undefined) fail(refFiles[0]!, 'zotbox could not read the commits it names, so it cannot check them');
      else {
        const touched = changes.flatMap((change) => {
          const where = protectedReason(change.path, context, everyBase);
          return where === undefined ? [] : [{ ...change, ...where }];
        });
        if (!loadHeadBefore([...new Set(touched.map((t) => t.path))])) fail(refFiles[0]!, 'zotbox could not read HEAD before the command, so it cannot check the commits');
        for (const t of touched) {
          if (allowed(t.path, t.entry, t.absolute)) continue;
          badCommits.add(t.commit);
          // Named by the changed files that name it directly, else by all of them (it lies in their history).
          const direct = refFiles.filter((relative) => namedNow(relative).some((oid) => resolved.get(oid) === t.commit));
          fail(
            direct.length === 1 ? direct[0]! : '.',
            `${direct.length === 1 ? '' : `reached from ${(direct.length > 0 ? direct : refFiles).join(', ')}: `}commit ${t.commit} writes ${t.absolute} (${t.reason}) with content the user did not have there; the user's checkout, reset, merge or rebase would write it`,
          );
        }
      }
    }
  }
  const refsBad = violations.length > 0;

  // The index of the git directory and of each worktree: its entries at protected paths.
  for (const indexFile of indexFiles) {
    const holder = path.join(directory, path.dirname(indexFile));
    const headName = path.posix.join(path.posix.dirname(indexFile), 'HEAD');
    // A worktree whose gitdir file zotbox cannot read: every worktree's paths count.
    const bases = worktreeBases.get(path.posix.dirname(indexFile) === '.' ? '' : path.posix.dirname(indexFile)) ?? everyBase;
    const headAfter = headOf(after, headName, after);
    // Against HEAD as the command left it when that is acceptable, else against HEAD before.
    const base = headAfter !== undefined && !refsBad && !badCommits.has(headAfter) ? headAfter : headOf(before, headName, before);
    const diff = base === undefined ? git(['ls-files', '-s', '-z'], '', holder) : git(['diff-index', '--cached', '-z', '--no-renames', base], '', holder);
    const unmerged = git(['ls-files', '-u', '-s', '-z'], '', holder);
    const entries =
      diff === undefined || unmerged === undefined
        ? undefined
        : [
            ...((base === undefined ? parseEntryList(diff) : parseRawDiff(diff, 'index')) ?? [{ path: '\0', entry: { mode: '', oid: '' } }]),
            ...(parseEntryList(unmerged) ?? [{ path: '\0', entry: { mode: '', oid: '' } }]),
          ];
    if (entries === undefined || entries.some((e) => e.path === '\0')) {
      fail(indexFile, 'zotbox could not read the index, so it cannot check what it would write; review it with git status');
      continue;
    }
    const touched = entries.flatMap((e) => {
      const where = protectedReason(e.path, context, bases);
      return where === undefined || e.entry.mode === '' ? [] : [{ ...e, ...where }];
    });
    if (!loadHeadBefore([...new Set(touched.map((t) => t.path))])) {
      fail(indexFile, 'zotbox could not read HEAD before the command, so it cannot check the index');
      continue;
    }
    const bad = [...new Set(touched.filter((t) => !allowed(t.path, t.entry, t.absolute)).map((t) => t.path))];
    if (bad.length === 0) continue;
    // Undo: each such path's entries removed, then HEAD's before put back (git writes the index, as it would).
    const removed = git(['update-index', '-z', '--index-info'], bad.map((p) => `0 ${'0'.repeat(oidLength)}\t${p}\0`).join(''), holder);
    const restored = bad.filter((p) => headBeforeEntries.has(p)).map((p) => `${headBeforeEntries.get(p)!.mode} ${headBeforeEntries.get(p)!.oid} 0\t${p}\0`);
    const putBack = removed !== undefined && (restored.length === 0 || git(['update-index', '-z', '--index-info'], restored.join(''), holder) !== undefined);
    for (const p of bad) {
      const absolute = protectedReason(p, context, bases)!;
      fail(
        indexFile,
        `the index stages ${absolute.absolute} (${absolute.reason}) with content the user did not have there; the user's git checkout -- . or reset would write it; ${putBack ? "its entry was set back to HEAD's" : 'zotbox could not set it back: review it with git status'}`,
      );
    }
  }

  // What an am or apply-backend rebase in progress applies when the user continues, read as git am will (git-sequencer-state.ts).
  for (const state of amStates) {
    const reach = amReach(directory, state, after, known);
    const bad = (reach.ok ? reach.files : []).flatMap((file) =>
      file.paths.flatMap((p) => {
        const where = protectedReason(p, context, everyBase);
        return where === undefined ? [] : [{ file: file.relative, absolute: where.absolute }];
      }),
    );
    if (reach.ok && bad.length === 0) continue;
    const existed = before?.entries.get(state)?.kind === 'directory';
    const undone = existed ? 'what the command changed there was put back' : 'it was removed';
    if (!reach.ok) fail(reach.relative, `${reach.reason}; ${undone}`);
    for (const file of new Set(bad.map((b) => b.file)))
      fail(
        file,
        `a patch git applies when the user continues changes ${bad
          .filter((b) => b.file === file)
          .map((b) => b.absolute)
          .join(', ')}; ${undone}`,
      );
    if (existed) for (const relative of amStateChanges(before, after, state)) putBackGitPath(directory, relative, before);
    else putBackGitPath(directory, state, { ...after, entries: new Map() });
  }

  // The commit the user's `git checkout -` goes back to, from HEAD's reflog (git-sequencer-state.ts); undone by a
  // line that makes the previous branch the current one (a reflog's earlier bytes were not kept).
  for (const log of headLogs) {
    const reach = previousCheckoutReach(directory, log, known);
    const bad = reach.ok ? reach.paths.flatMap((p) => [protectedReason(p, context, everyBase)?.absolute].filter((a) => a !== undefined)) : [];
    if (reach.ok && bad.length === 0) continue;
    const neutral = neutralizeHeadLog(directory, log, after);
    fail(log, `${reach.ok ? `commit ${reach.commit ?? ''} writes ${bad.join(', ')}; the user's git checkout - would go back to it` : reach.reason}; ${neutral}`);
  }

  // Refs and sequencer files that changed are put back as they were (or removed when new), when a commit broke the rule.
  if (refsBad) {
    const earlier = before ?? { ino: undefined, usable: false, pointedTo: false, entries: new Map<string, GitPathState>(), unlisted: [] };
    for (const relative of refFiles) if (!putBackGitPath(directory, relative, earlier)) fail(relative, 'its earlier content was not kept: review it by hand');
    for (const state of ['rebase-merge', 'rebase-apply', 'sequencer']) if (after.entries.has(state) && !earlier.entries.has(state)) putBackGitPath(directory, state, earlier);
    fail('.', `zotbox put back the refs and sequencer files the command changed (${refFiles.join(', ')})`);
  }
  return violations;
}

/** Appends to HEAD's reflog at `log` a line that moves from the current branch to itself, so `git checkout -` stays put. */
function neutralizeHeadLog(directory: string, log: string, after: GitDirectoryRecord): string {
  const holder = log === 'logs/HEAD' ? '' : path.posix.dirname(path.posix.dirname(log));
  const head = textOf(after.entries.get(path.posix.join(holder, 'HEAD')))?.trim() ?? '';
  const branch = /^ref: refs\/heads\/(\S+)$/u.exec(head)?.[1];
  const oid = headOf(after, path.posix.join(holder, 'HEAD'), after);
  if (branch === undefined || oid === undefined) return 'zotbox could not set it back: run git checkout with a branch name before git checkout -';
  try {
    appendFileSync(path.join(directory, log), `${oid} ${oid} zotbox <zotbox@localhost> ${Math.floor(Date.now() / 1000)} +0000\tcheckout: moving from ${branch} to ${branch}\n`);
    return `zotbox added a line so that git checkout - stays on ${branch}`;
  } catch (error) {
    return `zotbox could not set it back (${(error as NodeJS.ErrnoException).code ?? String(error)}): run git checkout with a branch name before git checkout -`;
  }
}

/** Where each git directory's worktrees lie: its parent (a .git directory's worktree), and every .git link or gitfile that names it. */
function basesOf(directory: string, inventory: GitInventory): string[] {
  const bases = new Set([path.dirname(directory)]);
  for (const [entry, state] of inventory.gitEntries) {
    const written = pointerText(entry, state);
    if (written === undefined || written === '') continue;
    const target = resolveCanonicalPath(path.resolve(path.dirname(entry), written));
    if (target.ok && target.path === directory) bases.add(path.dirname(entry));
  }
  return [...bases];
}

/** The check for every git directory in the scopes after a command (git-state-check.ts). */
export function stagedContentViolations(
  before: GitInventory,
  after: GitInventory,
  worktreeBefore: ProtectedRecord,
  locations: readonly ControlLocation[],
  writeRoots: readonly string[],
): GitDirectoryViolation[] {
  const violations: GitDirectoryViolation[] = [];
  for (const [directory, record] of after.records) {
    const earlier = before.records.get(directory);
    // A directory git does not open, now or before, holds no index or refs the user's git reads.
    if (!record.usable && earlier?.usable !== true) continue;
    const previous = earlier !== undefined && earlier.ino === record.ino ? earlier : undefined;
    // First what substitutes objects or history (git-substitution.ts), so that the plumbing below reads real objects.
    violations.push(...substitutionViolations(directory, previous, record));
    violations.push(...checkStagedContent(directory, previous, record, { writeRoots, locations, worktreeBefore, bases: basesOf(directory, after) }));
    violations.push(...indexFlagViolations(directory, previous, record));
  }
  return violations;
}
