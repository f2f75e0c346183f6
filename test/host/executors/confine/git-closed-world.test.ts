// A git directory is a closed world of data (issue 21 §2): after every command,
// what changed in a git directory must be what git writes as data. Each escape of
// the issue is replayed with real git in the real sandbox (and unconfined), and
// ends with the user's own git: its marker must never appear. Ordinary git work,
// stopped half-way for the user to finish, is not refused, and the user's own
// `--continue` still works afterwards.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { sandboxWorld, type SandboxWorld } from '../../../fixtures/sandbox-world.js';

const USER_ENV = { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x', GIT_EDITOR: ':' };

/** The user's own git, as they would run it later, with a home of their own; returns its exit status. */
function userGit(cwd: string, home: string, args: string[]): number {
  mkdirSync(home, { recursive: true });
  const result = spawnSync('git', args, { cwd, env: { ...USER_ENV, HOME: home, GIT_SEQUENCE_EDITOR: ':' }, encoding: 'utf8' });
  if (result.status !== 0) process.stderr.write(`git ${args.join(' ')}: ${result.stderr}\n`);
  return result.status ?? -1;
}

/** A repository in `directory` with two branches that conflict on a: main (one, two) and side (one, three, four). */
function divergedRepository(directory: string, home: string, extra: string[] = []): void {
  mkdirSync(directory, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: directory, env: { ...USER_ENV, HOME: home }, stdio: 'ignore' });
  git('init', '-q', '-b', 'main', ...extra);
  writeFileSync(path.join(directory, 'a'), 'a\n');
  git('add', 'a');
  git('commit', '-qm', 'one');
  git('branch', 'side');
  writeFileSync(path.join(directory, 'a'), 'b\n');
  git('commit', '-qam', 'two');
  git('checkout', '-q', 'side');
  writeFileSync(path.join(directory, 'a'), 'c\n');
  git('commit', '-qam', 'three');
  writeFileSync(path.join(directory, 'd'), 'd\n');
  git('add', 'd');
  git('commit', '-qm', 'four');
}

/** A program the user's git would run as merge strategy "../evil" from the worktree's top: it leaves `marker`. */
function plantStrategyProgram(worktree: string, marker: string): void {
  mkdirSync(path.join(worktree, 'git-merge-..'));
  writeFileSync(path.join(worktree, 'git-merge-..', 'evil'), `#!/bin/sh\ntouch ${marker}\nexit 1\n`, { mode: 0o755 });
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | undefined)?.code;
}

for (const confined of [true, false]) {
  const how = confined ? 'confined' : 'unconfined';

  test(`${how}: a rebase left in progress with strategy "../evil" is refused, and the user's rebase --continue runs nothing`, async (t) => {
    const world = sandboxWorld(t);
    const home = path.join(world.root, 'user-home');
    divergedRepository(world.ws, home);
    const marker = path.join(world.root, 'STRATEGY-RAN');
    plantStrategyProgram(world.ws, marker);
    const error = await t.throwsAsync(world.run('git rebase -i main >/dev/null 2>&1; echo ../evil > .git/rebase-merge/strategy', { confined }));
    t.is(codeOf(error), 'ZB_CONFINEMENT_GIT_PROGRAM');
    t.true(existsSync(path.join(world.ws, '.git', 'rebase-merge', 'git-rebase-todo')), 'the rebase itself is left for the user');
    t.false(existsSync(path.join(world.ws, '.git', 'rebase-merge', 'strategy')));
    writeFileSync(path.join(world.ws, 'a'), 'resolved\n');
    userGit(world.ws, home, ['add', 'a']);
    userGit(world.ws, home, ['rebase', '--continue']);
    t.false(existsSync(marker), "the user's rebase --continue ran the strategy program");
  });

  test(`${how}: a cherry-pick left in progress whose sequencer/opts name strategy "../evil" is refused`, async (t) => {
    const world = sandboxWorld(t);
    const home = path.join(world.root, 'user-home');
    divergedRepository(world.ws, home);
    const marker = path.join(world.root, 'OPTS-RAN');
    plantStrategyProgram(world.ws, marker);
    const error = await t.throwsAsync(
      world.run('git checkout -q main && git cherry-pick side~1 side >/dev/null 2>&1; printf "[options]\\n\\tstrategy = ../evil\\n" > .git/sequencer/opts', { confined }),
    );
    t.is(codeOf(error), 'ZB_CONFINEMENT_GIT_PROGRAM');
    t.false(existsSync(path.join(world.ws, '.git', 'sequencer', 'opts')));
    writeFileSync(path.join(world.ws, 'a'), 'resolved\n');
    userGit(world.ws, home, ['add', 'a']);
    userGit(world.ws, home, ['cherry-pick', '--continue']);
    t.false(existsSync(marker), "the user's cherry-pick --continue ran the strategy program");
  });

  test(`${how}: a todo list replaced by a symlink to a worktree file with an exec line is refused`, async (t) => {
    const world = sandboxWorld(t);
    const home = path.join(world.root, 'user-home');
    divergedRepository(world.ws, home);
    const marker = path.join(world.root, 'EXEC-RAN');
    const error = await t.throwsAsync(
      world.run(`git rebase -i main >/dev/null 2>&1; printf "exec touch ${marker}\\n" > todo.txt && ln -sf ../../todo.txt .git/rebase-merge/git-rebase-todo`, { confined }),
    );
    t.is(codeOf(error), 'ZB_CONFINEMENT_GIT_PROGRAM');
    t.false(existsSync(path.join(world.ws, '.git', 'rebase-merge', 'git-rebase-todo')));
    writeFileSync(path.join(world.ws, 'a'), 'resolved\n');
    userGit(world.ws, home, ['add', 'a']);
    userGit(world.ws, home, ['rebase', '--continue']);
    t.false(existsSync(marker), "the user's rebase --continue ran the exec line");
  });

  test(`${how}: a FIFO, a symlink or an unknown file anywhere in a git directory is refused and removed`, async (t) => {
    const world = sandboxWorld(t);
    divergedRepository(world.ws, path.join(world.root, 'user-home'));
    for (const [command, left] of [
      ['mkfifo .git/refs/heads/pipe', 'refs/heads/pipe'],
      ['ln -s ../../../a .git/refs/tags/link', 'refs/tags/link'],
      ['echo data > .git/objects/info/alternates', 'objects/info/alternates'],
      ['mkdir .git/lfs && echo x > .git/lfs/blob', 'lfs'],
      ['echo "ref: ../../evil" > .git/HEAD', 'HEAD'],
    ] as const) {
      const error = await t.throwsAsync(world.run(command, { confined }), undefined, command);
      t.is(codeOf(error), 'ZB_CONFINEMENT_GIT_PROGRAM', command);
      t.true((error as { details?: { paths?: string[] } }).details?.paths?.includes(path.join(world.ws, '.git', left)), `${command}: ${error.message}`);
    }
    t.is(readFileSync(path.join(world.ws, '.git', 'HEAD'), 'utf8'), 'ref: refs/heads/side\n', 'HEAD was put back as it was');
    t.false(existsSync(path.join(world.ws, '.git', 'lfs')));
  });

  test(`${how}: ordinary git work left half-done for the user is not refused, and the user can finish it`, async (t) => {
    const world = sandboxWorld(t);
    const home = path.join(world.root, 'user-home');
    divergedRepository(world.ws, home);
    const steps = [
      'git tag v1 && git tag -a -m release v2 && git branch topic && git stash list',
      'echo x >> d && git stash -q && git stash pop -q && git checkout -q d',
      'git merge main >/dev/null 2>&1; git merge --abort',
      'git cherry-pick main side~1 >/dev/null 2>&1; git cherry-pick --abort',
      'git revert --no-edit HEAD >/dev/null && git reset -q --hard HEAD~1',
      'git rebase --apply main >/dev/null 2>&1; git rebase --abort',
      'git bisect start side side~2 >/dev/null && git bisect bad >/dev/null && git bisect log >/dev/null',
      'git bisect reset >/dev/null 2>&1',
      'git gc -q && git pack-refs --all && git commit-graph write --reachable >/dev/null',
      'git rebase -i -s ort -X patience --update-refs main >/dev/null 2>&1; git status --short',
    ];
    for (const step of steps) {
      const result = await world.run(step, { confined });
      t.is(result.exitCode, 0, `${step}: ${result.stderr}`);
    }
    t.true(existsSync(path.join(world.ws, '.git', 'rebase-merge', 'strategy_opts')), 'a rebase with -s and -X stopped on its conflict');
    writeFileSync(path.join(world.ws, 'a'), 'resolved\n');
    t.is(userGit(world.ws, home, ['add', 'a']), 0);
    t.is(userGit(world.ws, home, ['rebase', '--continue']), 0, "the user's rebase --continue works");
    t.false(existsSync(path.join(world.ws, '.git', 'rebase-merge')));
    const pick = await world.run('git checkout -q main && git cherry-pick -x v1~1 v1 >/dev/null 2>&1; test -f .git/sequencer/opts', { confined });
    t.is(pick.exitCode, 0, pick.stderr);
    writeFileSync(path.join(world.ws, 'a'), 'resolved\n');
    t.is(userGit(world.ws, home, ['add', 'a']), 0);
    t.is(userGit(world.ws, home, ['cherry-pick', '--continue']), 0, "the user's cherry-pick --continue works");
    const merge = await world.run('git checkout -q -b other v1~2 && echo z > a && git commit -qam z && git merge main >/dev/null 2>&1; test -f .git/MERGE_HEAD', { confined });
    t.is(merge.exitCode, 0, merge.stderr);
  });
}

test('git worktree add is refused: the new worktree is a gitfile and a git directory whose commondir redirects git', async (t) => {
  const world = sandboxWorld(t);
  divergedRepository(world.ws, path.join(world.root, 'user-home'));
  const error = await t.throwsAsync(world.run('git worktree add -q other main'));
  t.is(codeOf(error), 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, 'other', '.git')));
  t.deepEqual(existsSync(path.join(world.ws, '.git', 'worktrees')) ? readdirSync(path.join(world.ws, '.git', 'worktrees')) : [], []);
});

/** Runs a command that waits on a FIFO; `during` acts on the host while it waits (as through a bind that landed elsewhere). */
async function whileCommandRuns(world: SandboxWorld, during: () => void): Promise<unknown> {
  execFileSync('mkfifo', [path.join(world.ws, 'go')]);
  const running = world.run('head -c1 go >/dev/null').then(
    () => undefined,
    (error: unknown) => error,
  );
  const writer = await open(path.join(world.ws, 'go'), 'w'); // resolves once the command has opened it for reading
  during(); // the call has recorded the scopes and its command runs
  await writer.write('x');
  await writer.close();
  return running;
}

test('a hook planted into an existing hooks directory during a confined call is found by content and removed', async (t) => {
  const world = sandboxWorld(t);
  const home = path.join(world.root, 'user-home');
  divergedRepository(world.ws, home);
  const marker = path.join(world.root, 'HOOK-RAN');
  const error = await whileCommandRuns(world, () => writeFileSync(path.join(world.ws, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 }));
  t.is(codeOf(error), 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, '.git', 'hooks', 'pre-commit')));
  userGit(world.ws, home, ['commit', '--allow-empty', '-qm', 'user']);
  t.false(existsSync(marker));
});

test("the user's own hook rewritten in place (same inode) during a confined call is put back", async (t) => {
  const world = sandboxWorld(t);
  divergedRepository(world.ws, path.join(world.root, 'user-home'));
  const hook = path.join(world.ws, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\necho the user\n', { mode: 0o755 });
  const error = await whileCommandRuns(world, () => writeFileSync(hook, '#!/bin/sh\ntouch /tmp/pwn\n'));
  t.is(codeOf(error), 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.is(readFileSync(hook, 'utf8'), '#!/bin/sh\necho the user\n');
});

test('the same commands unconfined leave the strategy escape on plain git (the test can fail)', (t) => {
  // The payload is real: without zotbox's check, the user's rebase --continue runs it.
  const root = path.join(sandboxWorld(t).root, 'plain');
  const home = path.join(root, 'home');
  divergedRepository(path.join(root, 'r'), home);
  const marker = path.join(root, 'RAN');
  plantStrategyProgram(path.join(root, 'r'), marker);
  userGit(path.join(root, 'r'), home, ['rebase', '-i', 'main']);
  writeFileSync(path.join(root, 'r', '.git', 'rebase-merge', 'strategy'), '../evil\n');
  writeFileSync(path.join(root, 'r', 'a'), 'resolved\n');
  userGit(path.join(root, 'r'), home, ['add', 'a']);
  userGit(path.join(root, 'r'), home, ['rebase', '--continue']);
  t.true(existsSync(marker));
});
