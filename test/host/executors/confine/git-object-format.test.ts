// The object format a repository's indexes are read in (third review, finding
// 8): from the common directory's config, as git's setup.c decides it; what
// cannot be read or decided refuses. Real repositories made by the real git,
// and configs written by hand for what git would refuse.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryObjectFormat } from '../../../../src/host/executors/confine/git-object-format.js';
import { tempDir } from '../../../fixtures/temp.js';

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function init(directory: string, ...args: string[]): string {
  execFileSync('git', ['init', '-q', ...args, directory], { env });
  return path.join(directory, '.git');
}

test('a repository git made is read in its own format, SHA-1 or SHA-256', (t) => {
  const root = tempDir(t, 'zb-format-');
  t.deepEqual(repositoryObjectFormat(init(path.join(root, 'one'))), { ok: true, hash: 'sha1' });
  t.deepEqual(repositoryObjectFormat(init(path.join(root, 'two'), '--object-format=sha256')), { ok: true, hash: 'sha256' });
});

test("a linked worktree's git directory is read in its main repository's format (commondir)", (t) => {
  const root = tempDir(t, 'zb-format-');
  const main = path.join(root, 'main');
  init(main, '--object-format=sha256');
  execFileSync('git', ['-C', main, '-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-q', '--allow-empty', '-m', 'i'], { env });
  execFileSync('git', ['-C', main, 'worktree', 'add', '-q', path.join(root, 'other')], { env });
  t.deepEqual(repositoryObjectFormat(path.join(main, '.git', 'worktrees', 'other')), { ok: true, hash: 'sha256' });
});

test('without a config git reads SHA-1, and so does zotbox', (t) => {
  const gitDirectory = tempDir(t, 'zb-format-');
  t.deepEqual(repositoryObjectFormat(gitDirectory), { ok: true, hash: 'sha1' });
});

for (const [what, config, reason] of [
  ['an object format in a version 0 repository (git refuses a v1-only extension)', '[extensions]\n\tobjectFormat = sha256\n', /version 0/u],
  ['an object format git does not know', '[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = SHA256\n', /does not know/u],
  ['a repository format version past 1', '[core]\n\trepositoryformatversion = 2\n', /"2"/u],
] as const) {
  test(`refused: ${what}`, (t) => {
    const gitDirectory = tempDir(t, 'zb-format-');
    writeFileSync(path.join(gitDirectory, 'config'), config);
    const format = repositoryObjectFormat(gitDirectory);
    t.false(format.ok);
    t.regex(format.ok ? '' : format.reason, reason);
  });
}

test('a config zotbox cannot read is refused, never taken for SHA-1: a directory, or past the size zotbox reads', (t) => {
  const first = tempDir(t, 'zb-format-');
  mkdirSync(path.join(first, 'config'));
  const unreadable = repositoryObjectFormat(first);
  t.false(unreadable.ok);
  t.regex(unreadable.ok ? '' : unreadable.reason, /cannot be read/u);

  const second = tempDir(t, 'zb-format-');
  writeFileSync(path.join(second, 'config'), `[core]\n\trepositoryformatversion = 0\n${'#'.repeat(2 * 1024 * 1024)}\n`);
  const oversized = repositoryObjectFormat(second);
  t.false(oversized.ok);
  t.regex(oversized.ok ? '' : oversized.reason, /larger than zotbox reads/u);
});
