// Sequencer, am and bisect state that the user's own git acts on later (issue 21 §2; review of
// issue 21, findings todo-unchecked-commit and am-hidden-patch). git-data-rules.ts holds each
// file to a grammar; this reads them as the user's git will, with the host's plumbing
// (git-plumbing.ts), and gives back what git would reach, for git-staged-content.ts to check:
// - a todo list's `reset <label>` and the parents of `merge [-C <id>] <label>...` are resolved
//   by git only when the line runs, from refs/rewritten/<label>, else as any revision. A word a
//   `label` line earlier in the same list makes is the rebase's own commit; any other must be an
//   existing refs/rewritten/ label, an object id or an existing full ref name, resolved here as git
//   resolves it. Anything else (a branch's short name, HEAD, reflog or search syntax) is refused:
//   its meaning when the user continues is not decided now.
// - BISECT_START names what `git bisect reset` checks out: an object id, or a branch that exists.
// - a stopped `git am` (or apply-backend rebase) applies, when the user continues or skips, each
//   mail as `git mailinfo` decodes it (MIME parts, base64, quoted-printable, format=flowed), with
//   the options the state files give; with the `rebasing` marker, the diff of the commit each
//   mail's first line names instead; and `patch` as it stands. The paths all of them change are
//   returned. Whatever cannot be read or decoded is refused, never taken for "nothing there".
// - HEAD's reflog names what the user's `git checkout -` goes back to (`@{-1}`, the last
//   "checkout: moving from X" line; X may be any object id): after a call that changed it, that
//   commit is resolved and, when no ref reached it before, its new history's paths are returned.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readGitFile, type GitDirectoryRecord, type GitPathState } from './git-directory-state.js';
import { parseRawDiff, runPlumbing } from './git-plumbing.js';

const HEX = /^[0-9a-f]{4,64}$/u;
const FULL_OID = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/u;
/** Largest mail or patch of an am in progress that is read (git's own format-patch output stays far below). */
const MAX_MAIL_BYTES = 32 * 1024 * 1024;

/** A word of a todo list that git resolves only when its line runs. */
export interface TodoLabel {
  readonly word: string;
  readonly line: string;
}

/**
 * The words in `reset` and `merge` parent positions that no `label` line before them in `text` makes (pure). Those a
 * label line makes are the rebase's own commits (git reads refs/rewritten/<label> first, which that line wrote).
 */
export function todoLabels(text: string): TodoLabel[] {
  const made = new Set<string>();
  const words: TodoLabel[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const [command = '', ...rest] = line.split(/[ \t]+/u);
    const comment = rest.findIndex((word) => word.startsWith('#'));
    const args = comment === -1 ? rest : rest.slice(0, comment);
    let used: string[] = [];
    if (command === 'label' || command === 'l') {
      if (args[0] !== undefined) made.add(args[0]);
      continue;
    }
    if (command === 'reset' || command === 't') used = line === `${command} [new root]` ? [] : args.slice(0, 1);
    else if (command === 'merge' || command === 'm') used = args.slice(args[0] === '-C' || args[0] === '-c' ? 2 : 0);
    for (const word of used) {
      const label = word.startsWith('refs/rewritten/') ? word.slice('refs/rewritten/'.length) : word;
      if (!made.has(word) && !made.has(label)) words.push({ word, line });
    }
  }
  return words;
}

/** The todo lists of a git directory's pending operations: git runs their `exec` lines on --continue. */
export const PENDING_TODO_FILES: readonly string[] = ['rebase-merge/git-rebase-todo', 'sequencer/todo'];

/** A command an `exec` (`x`) line of a todo list runs through the shell when the user continues. */
export interface TodoExec {
  readonly command: string;
  /** 1-based. */
  readonly line: number;
}

/** The `exec`/`x` lines of a todo list (pure): git runs the rest of each line through a shell at the top of the worktree. */
export function todoExecCommands(text: string): TodoExec[] {
  const found: TodoExec[] = [];
  text.split('\n').forEach((raw, index) => {
    const match = /^[ \t]*(?:exec|x)(?:[ \t]+(.*?))?[ \t\r]*$/u.exec(raw);
    if (match !== null && (match[1] ?? '') !== '') found.push({ command: match[1]!, line: index + 1 });
  });
  return found;
}

/** Every ref of the git directory by its exact name, with the object it names (symbolic refs followed); undefined when unreadable. */
function exactRefs(gitDir: string): Map<string, string> | undefined {
  const listed = runPlumbing(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)']);
  if (!listed.ok) return undefined;
  const refs = new Map<string, string>();
  for (const line of listed.output.toString('latin1').split('\n')) {
    const match = /^([0-9a-f]{40}|[0-9a-f]{64}) (refs\/\S+)$/u.exec(line);
    if (match !== null) refs.set(match[2]!, match[1]!);
    else if (line !== '') return undefined;
  }
  return refs;
}

/** What the plumbing's `cat-file --batch-check` resolves each revision to (undefined where it does not: missing, ambiguous). */
function resolveRevisions(gitDir: string, revisions: readonly string[]): (string | undefined)[] | undefined {
  if (revisions.length === 0) return [];
  const checked = runPlumbing(gitDir, ['cat-file', '--batch-check=%(objectname)'], `${revisions.join('\n')}\n`);
  if (!checked.ok) return undefined;
  const lines = checked.output.toString('latin1').split('\n').slice(0, revisions.length);
  if (lines.length !== revisions.length) return undefined;
  return lines.map((line) => (FULL_OID.test(line) ? line : undefined));
}

export interface SequencerReach {
  /** The objects the user's git reaches from the file later, to be checked as commits a ref names. */
  readonly oids: string[];
  /** Why some of what the file names cannot be resolved safely; the file is then refused. */
  readonly refused: string[];
}

/**
 * The objects a todo list (`todo` rule) or BISECT_START (`bisect-start`) at `relative` leaves for the user's git to
 * resolve later, resolved with the plumbing of `gitDir` (the git directory whose refs that worktree reads).
 */
export function sequencerReach(gitDir: string, relative: string, text: string): SequencerReach {
  const refused: string[] = [];
  const isBisect = path.posix.basename(relative) === 'BISECT_START';
  const words = isBisect ? [] : todoLabels(text);
  const start = isBisect ? text.trim() : '';
  if (words.length === 0 && (start === '' || FULL_OID.test(start))) return { oids: FULL_OID.test(start) ? [start] : [], refused };
  const refs = exactRefs(gitDir);
  if (refs === undefined) return { oids: [], refused: ['zotbox could not list the refs, so it cannot resolve what it names'] };
  if (isBisect) {
    const branch = refs.get(`refs/heads/${start}`);
    return branch === undefined
      ? { oids: [], refused: [`it names ${JSON.stringify(start.slice(0, 80))}, which is no branch; git bisect reset would check out whatever that resolves to later`] }
      : { oids: [branch], refused };
  }
  const oids: string[] = [];
  const fallback: TodoLabel[] = [];
  for (const label of words) {
    // git reads refs/rewritten/<word> first (a label an earlier run made), then resolves the word as a revision.
    const rewritten = refs.get(`refs/rewritten/${label.word}`);
    if (rewritten !== undefined) oids.push(rewritten);
    else if (label.word.startsWith('refs/') && refs.has(label.word)) oids.push(refs.get(label.word)!);
    else if (HEX.test(label.word)) fallback.push(label);
    else
      refused.push(
        `${JSON.stringify(label.line.slice(0, 80))} names ${JSON.stringify(label.word.slice(0, 60))}, which is no label made earlier in the list, object id or existing full ref name; git would resolve it only when the line runs`,
      );
  }
  const resolved = resolveRevisions(
    gitDir,
    fallback.map((label) => label.word),
  );
  if (resolved === undefined) refused.push('zotbox could not resolve the object ids it names');
  else
    resolved.forEach((oid, index) => {
      if (oid !== undefined) oids.push(oid);
      else refused.push(`${JSON.stringify(fallback[index]!.line.slice(0, 80))} names ${fallback[index]!.word}, which zotbox cannot resolve to one object`);
    });
  return { oids, refused };
}

const amStateOf = (relative: string) => /^((?:worktrees\/[^/]+\/)?rebase-apply)(?:\/|$)/u.exec(relative)?.[1];

function sameState(a: GitPathState | undefined, b: GitPathState | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.kind === b.kind && (a.content !== undefined && b.content !== undefined ? a.content.equals(b.content) : a.ino === b.ino && a.stamp === b.stamp);
}

/** The paths inside the am state `state` that were added, changed or removed. */
export function amStateChanges(before: GitDirectoryRecord | undefined, after: GitDirectoryRecord, state: string): string[] {
  const inside = (relative: string) => relative.startsWith(`${state}/`);
  const paths = new Set([...after.entries.keys(), ...(before?.entries.keys() ?? [])].filter(inside));
  return [...paths].filter((relative) => !sameState(before?.entries.get(relative), after.entries.get(relative))).sort();
}

/** The am state directories (`rebase-apply`, `worktrees/NAME/rebase-apply`) that are new, or in which anything was added, changed or removed. */
export function changedAmStates(before: GitDirectoryRecord | undefined, after: GitDirectoryRecord): string[] {
  const states = new Set([...after.entries.keys()].map(amStateOf).filter((state) => state !== undefined && after.entries.get(state)?.kind === 'directory'));
  return [...states].filter((state) => before?.entries.get(state!)?.kind !== 'directory' || amStateChanges(before, after, state!).length > 0) as string[];
}

/** What an am in progress applies from one file of its state: the paths it changes. */
export interface AmFileReach {
  readonly relative: string;
  readonly paths: string[];
}

export type AmReach = { readonly ok: true; readonly files: AmFileReach[] } | { readonly ok: false; readonly relative: string; readonly reason: string };

/** `git mailinfo`'s options as git am derives them from the state files (am_load, parse_mail); undefined when a file is not one git writes. */
function mailinfoOptions(state: string, after: GitDirectoryRecord): string[] | undefined {
  const text = (name: string) => {
    const entry = after.entries.get(`${state}/${name}`);
    return entry === undefined ? '' : entry.content?.toString('latin1').trim();
  };
  const [utf8, keep, messageId, scissors, quotedCr] = ['utf8', 'keep', 'messageid', 'scissors', 'quoted-cr'].map(text);
  if ([utf8, keep, messageId, scissors, quotedCr].some((value) => value === undefined)) return undefined;
  if (quotedCr !== '' && !['nowarn', 'warn', 'strip'].includes(quotedCr!)) return undefined;
  return [
    utf8 === 't' ? '-u' : '-n',
    ...(keep === 't' ? ['-k'] : keep === 'b' ? ['-b'] : []),
    ...(messageId === 't' ? ['-m'] : []),
    ...(scissors === 't' ? ['--scissors'] : scissors === 'f' ? ['--no-scissors'] : []),
    ...(quotedCr === '' ? [] : [`--quoted-cr=${quotedCr!}`]),
  ];
}

/** The paths `git apply --numstat -z` names ("added TAB deleted TAB path", or for a rename an empty path then old and new); undefined when unreadable. */
export function patchedPaths(output: Buffer): string[] | undefined {
  const tokens = output.toString('latin1').split('\0');
  if (tokens.at(-1) === '') tokens.pop();
  const paths: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/su.exec(tokens[index]!);
    if (match === null) return undefined;
    const names = match[3] === '' ? [tokens[++index], tokens[++index]] : [match[3]];
    if (names.some((name) => name === undefined)) return undefined;
    paths.push(...names.map((name) => Buffer.from(name!, 'latin1').toString('utf8')));
  }
  return paths;
}

/**
 * Reads the am state `state` (relative to the git directory `directory`) as git am will when the user continues,
 * skips or resumes it: the paths each mail and `patch` change. Commits a `rebasing` state's mails name that `known`
 * (the objects refs named before the command) already reaches are the user's and add no paths.
 */
export function amReach(directory: string, state: string, after: GitDirectoryRecord, known: ReadonlySet<string>): AmReach {
  const names = [...after.entries.keys()].filter((relative) => path.posix.dirname(relative) === state && /^(\d{4,}|patch)$/u.test(path.posix.basename(relative))).sort();
  const rebasing = after.entries.has(`${state}/rebasing`);
  const options = mailinfoOptions(state, after);
  if (options === undefined) return { ok: false, relative: state, reason: 'zotbox cannot read the options git am would decode its mails with' };
  const scratch = mkdtempSync(path.join(tmpdir(), 'zotbox-am-'));
  try {
    const files: AmFileReach[] = [];
    const commits = new Map<string, string>();
    const patches: { relative: string; file: string }[] = [];
    for (const relative of names) {
      const entry = after.entries.get(relative)!;
      const read = entry.kind === 'file' ? readGitFile(path.join(directory, relative), entry.ino, MAX_MAIL_BYTES) : { unreadable: 'not a regular file' };
      if (!('content' in read)) return { ok: false, relative, reason: `zotbox cannot read it (${'oversized' in read ? 'too large' : read.unreadable}), so it cannot check what git am would apply` };
      const name = path.posix.basename(relative);
      if (name === 'patch') {
        // Applied as it stands when the user resumes (git am with no option).
        if (read.content.length > 0) patches.push({ relative, file: path.join(directory, relative) });
      } else if (rebasing) {
        // git am --rebasing applies the diff of the commit the mail's first line names, not the mail.
        const oid = /^From ([0-9a-f]{40}|[0-9a-f]{64})(?: |\n)/u.exec(read.content.toString('latin1'))?.[1];
        if (oid === undefined) return { ok: false, relative, reason: 'its first line names no commit, which git am --rebasing would apply' };
        commits.set(oid, relative);
      } else {
        const own = path.join(scratch, name);
        const decoded = runPlumbing(directory, ['mailinfo', ...options, `${own}.msg`, `${own}.patch`], read.content);
        if (!decoded.ok) return { ok: false, relative, reason: `git mailinfo cannot decode it (${decoded.reason}), so zotbox cannot check what git am would apply` };
        if (!existsSync(`${own}.patch`)) return { ok: false, relative, reason: 'git mailinfo wrote no patch for it, so zotbox cannot check what git am would apply' };
        if (statSync(`${own}.patch`).size > 0) patches.push({ relative, file: `${own}.patch` });
      }
    }
    for (const patch of patches) {
      const listed = runPlumbing(directory, ['apply', '--numstat', '-z', patch.file]);
      const paths = listed.ok ? patchedPaths(listed.output) : undefined;
      if (paths === undefined) return { ok: false, relative: patch.relative, reason: 'zotbox could not read the patch git am would apply from it' };
      files.push({ relative: patch.relative, paths });
    }
    if (commits.size > 0) {
      // git am looks the id up as a commit, peeling a tag; one it cannot find stops am, and fails here too.
      const peeled = resolveRevisions(
        directory,
        [...commits.keys()].map((oid) => `${oid}^{commit}`),
      );
      const named = new Map<string, string>();
      [...commits.values()].forEach((relative, index) => {
        const commit = peeled?.[index];
        if (commit !== undefined) named.set(commit, relative);
      });
      if (peeled === undefined || peeled.some((commit) => commit === undefined))
        return { ok: false, relative: [...commits.values()][0]!, reason: 'zotbox cannot find the commits its mails name, which git am --rebasing would apply' };
      const fresh = runPlumbing(directory, ['rev-list', '--ignore-missing', '--stdin'], `${[...named.keys(), ...[...known].map((oid) => `^${oid}`)].join('\n')}\n`);
      const wanted = fresh.ok
        ? fresh.output
            .toString('latin1')
            .split('\n')
            .filter((oid) => named.has(oid))
        : undefined;
      const diff =
        wanted === undefined
          ? undefined
          : wanted.length === 0
            ? Buffer.alloc(0)
            : runPlumbing(directory, ['diff-tree', '--stdin', '-r', '-m', '--root', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'], `${wanted.join('\n')}\n`);
      const changes = diff === undefined ? undefined : Buffer.isBuffer(diff) ? parseRawDiff(diff) : diff.ok ? parseRawDiff(diff.output) : undefined;
      if (changes === undefined) return { ok: false, relative: [...commits.values()][0]!, reason: 'zotbox could not read the commits git am --rebasing would apply' };
      for (const [oid, relative] of named) files.push({ relative, paths: changes.filter((change) => change.commit === oid).map((change) => change.path) });
    }
    return { ok: true, files };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The paths that the commit the user's `git checkout -` (`@{-1}`) goes back to changes, when HEAD's reflog at
 * `log` names one that `known` (the objects refs named before the command) does not reach: git reads the previous
 * branch from the last "checkout: moving from X to Y" line, and X may be any object id. Nothing there, or an X git
 * cannot resolve (its checkout - fails): no paths.
 */
export function previousCheckoutReach(
  directory: string,
  log: string,
  known: ReadonlySet<string>,
): { readonly ok: true; readonly commit?: string; readonly paths: string[] } | { readonly ok: false; readonly reason: string } {
  const holder = log === 'logs/HEAD' ? directory : path.join(directory, path.posix.dirname(path.posix.dirname(log)));
  const previous = runPlumbing(holder, ['rev-parse', '--verify', '-q', '@{-1}^{commit}']);
  const commit = previous.ok ? previous.output.toString('latin1').trim() : undefined;
  if (commit === undefined) return { ok: true, paths: [] };
  if (!FULL_OID.test(commit)) return { ok: false, reason: 'zotbox could not read the commit git checkout - would go back to' };
  const fresh = runPlumbing(directory, ['rev-list', '--ignore-missing', '--stdin'], `${[commit, ...[...known].map((oid) => `^${oid}`)].join('\n')}\n`);
  if (!fresh.ok) return { ok: false, reason: 'zotbox could not read the commit git checkout - would go back to' };
  const commits = fresh.output
    .toString('latin1')
    .split('\n')
    .filter((oid) => oid !== '');
  if (commits.length === 0) return { ok: true, commit, paths: [] };
  // Every commit not reached before: git checkout - writes the commit's whole tree, which its history built.
  const diff = runPlumbing(directory, ['diff-tree', '--stdin', '-r', '-m', '--root', '-z', '--no-renames', '--no-ext-diff', '--no-textconv'], `${commits.join('\n')}\n`);
  const changes = diff.ok ? parseRawDiff(diff.output) : undefined;
  if (changes === undefined) return { ok: false, reason: 'zotbox could not read the commit git checkout - would go back to' };
  return { ok: true, commit, paths: changes.map((change) => change.path) };
}
