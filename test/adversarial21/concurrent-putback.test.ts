// Finding: the aftercare's record of protected files is taken at the start of
// each call, with no ordering between runs in one workspace. A protected file
// that does not exist is not mounted; a command that creates one has it removed
// by its own aftercare. But a second run's call that starts while the file
// exists records it as it is then (the attacker's bytes), and its aftercare,
// finding it removed, "puts it back". Two runs of an agent in one workspace
// (as examples/library/three-agents.mjs runs three) thus leave the file behind.
// The same holds for a git directory's closed world: a record taken while
// another run's command is in flight keeps that command's bytes, and an undo
// restores them.
// Deterministic: each command blocks on a FIFO the test opens at the moment it
// chooses; no clock is involved. Run A's call either starts its command while
// run B's is in flight (what the review found) or waits for run B (zotbox orders
// calls in overlapping write scopes: scope-lock.ts), which the test sees through
// the lock's seam; either way the test then lets B end first, then A.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeWorld, runAttack, waitsFor, type World } from './world.js';

/** Runs B's command until it blocks, then A's call; B ends first, then A. `other` is A's world (another state directory, or the same). */
async function interleave(world: World, other: World, commandB: string, commandA: string): Promise<void> {
  const fifo = (name: string) => path.join(world.workspace, name);
  execFileSync('mkfifo', ['-m', '0666', fifo('b-started'), fifo('b-go'), fifo('a-started'), fifo('a-go')]);
  chmodSync(world.workspace, 0o777);
  const runB = runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `${commandB}; echo x > b-started; cat b-go` } }]);
  await readFile(fifo('b-started')); // run B's command has done its work and waits
  const waits = waitsFor(world.workspace);
  const runA = runAttack(other, { mode: 'ask' }, [{ tool: 'bash', input: { command: `echo x > a-started; cat a-go; ${commandA}` } }]);
  const aStarted = readFile(fifo('a-started')).then(() => 'started' as const);
  await Promise.race([aStarted, waits]); // run A recorded and started its command, or waits for run B
  await writeFile(fifo('b-go'), ''); // run B's command ends: its aftercare removes what it made
  await runB;
  await aStarted;
  await writeFile(fifo('a-go'), ''); // run A's command ends: its aftercare compares with its record
  await runA;
}

test.serial('a hook one run creates is not put back by a concurrent run that recorded it while it existed', async (t) => {
  const world = makeWorld(t);
  world.git('commit', '-q', '--allow-empty', '-m', 'init');
  // Versioned hooks, not yet made: the hooks directory is a control location that does not exist.
  world.git('config', 'core.hooksPath', '.githooks');
  const planted = `mkdir -p .githooks && printf '#!/bin/sh\\ntouch ${world.mark}\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`;
  await interleave(world, world, planted, 'true');

  world.git('commit', '-q', '--allow-empty', '-m', 'user work');
  t.false(existsSync(world.mark), "the user's git commit ran a hook the agent wrote");
  t.false(existsSync(path.join(world.workspace, '.githooks', 'pre-commit')), 'a hook the agent wrote is in the hooks directory');
});

test.serial('runs with different state directories are ordered too: a tool file is not put back', async (t) => {
  const world = makeWorld(t);
  const otherHome = path.join(world.root, 'state-2');
  mkdirSync(otherHome);
  await interleave(world, { ...world, home: otherHome }, `printf 'touch ${world.mark}\\n' > .envrc`, 'true');
  t.false(existsSync(path.join(world.workspace, '.envrc')), 'a .envrc the agent wrote is in the workspace');
});

test.serial("a git directory's undo does not restore sequencer state another run's command wrote", async (t) => {
  const world = makeWorld(t);
  world.git('commit', '-q', '--allow-empty', '-m', 'init');
  const strategy = path.join(world.workspace, '.git', 'rebase-merge', 'strategy');
  // Run B writes a strategy git would run (git-merge-../evil); run A, later, writes one that breaks the grammar, so its
  // aftercare undoes it by putting back what its record holds.
  await interleave(world, world, "mkdir -p .git/rebase-merge && printf '../evil\\n' > .git/rebase-merge/strategy", "mkdir -p .git/rebase-merge && printf 'x y\\n' > .git/rebase-merge/strategy");
  t.false(existsSync(strategy), `${strategy} holds ${existsSync(strategy) ? JSON.stringify(execFileSync('cat', [strategy], { encoding: 'utf8' })) : ''}`);
});
