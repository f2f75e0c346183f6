// The machine's git plumbing, run by the host to read a repository's index and
// objects after a command (git-staged-content.ts). Only plumbing that runs no
// program (cat-file, rev-list, diff-tree, diff-index, ls-files, ls-tree,
// update-index): no system or global config, no hooks (post-index-change), no
// fsmonitor, no transports (a partial clone never fetches), no replace refs, no
// pager, no prompt, literal pathspecs, an empty environment otherwise. The
// repository's own config is read, as the user's git reads it: it is a control
// location the agent cannot change (git-config-rules.ts). A failure is returned,
// never taken for "nothing there".
import { findProgram } from '../../../policy/program-lookup.js';
import { COMMAND_SEARCH_PATH } from '../command-environment.js';

/** Config given on the command line, which outranks every config file. */
const HARDENING: readonly string[] = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.untrackedCache=false',
  'core.useReplaceRefs=false',
  'core.pager=cat',
  'protocol.allow=never',
  'safe.directory=*',
];

/** Largest output read from one plumbing call (a clone's whole history still fits). */
const MAX_OUTPUT = 512 * 1024 * 1024;

export type PlumbingResult = { readonly ok: true; readonly output: Buffer } | { readonly ok: false; readonly reason: string };

/** Runs `git <args>` on the git directory `gitDir` with `input` on stdin. */
export function runPlumbing(gitDir: string, args: readonly string[], input: string | Buffer = ''): PlumbingResult {
  const git = findProgram('git', COMMAND_SEARCH_PATH);
  if (git === undefined) return { ok: false, reason: 'git is not installed on the host, so zotbox cannot read the repository' };
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const config = HARDENING.flatMap((entry) => ['-c', entry]);
  const run = spawnSync(git.foundAt, ['--no-pager', `--git-dir=${gitDir}`, ...config, ...args], {
    cwd: gitDir,
    input,
    maxBuffer: MAX_OUTPUT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      PATH: COMMAND_SEARCH_PATH.join(':'),
      HOME: '/nonexistent',
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_LITERAL_PATHSPECS: '1',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_TERMINAL_PROMPT: '0',
      GIT_NO_LAZY_FETCH: '1',
      GIT_ALLOW_PROTOCOL: '',
    },
  });
  if (run.error !== undefined) return { ok: false, reason: `git ${args[0] ?? ''} could not run (${run.error.message})` };
  if (run.status !== 0) return { ok: false, reason: `git ${args[0] ?? ''} failed (${run.stderr.toString('utf8').trim().split('\n')[0] ?? `exit ${String(run.status)}`})` };
  return { ok: true, output: run.stdout };
}

/** One entry of a tree or of the index: git's mode (octal text) and object id. */
export interface TreeEntry {
  readonly mode: string;
  readonly oid: string;
}

/** A changed path of a commit as `diff-tree -r -c --root -z` prints it: what the commit holds there now. */
export interface ChangedPath {
  readonly commit: string;
  readonly path: string;
  readonly entry: TreeEntry;
}

const OID = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/u;

/**
 * Parses `diff-tree --stdin -r -c --root -z` (or `diff-index -z`, commit ''): a commit id, then for each path a
 * record ":modes oids status" (one colon per parent, the last mode and id the result) and the path. Undefined when
 * the output is not of this form (fail closed).
 */
export function parseRawDiff(output: Buffer, firstCommit = ''): ChangedPath[] | undefined {
  const tokens = output.toString('latin1').split('\0');
  if (tokens.at(-1) === '') tokens.pop();
  const changed: ChangedPath[] = [];
  let commit = firstCommit;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (OID.test(token)) {
      commit = token;
      continue;
    }
    const colons = /^:+/u.exec(token)?.[0].length ?? 0;
    const path = tokens[++index];
    if (colons === 0 || path === undefined) return undefined;
    const words = token.slice(colons).split(' ');
    const mode = words[colons];
    const oid = words[2 * colons + 1];
    if (mode === undefined || oid === undefined || !/^[0-7]{6}$/u.test(mode) || !OID.test(oid)) return undefined;
    changed.push({ commit, path: Buffer.from(path, 'latin1').toString('utf8'), entry: { mode, oid } });
  }
  return changed;
}

/** Parses `ls-files -s -z` / `ls-tree -z` lines ("mode oid stage\tpath" / "mode type oid\tpath"). */
export function parseEntryList(output: Buffer): { path: string; entry: TreeEntry }[] | undefined {
  const lines = output.toString('latin1').split('\0');
  if (lines.at(-1) === '') lines.pop();
  const entries: { path: string; entry: TreeEntry }[] = [];
  for (const line of lines) {
    const match = /^([0-7]{6}) (?:(?:blob|tree|commit) )?([0-9a-f]{40}|[0-9a-f]{64})(?: [0-3])?\t(.*)$/su.exec(line);
    if (match === null) return undefined;
    entries.push({ path: Buffer.from(match[3]!, 'latin1').toString('utf8'), entry: { mode: match[1]!, oid: match[2]! } });
  }
  return entries;
}
