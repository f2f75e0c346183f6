// Found by the fresh adversarial review of issue 21 (second round; failed on d860bcf, fixed in tool-file-references.ts).
// zotbox protects the directories an .envrc puts on PATH (tool-file-references.ts),
// but models direnv's `layout` as "a virtual environment in .direnv/" for every
// layout but node. direnv's own `layout php` is `PATH_add vendor/bin`: the agent
// writes `vendor/bin/git`, and the user's next `git` in that directory (direnv
// loaded, the .envrc unchanged and still allowed) runs it. The same holds for
// `PATH=bin:$PATH` (a relative PATH entry has no "/", so it is not read as a path)
// and `VIRTUAL_ENV=venv` before `layout python` (its bin/ goes on PATH; only
// activate and python are protected there).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack, writeAll } from './world.js';

test("direnv's layout php puts vendor/bin on PATH: the write tool is refused vendor/bin/git, and the user's git runs nothing of the agent", async (t) => {
  const world = makeWorld(t);
  writeFileSync(path.join(world.workspace, '.envrc'), 'layout php\n');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: world.root, GIT_CONFIG_NOSYSTEM: '1' };
  // The user allowed this .envrc (direnv approves its bytes); the agent never changes it.
  execFileSync('direnv', ['allow', world.workspace], { cwd: world.workspace, env });

  const result = await runAttack(world, { mode: 'allowlist', allow: ['chmod'] }, [
    { tool: 'write', input: { path: 'vendor/bin/git', content: `#!/bin/sh\ntouch ${world.mark}\n` } },
    { tool: 'bash', input: { command: 'chmod u+x vendor/bin/git' } },
  ]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result') || line.includes('run.end'))
      .join('\n'),
  );

  // The user enters the directory (direnv loads the .envrc) and runs git.
  execFileSync('direnv', ['exec', world.workspace, 'git', 'status'], { cwd: world.workspace, env, stdio: 'ignore' });

  // Expected: vendor/bin is protected as a directory the .envrc puts on PATH; the write is refused
  // (ZB_POLICY_PATH_PROTECTED naming .envrc line 1), and nothing of the agent's runs.
  t.false(existsSync(world.mark), "the user's git command ran the agent's vendor/bin/git");
  t.false(existsSync(path.join(world.workspace, 'vendor', 'bin', 'git')), 'the agent wrote a program into a directory direnv puts on PATH');
});

test("a virtual environment's bin/ is on PATH once activated: the write tool is refused .venv/bin/git, and the user's git runs nothing of the agent", async (t) => {
  const world = makeWorld(t);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: world.root, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('python3', ['-m', 'venv', '--without-pip', '.venv'], { cwd: world.workspace, env });

  const result = await runAttack(world, { mode: 'allowlist', allow: ['chmod'] }, [
    { tool: 'write', input: { path: '.venv/bin/git', content: `#!/bin/sh\ntouch ${world.mark}\n` } },
    { tool: 'bash', input: { command: 'chmod u+x .venv/bin/git' } },
  ]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result') || line.includes('run.end'))
      .join('\n'),
  );

  // What an editor's terminal does on its own, then the user's git.
  execFileSync('sh', ['-c', '. .venv/bin/activate && git status'], { cwd: world.workspace, env, stdio: 'ignore' });

  // Expected: a virtual environment's bin/ is protected whole (what activation puts on PATH), so the
  // write is refused (ZB_POLICY_PATH_PROTECTED) and nothing of the agent's runs.
  t.false(existsSync(world.mark), "the user's git command ran the agent's .venv/bin/git");
  t.false(existsSync(path.join(world.workspace, '.venv', 'bin', 'git')), 'the agent wrote a program into a directory activation puts on PATH');
});

for (const { files, written, by } of [
  { files: { '.envrc': 'export PATH=bin:$PATH\n' }, written: 'bin/git', by: '.envrc PATH=bin:$PATH' },
  { files: { '.envrc': 'export VIRTUAL_ENV=.venv\nlayout python3\n' }, written: '.venv/bin/git', by: '.envrc VIRTUAL_ENV and layout python3' },
  { files: { '.envrc': 'layout python ./py\n' }, written: 'py', by: '.envrc layout python ./py' },
  { files: { '.vscode/settings.json': JSON.stringify({ 'terminal.integrated.env.linux': { PATH: '${workspaceFolder}/tools:${env:PATH}' } }) }, written: 'tools/git', by: 'VS Code terminal PATH' },
]) {
  test(`the write tool is refused ${written}, which a tool file puts on PATH or runs (${by})`, async (t) => {
    const world = makeWorld(t);
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(world.workspace, name)), { recursive: true });
      writeFileSync(path.join(world.workspace, name), content);
    }
    t.deepEqual(await writeAll(world, [written], `#!/bin/sh\ntouch ${world.mark}\n`), []);
  });
}

test("a command cannot write a program into a virtual environment's bin/: it is read-only in the sandbox", async (t) => {
  const world = makeWorld(t);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: world.root };
  execFileSync('python3', ['-m', 'venv', '--without-pip', '.venv'], { cwd: world.workspace, env });
  const result = await runAttack(world, { mode: 'allowlist', allow: ['python3'] }, [
    { tool: 'write', input: { path: 'k.py', content: "try:\n    open('.venv/bin/git', 'w').write('#!/bin/sh\\ntouch x\\n')\nexcept OSError as error:\n    print('refused', error.errno)\n" } },
    { tool: 'bash', input: { command: 'python3 k.py' } },
  ]);
  t.log(result.stdout);
  t.false(existsSync(path.join(world.workspace, '.venv', 'bin', 'git')), 'the program the command wrote is gone');
  // Bound read-only in the sandbox (EROFS, 30), or removed after the command with the run stopped.
  t.regex(result.stdout, /refused 30|ZB_CONFINEMENT_PROTECTED_FILE/u, 'the command could not write it, or the run stopped naming it');
});
