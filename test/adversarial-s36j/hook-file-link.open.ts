// Finding (issue 21 §3 "hooks reached through links"; most severe of this review): the usual way to install a
// versioned hook is a link per hook, `ln -s ../../scripts/pre-commit.sh .git/hooks/pre-commit`. zotbox protects a
// hooks directory that is itself a link (.git/hooks -> ../githooks), but not the worktree file a hook *file* links
// to: it is neither a control location nor read-only in the sandbox. An agent with only the write tool (no bash),
// or a confined bash command, rewrites scripts/pre-commit.sh and the user's next `git commit` runs it, unconfined.
// tool-file-references.ts hookFiles reads a linked hook where it leads (for what it names) and protects a dangling
// link's target whole (that held: "is where a hook links to"), but an existing target is read, never protected itself.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, makeAgent, makeRepo, makeWorld, runAgent, type World } from './harness.js';

function repoWithLinkedHook(world: World): string {
  const workspace = makeRepo(path.join(world.root, 'ws'));
  mkdirSync(path.join(workspace, 'scripts'));
  writeFileSync(path.join(workspace, 'scripts', 'pre-commit.sh'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(workspace, 'scripts', 'pre-commit.sh'), 0o755);
  git(workspace, ['add', 'scripts']);
  git(workspace, ['commit', '-qm', 'versioned hooks']);
  symlinkSync('../../scripts/pre-commit.sh', path.join(workspace, '.git', 'hooks', 'pre-commit'));
  mkdirSync(world.state);
  return workspace;
}

const payload = (world: World) => `#!/bin/sh\ntouch ${world.marker}\n`;

test('the write tool (no bash) cannot rewrite the file a linked hook runs', async (t) => {
  const world = makeWorld(t);
  const workspace = repoWithLinkedHook(world);
  const agent = makeAgent(world.root, 'writer', { mode: 'none' });
  const result = await runAgent(world, agent, workspace, [['write', { path: 'scripts/pre-commit.sh', content: payload(world) }]]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  git(workspace, ['commit', '-q', '--allow-empty', '-m', 'the user commits later']);
  t.false(existsSync(world.marker), "the user's git commit ran the hook the agent wrote through the write tool");
});

test('a confined bash command cannot rewrite the file a linked hook runs', async (t) => {
  const world = makeWorld(t);
  const workspace = repoWithLinkedHook(world);
  const agent = makeAgent(world.root, 'asker', { mode: 'ask' });
  const result = await runAgent(world, agent, workspace, [['bash', { command: `printf '#!/bin/sh\\ntouch ${world.marker}\\n' > scripts/pre-commit.sh` }]]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  git(workspace, ['commit', '-q', '--allow-empty', '-m', 'the user commits later']);
  t.false(existsSync(world.marker), "the user's git commit ran the hook the agent wrote through a confined command");
});

test('the write tool cannot rewrite the file a hook in core.hooksPath links to', async (t) => {
  const world = makeWorld(t);
  const workspace = makeRepo(path.join(world.root, 'ws'));
  mkdirSync(path.join(workspace, 'scripts'));
  mkdirSync(path.join(workspace, '.githooks'));
  writeFileSync(path.join(workspace, 'scripts', 'pc.sh'), '#!/bin/sh\nexit 0\n');
  chmodSync(path.join(workspace, 'scripts', 'pc.sh'), 0o755);
  symlinkSync('../scripts/pc.sh', path.join(workspace, '.githooks', 'pre-commit'));
  git(workspace, ['add', '-A']);
  git(workspace, ['commit', '-qm', 'versioned hooks']);
  git(workspace, ['config', 'core.hooksPath', '.githooks']);
  mkdirSync(world.state);
  const agent = makeAgent(world.root, 'writer', { mode: 'none' });
  const result = await runAgent(world, agent, workspace, [['write', { path: 'scripts/pc.sh', content: payload(world) }]]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  git(workspace, ['commit', '-q', '--allow-empty', '-m', 'the user commits later']);
  t.false(existsSync(world.marker), "the user's git commit ran the hook the agent wrote through the write tool");
});
