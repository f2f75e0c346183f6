// What an index trusts without rereading (stat data, cache-tree and the other
// extensions), on real indexes written by the real git: after a call wrote an
// index, zotbox smudges the stat data that is new or changed and drops every
// extension, and an index it cannot parse whole is reported, never passed.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseIndex } from '../../../../src/host/executors/confine/git-index-parse.js';
import { rewriteChangedIndex } from '../../../../src/host/executors/confine/git-index-rewrite.js';
import { repositoryObjectFormat } from '../../../../src/host/executors/confine/git-object-format.js';
import { tempDir } from '../../../fixtures/temp.js';

interface Repo {
  readonly workspace: string;
  readonly index: string;
  git(...args: string[]): string;
}

function makeRepo(t: ExecutionContext, ...init: string[]): Repo {
  const workspace = tempDir(t, 'zb-index-');
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: workspace,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'u',
    GIT_AUTHOR_EMAIL: 'u@x',
    GIT_COMMITTER_NAME: 'u',
    GIT_COMMITTER_EMAIL: 'u@x',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8', env }).trimEnd();
  git('init', '-q', '-b', 'main', ...init, '.');
  writeFileSync(path.join(workspace, 'Makefile'), 'all:\n\ttrue\n');
  writeFileSync(path.join(workspace, 'README'), 'a\n');
  execFileSync('mkdir', ['-p', path.join(workspace, 'src/deep')]);
  writeFileSync(path.join(workspace, 'src/deep/a.c'), 'int a;\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  // A commit writes the cache-tree; status with the untracked cache on writes UNTR.
  git('-c', 'core.untrackedCache=true', 'status', '--porcelain');
  return { workspace, index: path.join(workspace, '.git', 'index'), git };
}

/** The rewrite as the aftercare runs it: in the object format of the repository the index belongs to; its failure. */
function rewrite(index: string, before: Buffer | undefined): string | undefined {
  const format = repositoryObjectFormat(path.dirname(index));
  if (!format.ok) throw new Error(format.reason);
  return rewriteChangedIndex(index, before, format.hash).failure;
}

/** The signatures of the extensions an index holds, read by the parser under test's own rules (entries end → checksum). */
function extensions(bytes: Buffer, hash: 'sha1' | 'sha256' = 'sha1'): string[] {
  const parsed = parseIndex(bytes, hash);
  if (!parsed.ok) throw new Error(parsed.reason);
  const end = bytes.length - (parsed.index.hash === 'sha1' ? 20 : 32);
  const found: string[] = [];
  for (let at = parsed.index.entriesEnd; at < end; at += 8 + bytes.readUInt32BE(at + 4)) found.push(bytes.toString('latin1', at, at + 4));
  return found;
}

/** The stat data (40 bytes) of each entry, by path, as git's own `ls-files --debug` prints it. */
function statOf(repo: Repo): Map<string, string> {
  const lines = repo.git('ls-files', '--debug').split('\n');
  const stats = new Map<string, string>();
  for (let index = 0; index < lines.length; index += 6) stats.set(lines[index]!, lines.slice(index + 1, index + 6).join(' '));
  return stats;
}

for (const [name, init] of [
  ['version 2', []],
  ['version 4 (prefix-compressed names)', []],
  ['SHA-256 object ids', ['--object-format=sha256']],
] as const) {
  test(`${name}: every extension is dropped and changed stat data zeroed; git status then compares the content`, (t) => {
    const repo = makeRepo(t, ...init);
    if (name.startsWith('version 4')) repo.git('update-index', '--index-version', '4');
    const before = readFileSync(repo.index);
    const hash = init.length === 0 ? 'sha1' : 'sha256';
    t.deepEqual(extensions(before, hash).sort(), ['TREE', 'UNTR']);
    t.is(before.readUInt32BE(4), name.startsWith('version 4') ? 4 : 2);
    const kept = statOf(repo);

    // A command changes the Makefile and stages it: that entry's stat data is new, the others' are as before.
    writeFileSync(path.join(repo.workspace, 'Makefile'), 'all:\n\tevil\n');
    repo.git('add', 'Makefile');
    const forged = readFileSync(repo.index);

    t.is(rewrite(repo.index, before), undefined);
    const after = readFileSync(repo.index);
    t.deepEqual(extensions(after, hash), [], 'an extension survived');
    t.notDeepEqual(after, forged);
    const stats = statOf(repo);
    // README and src/deep/a.c kept their stat data (unchanged from before); Makefile's is zero.
    t.is(stats.get('README'), kept.get('README'));
    t.is(stats.get('src/deep/a.c'), kept.get('src/deep/a.c'));
    t.regex(stats.get('Makefile')!, /ctime: 0:0 .*mtime: 0:0 .*dev: 0\s+ino: 0 .*size: 0/su);
    t.is(repo.git('status', '--porcelain'), 'M  Makefile');
    t.is(repo.git('diff', '--cached', '--name-only'), 'Makefile');
    t.false(existsSync(`${repo.index}.lock`));
  });
}

test('without the bytes from before, every entry is smudged; an unchanged index is left as it is', (t) => {
  const repo = makeRepo(t);
  t.is(rewrite(repo.index, undefined), undefined);
  for (const stat of statOf(repo).values()) t.regex(stat, /ctime: 0:0 .*size: 0/su);
  t.is(repo.git('status', '--porcelain'), '');
  const smudged = readFileSync(repo.index);
  t.is(rewrite(repo.index, smudged), undefined);
  t.deepEqual(readFileSync(repo.index), smudged, 'an index with nothing to smudge or drop was rewritten');
});

test('a forged cache-tree is dropped: the next commit hashes the entries', (t) => {
  const repo = makeRepo(t);
  const before = readFileSync(repo.index);
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.workspace, input: 'evil\n', encoding: 'utf8' }).trim();
  const tree = execFileSync('git', ['mktree'], { cwd: repo.workspace, input: `100644 blob ${blob}\ta.c\n`, encoding: 'utf8' }).trim();
  // Point the cache-tree's src/deep at the forged tree (after the "deep\0COUNT SUBTREES\n" line, the 20-byte id).
  const bytes = Buffer.from(before);
  const line = bytes.indexOf('deep\u00001 0\n', 0, 'latin1');
  t.true(line > 0);
  Buffer.from(tree, 'hex').copy(bytes, line + 'deep\u00001 0\n'.length);
  const body = bytes.subarray(0, bytes.length - 20);
  const { createHash } = process.getBuiltinModule('node:crypto');
  writeFileSync(repo.index, Buffer.concat([body, createHash('sha1').update(body).digest()]));

  t.is(rewrite(repo.index, before), undefined);
  writeFileSync(path.join(repo.workspace, 'README'), 'b\n');
  repo.git('commit', '-qam', 'user');
  t.is(repo.git('show', 'HEAD:src/deep/a.c'), 'int a;');
});

test('an index zotbox cannot parse whole is reported and left as it is: split index, unknown extension, wrong checksum, held lock', (t) => {
  const split = makeRepo(t);
  split.git('update-index', '--split-index');
  t.regex(rewrite(split.index, undefined) ?? '', /split index/u);

  const repo = makeRepo(t);
  const good = readFileSync(repo.index);
  const body = good.subarray(0, good.length - 20);
  const { createHash } = process.getBuiltinModule('node:crypto');
  const withExtension = Buffer.concat([body, Buffer.from('ZZZZ\u0000\u0000\u0000\u0000', 'latin1')]);
  writeFileSync(repo.index, Buffer.concat([withExtension, createHash('sha1').update(withExtension).digest()]));
  t.regex(rewrite(repo.index, undefined) ?? '', /"ZZZZ" extension/u);

  const wrong = Buffer.from(good);
  wrong.writeUInt8(wrong.readUInt8(wrong.length - 1) ^ 1, wrong.length - 1);
  writeFileSync(repo.index, wrong);
  t.regex(rewrite(repo.index, undefined) ?? '', /checksum/u);
  t.deepEqual(readFileSync(repo.index), wrong);

  writeFileSync(repo.index, good);
  writeFileSync(`${repo.index}.lock`, '');
  t.regex(rewrite(repo.index, undefined) ?? '', /lock/u);
  t.deepEqual(readFileSync(repo.index), good);
});
