// Finding: the aftercare's record of protected files is taken at the start of
// each call, with no ordering between runs in one workspace. A protected file
// that does not exist is not mounted; a command that creates one has it removed
// by its own aftercare. But a second run's call that starts while the file
// exists records it as it is then (the attacker's bytes), and its aftercare,
// finding it removed, "puts it back". Two runs of an agent in one workspace
// (as examples/library/three-agents.mjs runs three) thus leave the file behind.
// Deterministic: each command blocks on a FIFO the test opens at the moment it
// chooses; no clock is involved.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeWorld, runAttack } from './world.js';

test('a hook one run creates is not put back by a concurrent run that recorded it while it existed', async (t) => {
  const world = makeWorld(t);
  world.git('commit', '-q', '--allow-empty', '-m', 'init');
  // Versioned hooks, not yet made: the hooks directory is a control location that does not exist.
  world.git('config', 'core.hooksPath', '.githooks');
  const fifo = (name: string) => path.join(world.workspace, name);
  execFileSync('mkfifo', ['-m', '0666', fifo('b-started'), fifo('b-go'), fifo('a-started'), fifo('a-go')]);
  chmodSync(world.workspace, 0o777);

  const planted = `mkdir -p .githooks && printf '#!/bin/sh\\ntouch ${world.mark}\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`;
  const runB = runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `${planted}; echo x > b-started; cat b-go` } }]);
  await readFile(fifo('b-started')); // run B's command has made the hook and waits
  const runA = runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: 'echo x > a-started; cat a-go' } }]);
  await readFile(fifo('a-started')); // run A recorded the protected files before its command started
  await writeFile(fifo('b-go'), ''); // run B's command ends: its aftercare removes the hook it created
  await runB;
  await writeFile(fifo('a-go'), ''); // run A's command ends: its aftercare compares with its record
  await runA;

  world.git('commit', '-q', '--allow-empty', '-m', 'user work');
  t.false(existsSync(world.mark), "the user's git commit ran a hook the agent wrote");
  t.false(existsSync(path.join(world.workspace, '.githooks', 'pre-commit')), 'a hook the agent wrote is in the hooks directory');
});
