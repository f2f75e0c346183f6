// Found by the fresh adversarial review of issue 21 (second round; failed on d860bcf, fixed in tool-file-references.ts).
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
import { makeWorld, runAttack, writeAll } from './world.js';

test('a script a husky hook runs as `sh check.sh`, or a task as `"args": ["on-open.sh"]`, is refused to the write tool, and the user commit runs nothing of the agent', async (t) => {
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

test('the write tool never writes what a task runs in its options.cwd, what a hook runs after a cd, or what a nix shellHook runs', async (t) => {
  const world = makeWorld(t);
  mkdirSync(path.join(world.workspace, '.vscode'));
  const task = { label: 'setup', command: './run.sh', options: { cwd: '${workspaceFolder}/scripts' }, runOptions: { runOn: 'folderOpen' } };
  writeFileSync(path.join(world.workspace, '.vscode', 'tasks.json'), JSON.stringify({ version: '2.0.0', tasks: [task] }, null, 2));
  mkdirSync(path.join(world.workspace, '.husky'));
  writeFileSync(path.join(world.workspace, '.husky', 'pre-commit'), 'cd tools && sh lint.sh\n');
  writeFileSync(path.join(world.workspace, '.envrc'), 'use nix\n');
  writeFileSync(path.join(world.workspace, 'shell.nix'), '{ pkgs ? import <nixpkgs> {} }: pkgs.mkShell {\n  shellHook = "source env.sh; sh ${./scripts}/init.sh";\n}\n');
  const written = await writeAll(world, ['scripts/run.sh', 'tools/lint.sh', 'env.sh', 'scripts/init.sh'], `touch ${world.mark}\n`);
  t.deepEqual(written, [], 'each is run by a tool on its own: VS Code on folder open, husky on commit, direnv and nix on entering the directory');
});

test('a hook whose cd zotbox cannot work out refuses every write (closed world), naming the line', async (t) => {
  const world = makeWorld(t);
  mkdirSync(path.join(world.workspace, '.husky'));
  writeFileSync(path.join(world.workspace, '.husky', 'pre-commit'), 'cd "$HOOK_DIR" && sh lint.sh\n');
  const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: 'notes.txt', content: 'x\n' } }]);
  t.regex(result.stdout, /cannot tell which files the user's tools would run: [^"]*pre-commit line 1/u);
  t.false(existsSync(path.join(world.workspace, 'notes.txt')));
});
