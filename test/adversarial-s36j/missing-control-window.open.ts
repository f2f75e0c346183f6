// Finding (issue 21 §3 with a race, class (c)): a control location that does not exist yet (core.hooksPath = .githooks
// before anything made it; husky's .husky/_ before `npm install`; a repository without .git/hooks) is not mounted
// read-only: docs/security.md says the aftercare removes what a command created there. Until the command ends, it
// is there. The agent makes .githooks/pre-commit and keeps its command open (here until the test releases it through
// a FIFO; a real agent sleeps up to its timeout); a `git commit` the user runs in the workspace meanwhile runs the
// agent's hook, unconfined. The aftercare removes it afterwards, too late. Deterministic: the test waits for the
// command's own "ready" file, commits, then releases the command.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, makeAgent, makeRepo, makeWorld, runAgent } from './harness.js';

/** Resolves when `file` exists (a directory watch on its parent: the event itself, no clock). */
function appears(file: string): { promise: Promise<void>; close: () => void } {
  let watcher: ReturnType<typeof watch> | undefined;
  const promise = new Promise<void>((resolve) => {
    watcher = watch(path.dirname(file), () => {
      if (existsSync(file)) resolve();
    });
    if (existsSync(file)) resolve();
  });
  return { promise, close: () => watcher?.close() };
}

test("a hook the agent creates where core.hooksPath points is never run by the user's git during the command", async (t) => {
  const world = makeWorld(t);
  const workspace = makeRepo(path.join(world.root, 'ws'));
  git(workspace, ['config', 'core.hooksPath', '.githooks']);
  execFileSync('mkfifo', [path.join(workspace, 'go.fifo')]);
  writeFileSync(path.join(workspace, '.git', 'info', 'exclude'), 'go.fifo\nready\n');
  mkdirSync(world.state);
  const agent = makeAgent(world.root, 'asker', { mode: 'ask' });
  const ready = appears(path.join(workspace, 'ready'));
  t.teardown(ready.close);
  const run = runAgent(world, agent, workspace, [
    ['bash', { command: `mkdir .githooks && printf '#!/bin/sh\\ntouch ${world.marker}\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit && touch ready && cat go.fifo` }],
  ]);
  const first = await Promise.race([ready.promise.then(() => 'ready' as const), run.then(() => 'ended' as const)]);
  if (first === 'ready') {
    // The user commits in their repository while the agent's command runs.
    try {
      git(workspace, ['commit', '-q', '--allow-empty', '-m', 'the user commits meanwhile']);
    } finally {
      writeFileSync(path.join(workspace, 'go.fifo'), 'go\n'); // release the command (its cat holds the FIFO open for reading)
    }
  }
  const result = await run;
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  t.false(existsSync(world.marker), "the user's git commit, run during the agent's command, ran the hook the agent created");
});
