// Finding: control locations are computed only from git directories found inside
// the write scopes (confine/control-locations.ts reads the config of each git
// directory the inventory walk finds there). A workspace whose repository's git
// directory lies outside the write scopes is governed by a config nobody reads:
//   - the workspace is a subdirectory of a repository (a monorepo package);
//   - the workspace is a linked worktree (git worktree add), whose git directory
//     is <main>/.git/worktrees/<name>.
// A versioned hooks directory (core.hooksPath = githooks) in the workspace is then
// not a control location: the write tool alone (no bash) rewrites a hook, and the
// user's next commit runs it.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack } from './world.js';

function hook(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
}

test('a workspace inside a repository: the hooks directory the repository config names is a control location', async (t) => {
  const world = makeWorld(t);
  const app = path.join(world.workspace, 'packages', 'app');
  hook(path.join(app, 'githooks', 'pre-commit'));
  world.git('add', '.');
  world.git('commit', '-q', '-m', 'init');
  world.git('config', 'core.hooksPath', 'packages/app/githooks');

  await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: 'githooks/pre-commit', content: `#!/bin/sh\ntouch ${world.mark}\n` } }], [], app);
  world.git('commit', '-q', '--allow-empty', '-m', 'user work');

  t.false(existsSync(world.mark), "the user's git commit ran a hook the agent wrote");
});

test('a linked worktree as the workspace: the hooks directory its repository config names is a control location', async (t) => {
  const world = makeWorld(t);
  hook(path.join(world.workspace, 'githooks', 'pre-commit'));
  world.git('add', '.');
  world.git('commit', '-q', '-m', 'init');
  world.git('config', 'core.hooksPath', 'githooks');
  const worktree = path.join(world.root, 'feature');
  world.git('worktree', 'add', '-q', worktree, '-b', 'feature');

  await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: 'githooks/pre-commit', content: `#!/bin/sh\ntouch ${world.mark}\n` } }], [], worktree);
  world.git('-C', worktree, 'commit', '-q', '--allow-empty', '-m', 'user work');

  t.false(existsSync(world.mark), "the user's git commit in the worktree ran a hook the agent wrote");
});
