// Found by the fresh adversarial review of issue 21 (open: fails on main).
// zotbox protects the files a protected tool file names (tool-file-references.ts),
// but reads a word as a file only when it holds a "/" (`./check.sh`, `tools/x.sh`).
// The same file named without one, as an argument (`sh check.sh`, a VS Code task's
// `"command": "sh", "args": ["on-open.sh"]`), is not protected: the write tool alone,
// with no bash at all, changes it, and the user's next `git commit` runs it through
// the husky hook. (For git configuration values zotbox already counts every word,
// with or without "/".)
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack } from '../world.js';

test('a script a husky hook runs as `sh check.sh` is open to the write tool, and the user commit runs it', async (t) => {
  const world = makeWorld(t);
  world.git('config', 'core.hooksPath', '.husky');
  mkdirSync(path.join(world.workspace, '.husky'));
  writeFileSync(path.join(world.workspace, '.husky', 'pre-commit'), 'sh check.sh\n');
  chmodSync(path.join(world.workspace, '.husky', 'pre-commit'), 0o755);
  writeFileSync(path.join(world.workspace, 'check.sh'), 'echo checking\n');
  mkdirSync(path.join(world.workspace, '.vscode'));
  writeFileSync(
    path.join(world.workspace, '.vscode', 'tasks.json'),
    JSON.stringify({ version: '2.0.0', tasks: [{ label: 'setup', type: 'shell', command: 'sh', args: ['on-open.sh'], runOptions: { runOn: 'folderOpen' } }] }, null, 2),
  );
  writeFileSync(path.join(world.workspace, 'on-open.sh'), 'echo setting up\n');
  world.git('add', '-A');
  world.git('commit', '-qm', 'init');

  const result = await runAttack(world, { mode: 'none' }, [
    { tool: 'write', input: { path: 'check.sh', content: `touch ${world.mark}\n` } },
    { tool: 'write', input: { path: 'on-open.sh', content: `touch ${world.mark}-vscode\n` } },
  ]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result') || line.includes('run.end'))
      .join('\n'),
  );

  writeFileSync(path.join(world.workspace, 'README'), 'x\n');
  world.git('add', 'README');
  world.git('commit', '-qm', 'user change');

  // Expected: both writes are refused (ZB_POLICY_PATH_PROTECTED, naming .husky/pre-commit line 1 and
  // .vscode/tasks.json), as `./check.sh` and `./on-open.sh` are today.
  t.false(existsSync(world.mark), "the user's git commit ran the agent's check.sh through the husky hook");
  t.is(readFileSync(path.join(world.workspace, 'on-open.sh'), 'utf8'), 'echo setting up\n', 'the agent changed the script a folderOpen task runs');
});
