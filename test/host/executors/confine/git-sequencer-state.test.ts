// Sequencer, am and bisect state read as the user's git will read it later
// (review of issue 21, findings todo-unchecked-commit and am-hidden-patch), on
// real repositories made by the real git: each case records the git directory,
// lets git or a script (as an agent would) leave state, records again and runs
// the check of what git data would bring into protected paths.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordGitDirectory, undoGitDirectoryChanges } from '../../../../src/host/executors/confine/git-directory-state.js';
import { sequencerReach, todoLabels } from '../../../../src/host/executors/confine/git-sequencer-state.js';
import { checkStagedContent } from '../../../../src/host/executors/confine/git-staged-content.js';
import type { ProtectedRecord } from '../../../../src/host/executors/confine/protected-locations.js';
import type { ControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

interface Repo {
  readonly workspace: string;
  readonly gitDir: string;
  git(...args: string[]): string;
  /** git that may fail (a rebase or am that stops): its exit status. */
  tryGit(...args: string[]): number;
}

const ENV = { HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x', GIT_EDITOR: 'true' };

function makeRepo(t: ExecutionContext): Repo {
  const workspace = tempDir(t, 'zb-sequencer-');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...ENV };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8', env }).trim();
  const tryGit = (...args: string[]) => {
    try {
      execFileSync('git', args, { cwd: workspace, env, stdio: 'ignore' });
      return 0;
    } catch (error) {
      return (error as { status: number }).status;
    }
  };
  git('init', '-q', '-b', 'main', '.');
  mkdirSync(path.join(workspace, 'tools', 'hooks'), { recursive: true });
  writeFileSync(path.join(workspace, 'tools', 'hooks', 'pre-commit'), '#!/bin/sh\necho lint\n');
  chmodSync(path.join(workspace, 'tools', 'hooks', 'pre-commit'), 0o755);
  writeFileSync(path.join(workspace, 'a.txt'), 'hi\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  return { workspace, gitDir: path.join(workspace, '.git'), git, tryGit };
}

/** core.hooksPath = tools/hooks, as control-locations.ts reports it. */
function hooksLocation(repo: Repo): ControlLocation {
  return { path: path.join(repo.workspace, 'tools', 'hooks'), tree: true, reason: 'in core.hooksPath; the user runs the hooks there' };
}

const NOTHING_RECORDED: ProtectedRecord = { set: { locations: [], paths: [], reasons: new Map(), unresolved: [] }, entries: new Map() };

function check(repo: Repo, act: () => void) {
  const before = recordGitDirectory(repo.gitDir, false);
  act();
  const after = recordGitDirectory(repo.gitDir, false);
  return checkStagedContent(repo.gitDir, before, after, { writeRoots: [repo.workspace], locations: [hooksLocation(repo)], worktreeBefore: NOTHING_RECORDED, bases: [repo.workspace] });
}

const HOOK = '#!/bin/sh\ntouch /tmp/pwned\n';

/** A commit no ref reaches whose tree changes the hook (what `git commit-tree` leaves). */
function danglingEvilCommit(repo: Repo): string {
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo.workspace, input: HOOK, encoding: 'utf8' }).trim();
  repo.git('update-index', '--cacheinfo', `100755,${blob},tools/hooks/pre-commit`);
  const tree = repo.git('write-tree');
  repo.git('read-tree', 'HEAD');
  return repo.git('commit-tree', tree, '-p', 'HEAD', '-m', 'tidy');
}

/** An interactive rebase stopped at `break`, its remaining todo list `todo`, as git itself leaves it. */
function stoppedRebase(repo: Repo, todo: string): void {
  const script = path.join(repo.workspace, '..', `todo-${Math.random().toString(36).slice(2)}`);
  writeFileSync(script, `break\n${todo}`);
  try {
    repo.tryGit('-c', `sequence.editor=cp ${script}`, 'rebase', '-i', 'HEAD');
  } finally {
    rmSync(script, { force: true }); // Beside the workspace, in the temp directory: git has copied it.
  }
  if (!existsSync(path.join(repo.gitDir, 'rebase-merge', 'git-rebase-todo'))) throw new Error('the rebase did not stop with a todo list');
}

const todoPath = (repo: Repo) => path.join(repo.gitDir, 'rebase-merge', 'git-rebase-todo');

test('todoLabels: the words of reset and merge lines that no earlier label line makes', (t) => {
  t.deepEqual(
    todoLabels('label onto\nreset onto\npick abc1234 x\nlabel topic\nreset [new root]\nmerge -C 1234abcd topic other # Merge\nreset refs/rewritten/topic\nt main@{1}\nm feature\n').map((l) => l.word),
    ['other', 'main@{1}', 'feature'],
  );
  t.deepEqual(
    todoLabels('reset x\nlabel x\nreset x\n').map((l) => l.word),
    ['x'],
    'a label made after the line that uses it does not count',
  );
});

for (const how of ['reset', 'merge', 'short id'] as const) {
  test(`a todo ${how} line naming a dangling commit that changes the hook is refused, and the rebase removed`, (t) => {
    const repo = makeRepo(t);
    const evil = danglingEvilCommit(repo);
    const head = repo.git('rev-parse', 'HEAD');
    const line = { reset: `reset ${evil}`, merge: `merge -C ${head} ${evil} # Merge`, 'short id': `reset ${evil.slice(0, 9)}` }[how];
    const violations = check(repo, () => stoppedRebase(repo, `${line}\n`));
    t.true(
      violations.some((v) => v.path === todoPath(repo) && v.reason.includes(`commit ${evil} writes ${path.join(repo.workspace, 'tools/hooks/pre-commit')}`)),
      JSON.stringify(violations),
    );
    t.false(existsSync(path.join(repo.gitDir, 'rebase-merge')), 'the rebase the command started is gone');
  });
}

for (const word of ['main@{1}', 'main', 'HEAD', 'ORIG_HEAD', 'onto', 'refs/heads/nosuch']) {
  test(`a todo reset to ${word} (not a label made earlier, an object id or an existing full ref name) is refused`, (t) => {
    const repo = makeRepo(t);
    const evil = danglingEvilCommit(repo);
    const head = repo.git('rev-parse', 'HEAD');
    // The reflog makes main@{1} name the dangling commit (logs/ is opaque to the closed world).
    const violations = check(repo, () => {
      appendFileSync(path.join(repo.gitDir, 'logs/refs/heads/main'), `${head} ${evil} a <a@x> 1700000000 +0000\tcommit: tidy\n${evil} ${head} a <a@x> 1700000001 +0000\treset: moving to HEAD~\n`);
      stoppedRebase(repo, `reset ${word}\n`);
    });
    t.true(
      violations.some((v) => v.path === todoPath(repo) && v.reason.includes(`names "${word}", which is no label made earlier`)),
      JSON.stringify(violations),
    );
    t.false(existsSync(path.join(repo.gitDir, 'rebase-merge')));
  });
}

test('a label made earlier in the list, an existing full ref and an ordinary commit are accepted, and the rebase stays', (t) => {
  const repo = makeRepo(t);
  const head = repo.git('rev-parse', 'HEAD');
  repo.git('branch', 'topic');
  const violations = check(repo, () => stoppedRebase(repo, `label here\nreset here\nreset refs/heads/topic\nreset ${head.slice(0, 8)}\nmerge -C ${head} here # Merge\n`));
  t.deepEqual(violations, []);
  t.true(existsSync(todoPath(repo)));
});

test("a label an earlier run of the rebase made (refs/rewritten/) resolves to that ref's commit, which is checked", (t) => {
  const repo = makeRepo(t);
  const evil = danglingEvilCommit(repo);
  const violations = check(repo, () => {
    stoppedRebase(repo, 'reset onto\n');
    repo.git('update-ref', 'refs/rewritten/onto', evil);
  });
  t.true(
    violations.some((v) => v.reason.includes(`commit ${evil} writes`)),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'rebase-merge')));
});

test('git rebase --rebase-merges stopped on a conflict is ordinary work: its labels resolve, nothing is refused', (t) => {
  const repo = makeRepo(t);
  repo.git('checkout', '-q', '-b', 'topic');
  writeFileSync(path.join(repo.workspace, 'a.txt'), 'topic\n');
  repo.git('commit', '-q', '-am', 'topic');
  repo.git('checkout', '-q', 'main');
  writeFileSync(path.join(repo.workspace, 'c.txt'), 'c\n');
  repo.git('add', 'c.txt');
  repo.git('commit', '-q', '-m', 'c');
  repo.git('merge', '-q', '--no-ff', '-m', 'Merge branch topic', 'topic');
  writeFileSync(path.join(repo.workspace, 'c.txt'), 'main\n');
  repo.git('commit', '-q', '-am', 'main');
  repo.git('checkout', '-q', '-b', 'side', 'main~3');
  writeFileSync(path.join(repo.workspace, 'a.txt'), 'side\n');
  repo.git('commit', '-q', '-am', 'side');
  repo.git('checkout', '-q', 'main');
  const violations = check(repo, () => t.not(repo.tryGit('rebase', '-q', '--rebase-merges', 'side'), 0, 'the rebase stops on the conflict in a.txt'));
  t.regex(readFileSync(path.join(repo.gitDir, 'rebase-merge', 'done'), 'utf8'), /^label onto$/mu);
  t.regex(readFileSync(todoPath(repo), 'utf8'), /^reset onto$/mu, 'the rest of the list uses the label the done part made');
  t.deepEqual(violations, []);
});

test('BISECT_START naming a dangling commit that changes the hook is refused and removed', (t) => {
  const repo = makeRepo(t);
  const evil = danglingEvilCommit(repo);
  const violations = check(repo, () => {
    repo.git('bisect', 'start');
    writeFileSync(path.join(repo.gitDir, 'BISECT_START'), `${evil}\n`);
  });
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'BISECT_START') && v.reason.includes(`commit ${evil} writes`)),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'BISECT_START')));
});

test('BISECT_START naming no branch is refused; the branch git bisect start wrote is accepted', (t) => {
  const repo = makeRepo(t);
  t.deepEqual(
    check(repo, () => repo.git('bisect', 'start')),
    [],
  );
  t.is(readFileSync(path.join(repo.gitDir, 'BISECT_START'), 'utf8'), 'main\n');
  const violations = check(repo, () => writeFileSync(path.join(repo.gitDir, 'BISECT_START'), 'nosuch\n'));
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'BISECT_START') && v.reason.includes('which is no branch')),
    JSON.stringify(violations),
  );
  t.is(readFileSync(path.join(repo.gitDir, 'BISECT_START'), 'utf8'), 'main\n', 'put back as it was');
});

test('sequencerReach resolves a short id as git does, and refuses one that names no object', (t) => {
  const repo = makeRepo(t);
  const head = repo.git('rev-parse', 'HEAD');
  t.deepEqual(sequencerReach(repo.gitDir, 'rebase-merge/git-rebase-todo', `reset ${head.slice(0, 10)}\n`), { oids: [head], refused: [] });
  const ghost = sequencerReach(repo.gitDir, 'rebase-merge/git-rebase-todo', 'reset 1234567\n');
  t.deepEqual(ghost.oids, []);
  t.is(ghost.refused.length, 1);
});

// --- am: each mail as git mailinfo decodes it

const MAIL_HEAD = 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: a <a@x>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n';
const HOOK_DIFF =
  'diff --git a/tools/hooks/post-applypatch b/tools/hooks/post-applypatch\nnew file mode 100755\n--- /dev/null\n+++ b/tools/hooks/post-applypatch\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch /tmp/pwned\n';
const DOCS_DIFF = 'diff --git a/docs.txt b/docs.txt\nnew file mode 100644\n--- /dev/null\n+++ b/docs.txt\n@@ -0,0 +1 @@\n+tidy\n';
const FAILING = `${MAIL_HEAD}Subject: [PATCH 1/2] fails\n\n---\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-not there\n+x\n`;

/** A multipart mail: a base64 part holding the hook's diff, and a plain part with a harmless one (all `git apply` on the raw mail sees). */
function hiddenMail(): string {
  const body = Buffer.from(`tidy\n---\n${HOOK_DIFF}`).toString('base64');
  return `${MAIL_HEAD}Subject: [PATCH 2/2] tidy\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="ZB"\n\n--ZB\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: base64\n\n${body}\n--ZB\nContent-Type: text/x-patch; charset=UTF-8\nContent-Transfer-Encoding: 7bit\n\n${DOCS_DIFF}--ZB--\n`;
}

/** Runs `git am` on `mails` (it stops at the first, which fails), as an agent would. */
function stoppedAm(repo: Repo, mails: readonly string[]): void {
  const mbox = path.join(repo.workspace, '..', `mbox-${Math.random().toString(36).slice(2)}`);
  writeFileSync(mbox, mails.join('\n'));
  try {
    repo.tryGit('am', mbox);
  } finally {
    rmSync(mbox, { force: true }); // Beside the workspace, in the temp directory: git am has split it.
  }
  if (!existsSync(path.join(repo.gitDir, 'rebase-apply', 'next'))) throw new Error('git am did not stop');
}

test('a stopped am whose next mail hides the hook in a base64 MIME part is refused, and the am removed', (t) => {
  const repo = makeRepo(t);
  // What `git apply --numstat` sees on the raw mail: only docs.txt.
  const violations = check(repo, () => stoppedAm(repo, [FAILING, hiddenMail()]));
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'rebase-apply/0002') && v.reason.includes(path.join(repo.workspace, 'tools/hooks/post-applypatch'))),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'rebase-apply')));
});

test('a mail git mailinfo cannot decode is refused, never taken for a patch with nothing in it', (t) => {
  const repo = makeRepo(t);
  const undecodable = `${MAIL_HEAD}Subject: =?x-nope?B?w6k=?=\nContent-Type: text/plain; charset=x-nope\n\n---\n${DOCS_DIFF}`;
  const violations = check(repo, () => stoppedAm(repo, [FAILING, undecodable]));
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'rebase-apply/0002') && v.reason.includes('git mailinfo cannot decode it')),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'rebase-apply')));
});

test('a stopped am of plain format-patch mails changing ordinary files stays for the user', (t) => {
  const repo = makeRepo(t);
  const plain = `${MAIL_HEAD}Subject: [PATCH 2/2] docs\n\n---\n${DOCS_DIFF}`;
  const violations = check(repo, () => stoppedAm(repo, [FAILING, plain]));
  t.deepEqual(violations, []);
  t.true(existsSync(path.join(repo.gitDir, 'rebase-apply', '0002')));
});

test('the rebasing marker makes git am apply the commit a mail names, not the mail: a dangling one changing the hook is refused', (t) => {
  const repo = makeRepo(t);
  const evil = danglingEvilCommit(repo);
  const plain = `From ${evil} Mon Sep 17 00:00:00 2001\nFrom: a <a@x>\nSubject: [PATCH 2/2] docs\n\n---\n${DOCS_DIFF}`;
  const violations = check(repo, () => {
    stoppedAm(repo, [FAILING.replace(/^From 0+ /u, `From ${repo.git('rev-parse', 'HEAD')} `), plain]);
    writeFileSync(path.join(repo.gitDir, 'rebase-apply', 'rebasing'), '');
  });
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'rebase-apply/0002') && v.reason.includes(path.join(repo.workspace, 'tools/hooks/pre-commit'))),
    JSON.stringify(violations),
  );
  t.false(existsSync(path.join(repo.gitDir, 'rebase-apply')));
});

test("the rebasing marker added to the user's own stopped am is checked too, and undone", (t) => {
  const repo = makeRepo(t);
  const evil = danglingEvilCommit(repo);
  stoppedAm(repo, [FAILING.replace(/^From 0+ /u, `From ${repo.git('rev-parse', 'HEAD')} `), `From ${evil} Mon Sep 17 00:00:00 2001\nFrom: a <a@x>\nSubject: [PATCH 2/2] docs\n\n---\n${DOCS_DIFF}`]);
  const violations = check(repo, () => writeFileSync(path.join(repo.gitDir, 'rebase-apply', 'rebasing'), ''));
  t.true(
    violations.some((v) => v.reason.includes(path.join(repo.workspace, 'tools/hooks/pre-commit'))),
    JSON.stringify(violations),
  );
  t.true(existsSync(path.join(repo.gitDir, 'rebase-apply', '0002')), "the user's am stays");
  t.false(existsSync(path.join(repo.gitDir, 'rebase-apply', 'rebasing')), 'the marker is gone');
});

test('git rebase --apply stopped on a conflict after its first commit is ordinary work: its state is data, the commits its mails name the user own', (t) => {
  const repo = makeRepo(t);
  repo.git('checkout', '-q', '-b', 'side');
  writeFileSync(path.join(repo.workspace, 'b.txt'), 'b\n');
  repo.git('add', 'b.txt');
  repo.git('commit', '-q', '-m', 'b');
  writeFileSync(path.join(repo.workspace, 'a.txt'), 'side\n');
  repo.git('commit', '-q', '-am', 'side');
  repo.git('checkout', '-q', 'main');
  writeFileSync(path.join(repo.workspace, 'a.txt'), 'main\n');
  repo.git('commit', '-q', '-am', 'main');
  repo.git('checkout', '-q', 'side');
  const before = recordGitDirectory(repo.gitDir, false);
  t.not(repo.tryGit('rebase', '-q', '--apply', 'main'), 0);
  const after = recordGitDirectory(repo.gitDir, false);
  t.true(existsSync(path.join(repo.gitDir, 'rebase-apply', 'rebasing')));
  t.true(existsSync(path.join(repo.gitDir, 'rebase-apply', 'rewritten')), 'the first commit was rewritten before the stop');
  t.deepEqual(undoGitDirectoryChanges(repo.gitDir, before, after), []);
  t.deepEqual(checkStagedContent(repo.gitDir, before, after, { writeRoots: [repo.workspace], locations: [hooksLocation(repo)], worktreeBefore: NOTHING_RECORDED, bases: [repo.workspace] }), []);
});

// --- HEAD's reflog: what git checkout - goes back to

test("a line appended to HEAD's reflog naming a dangling commit that changes the hook is refused, and checkout - kept on the branch", (t) => {
  const repo = makeRepo(t);
  const evil = danglingEvilCommit(repo);
  const head = repo.git('rev-parse', 'HEAD');
  const violations = check(repo, () => appendFileSync(path.join(repo.gitDir, 'logs/HEAD'), `${head} ${head} a <a@x> 1700000000 +0000\tcheckout: moving from ${evil} to main\n`));
  t.true(
    violations.some((v) => v.path === path.join(repo.gitDir, 'logs/HEAD') && v.reason.includes(`commit ${evil} writes ${path.join(repo.workspace, 'tools/hooks/pre-commit')}`)),
    JSON.stringify(violations),
  );
  t.is(repo.git('rev-parse', '--symbolic-full-name', '@{-1}'), 'refs/heads/main', 'git checkout - now stays on main');
});

test('an agent switching between its own branch and main is ordinary work: nothing refused', (t) => {
  const repo = makeRepo(t);
  const violations = check(repo, () => {
    repo.git('checkout', '-q', '-b', 'feature');
    writeFileSync(path.join(repo.workspace, 'a.txt'), 'feature\n');
    repo.git('commit', '-q', '-am', 'feature');
    repo.git('checkout', '-q', 'main');
  });
  t.deepEqual(violations, []);
  t.is(repo.git('rev-parse', '--symbolic-full-name', '@{-1}'), 'refs/heads/feature');
});
