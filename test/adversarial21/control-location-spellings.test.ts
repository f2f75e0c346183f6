// The other spellings of issue 21 §3's two classes, through every writer: a
// program a git config value names without a slash, through ~, backticks, a
// pattern, or an expansion only the run can know (refused, naming the config
// line); and the repository git finds around the workspace (a monorepo package,
// a linked worktree). Each through bash (confined, and unconfined where the
// aftercare alone holds) as well as the write tool. The user's own git runs
// afterwards, unconfined, and must run nothing the agent wrote.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack, type World } from './world.js';

function program(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
}

/** A repository whose config runs `fsmonitor` on every git status, with tools/fsmon.sh and fsmon.sh committed. */
function fsmonitorWorld(t: Parameters<typeof makeWorld>[0], fsmonitor: string): World {
  const world = makeWorld(t);
  program(path.join(world.workspace, 'fsmon.sh'));
  program(path.join(world.workspace, 'tools', 'fsmon.sh'));
  writeFileSync(path.join(world.workspace, 'a.txt'), 'hi\n');
  world.git('add', '.');
  world.git('commit', '-q', '-m', 'init');
  world.git('config', 'core.fsmonitor', fsmonitor);
  return world;
}

const PLANT = (mark: string) => `#!/bin/sh\ntouch ${mark}\n`;

for (const [title, extra] of [
  ['confined', []],
  ['unconfined', ['--confine', 'off']],
] as const) {
  test(`bash (${title}): a program core.fsmonitor names without a slash (sh fsmon.sh) cannot be rewritten`, async (t) => {
    const world = fsmonitorWorld(t, 'sh fsmon.sh');
    await runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `echo 'touch ${world.mark}' >> fsmon.sh` } }], extra);
    world.git('status', '--short');
    t.false(existsSync(world.mark), "the user's git status ran a program the agent wrote");
    t.is(readFileSync(path.join(world.workspace, 'fsmon.sh'), 'utf8'), '#!/bin/sh\nexit 0\n');
  });
}

for (const [title, value, file] of [
  ['~/', '~/ws/tools/fsmon.sh', 'tools/fsmon.sh'],
  ['backticks', 'sh "`git rev-parse --show-toplevel`/tools/fsmon.sh"', 'tools/fsmon.sh'],
  ['a script for sh -c', "sh -c 'cd tools && sh fsmon.sh'", 'tools/fsmon.sh'],
  ['a pattern under a fixed directory (a file not there yet)', 'sh -c "for f in tools/*.sh; do sh $f; done"', 'tools/new.sh'],
] as const) {
  test(`the write tool: a program core.fsmonitor names through ${title} is a control location`, async (t) => {
    const world = fsmonitorWorld(t, value);
    await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: file, content: PLANT(world.mark) } }]);
    world.git('status', '--short');
    t.false(existsSync(world.mark), "the user's git status ran a program the agent wrote");
  });
}

test('an expansion only the run can know: the write tool is refused with the config line named, bash commands are refused too', async (t) => {
  const world = fsmonitorWorld(t, 'sh "$(cat .fsmon-path)"');
  const config = path.join(world.workspace, '.git', 'config');
  t.is(readFileSync(config, 'utf8').split('\n')[5], '\tfsmonitor = sh \\"$(cat .fsmon-path)\\"', "git config wrote the fsmonitor line sixth, after git init's five");
  const written = await runAttack(world, { mode: 'none' }, [
    { tool: 'write', input: { path: '.fsmon-path', content: 'tools/fsmon.sh\n' } },
    { tool: 'write', input: { path: 'tools/fsmon.sh', content: PLANT(world.mark) } },
  ]);
  t.false(existsSync(path.join(world.workspace, '.fsmon-path')));
  t.true(written.stdout.includes(`core.fsmonitor (set in ${config} line 6) names \\"$(cat .fsmon-path)\\"`), written.stdout);
  const ran = await runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `echo tools/fsmon.sh > .fsmon-path` } }]);
  t.false(existsSync(path.join(world.workspace, '.fsmon-path')));
  t.true(ran.stdout.includes(`command refused: zotbox cannot tell which files the user's git would run: core.fsmonitor (set in ${config} line 6)`), ran.stdout);
});

test('bash: a monorepo package as the workspace, its repository hooksPath in the package, cannot plant a hook', async (t) => {
  const world = makeWorld(t);
  const app = path.join(world.workspace, 'packages', 'app');
  program(path.join(app, 'githooks', 'pre-commit'));
  world.git('add', '.');
  world.git('commit', '-q', '-m', 'init');
  world.git('config', 'core.hooksPath', 'packages/app/githooks');
  await runAttack(
    world,
    { mode: 'ask' },
    [{ tool: 'bash', input: { command: `echo 'touch ${world.mark}' >> githooks/pre-commit; echo 'touch ${world.mark}' > githooks/post-commit; chmod +x githooks/post-commit` } }],
    [],
    app,
  );
  world.git('commit', '-q', '--allow-empty', '-m', 'user work');
  t.false(existsSync(world.mark), "the user's git commit ran a hook the agent wrote");
});

test('bash: a linked worktree as the workspace cannot plant a hook its main repository config names', async (t) => {
  const world = makeWorld(t);
  program(path.join(world.workspace, 'githooks', 'pre-commit'));
  world.git('add', '.');
  world.git('commit', '-q', '-m', 'init');
  world.git('config', 'core.hooksPath', 'githooks');
  const worktree = path.join(world.root, 'feature');
  world.git('worktree', 'add', '-q', worktree, '-b', 'feature');
  await runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `echo 'touch ${world.mark}' >> githooks/pre-commit` } }], [], worktree);
  world.git('-C', worktree, 'commit', '-q', '--allow-empty', '-m', 'user work');
  t.false(existsSync(world.mark), "the user's git commit in the worktree ran a hook the agent wrote");
});

test('the edit tool: a program core.fsmonitor names without a slash cannot be edited, and a linked worktree hook neither', async (t) => {
  const world = fsmonitorWorld(t, 'sh fsmon.sh');
  await runAttack(world, { mode: 'none' }, [{ tool: 'edit', input: { path: 'fsmon.sh', old_string: 'exit 0', new_string: `touch ${world.mark}` } }]);
  world.git('status', '--short');
  t.false(existsSync(world.mark), "the user's git status ran a program the agent edited");
  program(path.join(world.workspace, 'githooks', 'pre-commit'));
  world.git('add', '.');
  world.git('commit', '-q', '-m', 'hooks');
  world.git('config', 'core.hooksPath', 'githooks');
  world.git('config', '--unset', 'core.fsmonitor');
  const worktree = path.join(world.root, 'feature');
  world.git('worktree', 'add', '-q', worktree, '-b', 'feature');
  await runAttack(world, { mode: 'none' }, [{ tool: 'edit', input: { path: 'githooks/pre-commit', old_string: 'exit 0', new_string: `touch ${world.mark}` } }], [], worktree);
  world.git('-C', worktree, 'commit', '-q', '--allow-empty', '-m', 'user work');
  t.false(existsSync(world.mark), "the user's git commit in the worktree ran a hook the agent edited");
});
