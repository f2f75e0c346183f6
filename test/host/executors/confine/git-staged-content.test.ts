// The check of what git data would write into protected worktree paths, run on
// real repositories made by the real git: each case records the git directory,
// lets git (as an agent would) change it, records it again and checks.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ControlLocation } from '../../../../src/policy/protected-files.js';
import { recordGitDirectory, type GitDirectoryRecord } from '../../../../src/host/executors/confine/git-directory-state.js';
import { checkStagedContent } from '../../../../src/host/executors/confine/git-staged-content.js';
import type { ProtectedRecord } from '../../../../src/host/executors/confine/protected-locations.js';
import { tempDir } from '../../../fixtures/temp.js';

interface Repo {
  readonly workspace: string;
  readonly gitDir: string;
  git(...args: string[]): string;
}

function makeRepo(t: ExecutionContext): Repo {
  const workspace = tempDir(t, 'zb-staged-');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: workspace,
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: workspace,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'u',
        GIT_AUTHOR_EMAIL: 'u@x',
        GIT_COMMITTER_NAME: 'u',
        GIT_COMMITTER_EMAIL: 'u@x',
      },
    }).trim();
  git('init', '-q', '-b', 'main', '.');
  mkdirSync(path.join(workspace, 'tools', 'hooks'), { recursive: true });
  writeFileSync(path.join(workspace, 'tools', 'hooks', 'pre-commit'), '#!/bin/sh\necho lint\n');
  chmodSync(path.join(workspace, 'tools', 'hooks', 'pre-commit'), 0o755);
  writeFileSync(path.join(workspace, 'a.txt'), 'hi\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  return { workspace, gitDir: path.join(workspace, '.git'), git };
}

/** core.hooksPath = tools/hooks, as control-locations.ts reports it. */
function hooksLocation(repo: Repo): ControlLocation {
  return { path: path.join(repo.workspace, 'tools', 'hooks'), tree: true, reason: 'in core.hooksPath; the user runs the hooks there' };
}

const NOTHING_RECORDED: ProtectedRecord = { set: { locations: [], paths: [], reasons: new Map(), unresolved: [] }, entries: new Map() };

/** Records, lets `act` change the repository, records again and runs the check. */
function check(repo: Repo, act: () => void): { violations: ReturnType<typeof checkStagedContent>; before: GitDirectoryRecord } {
  const before = recordGitDirectory(repo.gitDir, false);
  act();
  const after = recordGitDirectory(repo.gitDir, false);
  const violations = checkStagedContent(repo.gitDir, before, after, { writeRoots: [repo.workspace], locations: [hooksLocation(repo)], worktreeBefore: NOTHING_RECORDED, bases: [repo.workspace] });
  return { violations, before };
}

/** An unreachable commit whose tree changes the hook (what `git commit-tree` or a reset-away commit leaves). */
function danglingEvilCommit(repo: Repo): string {
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.workspace, input: '#!/bin/sh\ntouch /tmp/pwned\n', encoding: 'utf8' }).trim();
  repo.git('update-index', '--cacheinfo', `100755,${blob},tools/hooks/pre-commit`);
  const tree = repo.git('write-tree');
  repo.git('read-tree', 'HEAD');
  return repo.git('commit-tree', tree, '-p', 'HEAD', '-m', 'tidy');
}

test('a rebase todo list that picks a commit changing the hook is refused, and the new rebase state removed', (t) => {
  const repo = makeRepo(t);
  const evil = danglingEvilCommit(repo);
  const head = repo.git('rev-parse', 'HEAD');
  const { violations } = check(repo, () => {
    const state = path.join(repo.gitDir, 'rebase-merge');
    mkdirSync(state);
    writeFileSync(path.join(state, 'git-rebase-todo'), `pick ${evil.slice(0, 10)} tidy\n`);
    writeFileSync(path.join(state, 'head-name'), 'refs/heads/main\n');
    writeFileSync(path.join(state, 'onto'), `${head}\n`);
    writeFileSync(path.join(state, 'orig-head'), `${head}\n`);
    writeFileSync(path.join(state, 'interactive'), '');
  });
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'rebase-merge/git-rebase-todo') && v.reason.includes(`commit ${evil} writes`)),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'rebase-merge')), 'the rebase the command started is gone');
});

test('a commit that makes a directory on the way to the hooks path a link is refused', (t) => {
  const repo = makeRepo(t);
  // The tree: tools -> elsewhere (a link), elsewhere/hooks/pre-commit the agent's own file.
  const evil = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.workspace, input: '#!/bin/sh\ntouch /tmp/pwned\n', encoding: 'utf8' }).trim();
  const link = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.workspace, input: 'elsewhere', encoding: 'utf8' }).trim();
  const { violations } = check(repo, () => {
    repo.git('rm', '-q', '--cached', '-r', 'tools');
    repo.git('update-index', '--add', '--cacheinfo', `120000,${link},tools`);
    repo.git('update-index', '--add', '--cacheinfo', `100755,${evil},elsewhere/hooks/pre-commit`);
    repo.git('commit', '-q', '-m', 'move');
  });
  t.true(
    violations.some((v) => v.reason.includes(`writes ${path.join(repo.workspace, 'tools')} (on the way to`)),
    JSON.stringify(violations),
  );
  t.is(repo.git('log', '--format=%s', '-1'), 'init', 'main is back on the commit with the hooks directory');
});

test('a ref naming an object the repository does not have fails closed', (t) => {
  const repo = makeRepo(t);
  const { violations } = check(repo, () => writeFileSync(path.join(repo.gitDir, 'refs/heads/ghost'), `${'1'.repeat(40)}\n`));
  t.true(
    violations.some((v) => v.reason.includes('cannot read')),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'refs/heads/ghost')));
});

test('nothing changed in the index or refs: nothing to check, and no violation', (t) => {
  const repo = makeRepo(t);
  const { violations } = check(repo, () => writeFileSync(path.join(repo.workspace, 'a.txt'), 'changed\n'));
  t.deepEqual(violations, []);
});

test("an index entry equal to the worktree's file before the command is the user's own, and stays", (t) => {
  const repo = makeRepo(t);
  const hook = path.join(repo.workspace, 'tools', 'hooks', 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\necho lint --strict\n');
  const worktreeBefore: ProtectedRecord = {
    set: { locations: [hooksLocation(repo)], paths: [path.join(repo.workspace, 'tools', 'hooks')], reasons: new Map(), unresolved: [] },
    entries: new Map([[path.join(repo.workspace, 'tools', 'hooks'), { kind: 'directory', mode: 0o755, children: new Map([['pre-commit', { kind: 'file', mode: 0o755, data: readFileSync(hook) }]]) }]]),
  };
  const before = recordGitDirectory(repo.gitDir, false);
  repo.git('add', 'tools/hooks/pre-commit');
  const after = recordGitDirectory(repo.gitDir, false);
  const violations = checkStagedContent(repo.gitDir, before, after, { writeRoots: [repo.workspace], locations: [hooksLocation(repo)], worktreeBefore, bases: [repo.workspace] });
  t.deepEqual(violations, []);
  t.is(repo.git('diff', '--cached', '--name-only'), 'tools/hooks/pre-commit');
});

test('a link staged at an ordinary path is not protected', (t) => {
  const repo = makeRepo(t);
  symlinkSync('a.txt', path.join(repo.workspace, 'b.txt'));
  const { violations } = check(repo, () => repo.git('add', 'b.txt'));
  t.deepEqual(violations, []);
});

test('a patch left for git am --continue that changes the hook is refused, and the new am state removed', (t) => {
  const repo = makeRepo(t);
  const patch = [
    'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001',
    'From: a <a@x>',
    'Subject: [PATCH] tidy',
    '',
    '---',
    'diff --git a/tools/hooks/pre-commit b/tools/hooks/pre-commit',
    '--- a/tools/hooks/pre-commit',
    '+++ b/tools/hooks/pre-commit',
    '@@ -1,2 +1,2 @@',
    ' #!/bin/sh',
    '-echo lint',
    '+touch /tmp/pwned',
    '',
  ].join('\n');
  const { violations } = check(repo, () => {
    const state = path.join(repo.gitDir, 'rebase-apply');
    mkdirSync(state);
    writeFileSync(path.join(state, '0001'), patch);
    writeFileSync(path.join(state, 'next'), '1\n');
    writeFileSync(path.join(state, 'last'), '1\n');
    writeFileSync(path.join(state, 'applying'), '');
  });
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'rebase-apply/0001') && v.reason.includes(path.join(repo.workspace, 'tools/hooks/pre-commit'))),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'rebase-apply')), 'the am the command left is gone');
});

test('a patch left for git am --continue that changes an ordinary file stays for the user', (t) => {
  const repo = makeRepo(t);
  const patch = ['diff --git a/a.txt b/a.txt', '--- a/a.txt', '+++ b/a.txt', '@@ -1 +1 @@', '-hi', '+hello', ''].join('\n');
  const { violations } = check(repo, () => {
    mkdirSync(path.join(repo.gitDir, 'rebase-apply'));
    writeFileSync(path.join(repo.gitDir, 'rebase-apply', '0001'), patch);
  });
  t.deepEqual(violations, []);
  t.true(existsSync(path.join(repo.gitDir, 'rebase-apply', '0001')));
});

test('a linked worktree at a UTF-8 path that is not ASCII: a protected file staged in its index is found where it is', (t) => {
  const repo = makeRepo(t);
  const worktree = path.join(path.dirname(repo.workspace), `${path.basename(repo.workspace)}-wt-josé`);
  repo.git('worktree', 'add', '-q', worktree, '-b', 'feature');
  t.teardown(() => execFileSync('rm', ['-rf', worktree]));
  const location: ControlLocation = { path: path.join(worktree, 'tools', 'hooks'), tree: true, reason: 'in core.hooksPath; the user runs the hooks there' };
  const before = recordGitDirectory(repo.gitDir, false);
  writeFileSync(path.join(worktree, 'tools', 'hooks', 'pre-commit'), '#!/bin/sh\ntouch PWNED\n');
  execFileSync('git', ['add', 'tools/hooks/pre-commit'], { cwd: worktree, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: repo.workspace, GIT_CONFIG_NOSYSTEM: '1' } });
  const after = recordGitDirectory(repo.gitDir, false);
  const violations = checkStagedContent(repo.gitDir, before, after, { writeRoots: [repo.workspace, worktree], locations: [location], worktreeBefore: NOTHING_RECORDED, bases: [repo.workspace] });
  t.true(
    violations.some((v) => v.reason.includes('tools/hooks/pre-commit')),
    JSON.stringify(violations),
  );
});
