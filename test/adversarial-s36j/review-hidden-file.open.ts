// Finding (low; "what is not protected" rests on review): docs/security.md answers files of other names that a tool
// runs when the user asks (package scripts, a Makefile, site-packages) with "review an agent's changes before running
// the project's tools (git status, git diff)". An agent with only the write tool leaves tests/conftest.py (pytest
// imports it on the user's next `pytest`) beside a new tests/.gitignore holding "*", which ignores itself and the
// conftest: `git status` and `git diff` then show nothing at all. The safe outcome: the review the docs name sees
// the new file (a self-ignoring ignore file the agent creates is refused or reported, as index flags that hide
// changes are).
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, makeAgent, makeRepo, makeWorld, runAgent } from './harness.js';

test("a file the agent leaves is visible to the user's git status", async (t) => {
  const world = makeWorld(t);
  const workspace = makeRepo(path.join(world.root, 'ws'));
  mkdirSync(path.join(workspace, 'tests'));
  writeFileSync(path.join(workspace, 'tests', 'test_ok.py'), 'def test_ok():\n    assert True\n');
  git(workspace, ['add', '-A']);
  git(workspace, ['commit', '-qm', 'tests']);
  mkdirSync(world.state);
  const agent = makeAgent(world.root, 'writer', { mode: 'none' });
  const result = await runAgent(world, agent, workspace, [
    ['write', { path: 'tests/conftest.py', content: `import pathlib\npathlib.Path(${JSON.stringify(world.marker)}).touch()\n` }],
    ['write', { path: 'tests/.gitignore', content: '*\n' }],
  ]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result'))
      .join('\n')
      .slice(0, 800),
  );
  const review = git(workspace, ['status', '--porcelain']);
  t.regex(review, /conftest\.py|tests\//u, `git status shows nothing of what the agent left: ${JSON.stringify(review)}`);
});
