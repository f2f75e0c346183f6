// Same class as hook-file-link (a protected entry that is a link protects its name, not what it points to), for a
// tool file: `.envrc -> scripts/env.sh` (direnv follows the link and runs the target when a shell enters the
// directory). The write tool's decision checks the spellings of the path written (scripts/env.sh), which is no
// protected name, so the agent rewrites what direnv runs. direnv is not needed to show it: the safe outcome is that
// the content reached through .envrc is still the user's.
import test from 'ava';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, makeAgent, makeRepo, makeWorld, runAgent } from './harness.js';

test('the write tool cannot rewrite the file a protected .envrc link points to', async (t) => {
  const world = makeWorld(t);
  const workspace = makeRepo(path.join(world.root, 'ws'));
  mkdirSync(path.join(workspace, 'scripts'));
  writeFileSync(path.join(workspace, 'scripts', 'env.sh'), 'export A=1\n');
  symlinkSync('scripts/env.sh', path.join(workspace, '.envrc'));
  git(workspace, ['add', '-A']);
  git(workspace, ['commit', '-qm', 'direnv']);
  mkdirSync(world.state);
  const agent = makeAgent(world.root, 'writer', { mode: 'none' });
  const result = await runAgent(world, agent, workspace, [['write', { path: 'scripts/env.sh', content: `touch ${world.marker}\n` }]]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  t.is(readFileSync(path.join(workspace, '.envrc'), 'utf8'), 'export A=1\n', 'what direnv runs through .envrc is now what the agent wrote');
});
