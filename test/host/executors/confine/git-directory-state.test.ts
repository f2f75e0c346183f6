// A git directory's record and the undoing of what breaks the closed world
// (issue 21 §2): contents compared by bytes, never by inode; a path that vanishes
// while being checked, or is too large to read, is a violation, never "nothing there".
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_GIT_FILE_BYTES, recordGitDirectory, undoGitDirectoryChanges } from '../../../../src/host/executors/confine/git-directory-state.js';
import { tempDir } from '../../../fixtures/temp.js';

function repository(t: Parameters<typeof tempDir>[0]): string {
  const root = realpathSync(tempDir(t, 'zb-gitdir-state-'));
  execFileSync('git', ['init', '-q', '-b', 'main', root], { env: { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  return path.join(root, '.git');
}

test('a fresh repository is usable and passes against itself and against nothing', (t) => {
  const git = repository(t);
  const record = recordGitDirectory(git, false);
  t.true(record.usable);
  t.deepEqual(undoGitDirectoryChanges(git, record, recordGitDirectory(git, false)), []);
  t.deepEqual(undoGitDirectoryChanges(git, undefined, record), [], 'what git init writes is all data');
});

test('a hook rewritten in place keeps its inode and is still found, and put back', (t) => {
  const git = repository(t);
  const hook = path.join(git, 'hooks', 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\necho mine\n', { mode: 0o755 });
  const before = recordGitDirectory(git, false);
  writeFileSync(hook, '#!/bin/sh\necho evil\n'); // same inode, same size
  const violations = undoGitDirectoryChanges(git, before, recordGitDirectory(git, false));
  t.deepEqual(
    violations.map((v) => v.path),
    [hook],
  );
  t.is(readFileSync(hook, 'utf8'), '#!/bin/sh\necho mine\n');
});

test('a file that vanishes between the listing and its check is a violation', (t) => {
  const git = repository(t);
  const before = recordGitDirectory(git, false);
  writeFileSync(path.join(git, 'refs', 'heads', 'gone'), 'ref: refs/heads/main\n');
  const after = recordGitDirectory(git, false, {
    afterList: (directory) => {
      if (directory === path.join(git, 'refs', 'heads')) rmSync(path.join(directory, 'gone'));
    },
  });
  const violations = undoGitDirectoryChanges(git, before, after);
  t.deepEqual(
    violations.map((v) => v.path),
    [path.join(git, 'refs', 'heads', 'gone')],
  );
  t.regex(violations[0]!.reason, /cannot be read/);
});

test('a control file past the size zotbox reads is a violation when new, and a todo past it fails its grammar', (t) => {
  const git = repository(t);
  const before = recordGitDirectory(git, false);
  writeFileSync(path.join(git, 'hooks', 'post-checkout'), `#!/bin/sh\n${'#'.repeat(MAX_GIT_FILE_BYTES)}\n`);
  execFileSync('mkdir', [path.join(git, 'rebase-merge')]);
  writeFileSync(path.join(git, 'rebase-merge', 'git-rebase-todo'), `${'# padding\n'.repeat(MAX_GIT_FILE_BYTES / 10 + 1)}exec id\n`);
  const violations = undoGitDirectoryChanges(git, before, recordGitDirectory(git, false));
  t.deepEqual(violations.map((v) => path.relative(git, v.path)).sort(), ['hooks/post-checkout', 'rebase-merge/git-rebase-todo']);
  t.false(existsSync(path.join(git, 'rebase-merge', 'git-rebase-todo')));
});

test('a FIFO and a symlink are violations even where a data file of that name would be fine', (t) => {
  const git = repository(t);
  const before = recordGitDirectory(git, false);
  execFileSync('mkfifo', [path.join(git, 'ORIG_HEAD')]);
  execFileSync('ln', ['-s', '../../worktree-todo', path.join(git, 'MERGE_MSG')]);
  const violations = undoGitDirectoryChanges(git, before, recordGitDirectory(git, false));
  t.deepEqual(violations.map((v) => path.basename(v.path)).sort(), ['MERGE_MSG', 'ORIG_HEAD']);
  t.false(existsSync(path.join(git, 'ORIG_HEAD')));
});

test('.git/logs holds a HEAD but no objects: it is not a repository of its own', (t) => {
  const git = repository(t);
  execFileSync('mkdir', ['-p', path.join(git, 'logs', 'refs')]);
  writeFileSync(path.join(git, 'logs', 'HEAD'), `${'0'.repeat(40)} ${'1'.repeat(40)} u <u@x> 1 +0000\tcommit (initial): one\n`);
  t.false(recordGitDirectory(path.join(git, 'logs'), false).usable);
});

test('a directory git opens only by a HEAD the listing did not show still counts as one git opens', (t) => {
  // What a case-folding directory does (its `head` opens as HEAD) or a HEAD made between the listing and the test:
  // the file system is asked for HEAD by the name git opens, and a found one counts, its content unknown.
  const directory = tempDir(t, 'zb-head-unlisted-');
  writeFileSync(path.join(directory, 'head'), 'ref: refs/heads/main\n');
  t.false(recordGitDirectory(directory, false).usable, 'a lower-case head on a case-sensitive file system: git does not open it');
  const record = recordGitDirectory(directory, false, { afterList: (listed) => listed === directory && writeFileSync(path.join(directory, 'HEAD'), 'ref: refs/heads/main\n') });
  t.false(record.entries.has('HEAD'));
  t.true(record.usable);
});

test("a directory named .git is held to git data even while git does not open it (no HEAD): the user's git init adopts it", (t) => {
  const directory = path.join(tempDir(t, 'zb-git-unopened-'), '.git');
  execFileSync('mkdir', ['-p', path.join(directory, 'hooks')]);
  const before = recordGitDirectory(directory, false);
  t.false(before.usable);
  writeFileSync(path.join(directory, 'hooks', 'pre-commit'), '#!/bin/sh\ntouch /tmp/pwned\n');
  const undone = undoGitDirectoryChanges(directory, before, recordGitDirectory(directory, false));
  t.deepEqual(
    undone.map((v) => v.path),
    [path.join(directory, 'hooks', 'pre-commit')],
  );
  t.false(existsSync(path.join(directory, 'hooks', 'pre-commit')));
  // And the same directory made by the command (nothing before): info/ is git's, an unknown file in it is not.
  writeFileSync(path.join(directory, 'config'), '[core]\n\tbare = false\n');
  mkdirSync(path.join(directory, 'info'));
  writeFileSync(path.join(directory, 'info', 'x'), 'y\n');
  t.deepEqual(
    undoGitDirectoryChanges(directory, undefined, recordGitDirectory(directory, false)).map((v) => v.path),
    [path.join(directory, 'info', 'x')],
  );
});

test('a bare repository under any other name whose HEAD is an object id in upper case is one git opens', (t) => {
  // git reads an object id's hex digits in either case (get_oid_hex): such a directory is held to git's data.
  const directory = path.join(tempDir(t, 'zb-upper-head-'), 'vendor');
  mkdirSync(path.join(directory, 'objects'), { recursive: true });
  mkdirSync(path.join(directory, 'refs'));
  writeFileSync(path.join(directory, 'HEAD'), `${'ABCDEF0123'.repeat(4)}\n`);
  t.true(recordGitDirectory(directory, false).usable);
  writeFileSync(path.join(directory, 'HEAD'), `${'ABCDEF0123'.repeat(4)} trailing\n`);
  t.true(recordGitDirectory(directory, false).usable, 'git takes the first 40 digits with objects/ and refs/');
});

test('a defuse removes a HEAD git finds by its name that the listing did not show, and nothing else', (t) => {
  const directory = path.join(tempDir(t, 'zb-defuse-'), 'proj');
  mkdirSync(directory);
  writeFileSync(path.join(directory, 'notes.txt'), 'mine\n');
  // A HEAD made between the listing and the test (as a case-folding directory's `head` is found by git's name).
  const after = recordGitDirectory(directory, false, { afterList: (listed) => listed === directory && writeFileSync(path.join(directory, 'HEAD'), 'ref: refs/heads/main\n') });
  t.true(after.usable);
  t.false(after.entries.has('HEAD'));
  t.true(undoGitDirectoryChanges(directory, undefined, after).length > 0);
  t.false(existsSync(path.join(directory, 'HEAD')));
  t.is(readFileSync(path.join(directory, 'notes.txt'), 'utf8'), 'mine\n');
});
