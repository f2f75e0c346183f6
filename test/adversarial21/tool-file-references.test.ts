// What a protected tool file names is protected as the tool file is (review of issue 21, briefed without the
// tests; class: other tools' files, the analogue for tools other than git of the files a git config value names).
// The user's .envrc, allowed once with `direnv allow`, sources .envrc.local (the common local-override pattern);
// direnv approves the bytes of .envrc only and runs what it sources when the user's shell enters the directory.
// A .vscode/tasks.json task with "runOn": "folderOpen" names a script VS Code runs when the folder is opened.
// Through the write tool alone and through bash, with the real CLI, real direnv and real bubblewrap.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack, type World } from './world.js';

const PYTHON = { mode: 'allowlist', allow: ['python3'] } as const;

function withFiles(t: ExecutionContext, files: Readonly<Record<string, string>>): World {
  const world = makeWorld(t);
  for (const [name, content] of Object.entries({ 'README.md': 'hello\n', ...files })) {
    mkdirSync(path.dirname(path.join(world.workspace, name)), { recursive: true });
    writeFileSync(path.join(world.workspace, name), content);
  }
  world.git('add', '-A');
  world.git('commit', '-qm', 'init');
  return world;
}

/** The user's shell entering the workspace, later: direnv's hook runs `direnv export`, with the user's allowed .envrc. */
function userEntersDirectory(world: World): void {
  const env = { PATH: '/usr/bin:/bin', HOME: path.join(world.root, 'user') };
  mkdirSync(env.HOME, { recursive: true });
  execFileSync('direnv', ['allow', world.workspace], { env, stdio: 'ignore' });
  try {
    execFileSync('direnv', ['export', 'bash'], { cwd: world.workspace, env, stdio: 'ignore' });
  } catch {
    // what counts is the mark
  }
}

const SOURCED: readonly { readonly envrc: string; readonly file: string }[] = [
  { envrc: 'source_env_if_exists .envrc.local\n', file: '.envrc.local' },
  { envrc: 'source_env scripts/env.sh\n', file: 'scripts/env.sh' },
  { envrc: 'watch_file flake.lock\nsource_up_if_exists\nexport NAME=value\nsource_env "$PWD/conf/local.sh"\n', file: 'conf/local.sh' },
];

for (const { envrc, file } of SOURCED) {
  test(`the write tool never plants ${file}, which the allowed .envrc sources`, async (t) => {
    const world = withFiles(t, { '.envrc': envrc });
    const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: file, content: `touch ${world.mark}\n` } }]);
    t.log(result.stdout);
    t.regex(result.stdout, /ZB_POLICY_PATH_PROTECTED/u);
    t.regex(result.stdout, /named by [^"]*\.envrc line/u, 'the reason names the .envrc line');
    t.false(existsSync(path.join(world.workspace, file)));
    userEntersDirectory(world);
    t.false(existsSync(world.mark), "the agent's file ran as the user when their shell entered the directory");
  });
}

test('a command that writes .envrc.local, which the allowed .envrc sources, has it removed and the run stopped', async (t) => {
  const world = withFiles(t, { '.envrc': 'source_env_if_exists .envrc.local\n' });
  const result = await runAttack(world, PYTHON, [
    { tool: 'write', input: { path: 'k.py', content: `open('.envrc.local', 'w').write('touch ${world.mark}')\n` } },
    { tool: 'bash', input: { command: 'python3 k.py' } },
  ]);
  t.log(result.stdout);
  t.regex(result.stdout, /ZB_CONFINEMENT_PROTECTED_FILE/u);
  t.false(existsSync(path.join(world.workspace, '.envrc.local')));
  userEntersDirectory(world);
  t.false(existsSync(world.mark));
});

const NAMED: readonly { readonly envrc: string; readonly file: string }[] = [
  { envrc: 'dotenv\n', file: '.env' },
  { envrc: 'dotenv_if_exists config/dev.env\n', file: 'config/dev.env' },
  { envrc: 'use nix\n', file: 'shell.nix' },
  { envrc: 'use flake\n', file: 'flake.nix' },
  { envrc: 'PATH_add bin\n', file: 'bin/git' },
  { envrc: 'export PATH=$PWD/tools:$PATH\n', file: 'tools/ls' },
  { envrc: 'layout node\n', file: 'node_modules/.bin/eslint' },
];

for (const { envrc, file } of NAMED) {
  test(`the write tool never writes ${file}, which "${envrc.trim()}" in the .envrc names`, async (t) => {
    const world = withFiles(t, { '.envrc': envrc });
    const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: file, content: 'x\n' } }]);
    t.regex(result.stdout, /ZB_POLICY_PATH_PROTECTED/u);
    t.false(existsSync(path.join(world.workspace, file)));
  });
}

test('what a nix file of `use nix` imports is protected too', async (t) => {
  const world = withFiles(t, { '.envrc': 'use nix\n', 'shell.nix': 'import ./nix/shell.nix { }\n', 'nix/shell.nix': '{ }: { shellHook = "./nix/hook.sh"; }\n' });
  const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: 'nix/shell.nix', content: 'x\n' } }]);
  t.regex(result.stdout, /ZB_POLICY_PATH_PROTECTED/u);
  t.is(readFileSync(path.join(world.workspace, 'nix/shell.nix'), 'utf8'), '{ }: { shellHook = "./nix/hook.sh"; }\n');
});

test('an .envrc line zotbox does not read refuses writes, with the line named', async (t) => {
  const world = withFiles(t, { '.envrc': 'eval "$(./scripts/gen-env)"\n' });
  const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: 'notes.txt', content: 'x\n' } }]);
  t.log(result.stdout);
  t.regex(result.stdout, /cannot tell which files the user's tools would run: [^"]*\.envrc line 1/u);
  t.false(existsSync(path.join(world.workspace, 'notes.txt')));
});

test('an ordinary .envrc leaves every other file to the agent', async (t) => {
  const world = withFiles(t, { '.envrc': '# project\nexport NODE_ENV=development\nPATH_add bin\nuse flake\n' });
  const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: 'src/main.ts', content: 'x\n' } }]);
  t.false(result.stdout.includes('ZB_'), result.stdout);
  t.true(existsSync(path.join(world.workspace, 'src/main.ts')));
});

test('the write tool never changes the script a folderOpen task runs', async (t) => {
  const tasks = JSON.stringify({ version: '2.0.0', tasks: [{ label: 'setup', type: 'shell', command: './scripts/on-open.sh', runOptions: { runOn: 'folderOpen' } }] });
  const world = withFiles(t, { '.vscode/tasks.json': `${tasks}\n`, 'scripts/on-open.sh': '#!/bin/sh\nnpm ci\n' });
  const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: 'scripts/on-open.sh', content: `#!/bin/sh\ntouch ${world.mark}\n` } }]);
  t.log(result.stdout);
  t.regex(result.stdout, /named by [^"]*tasks\.json line 1/u);
  t.is(readFileSync(path.join(world.workspace, 'scripts/on-open.sh'), 'utf8'), '#!/bin/sh\nnpm ci\n', 'the script VS Code runs when the folder is opened holds the agent payload');
});

test('a command cannot change the script a folderOpen task runs', async (t) => {
  const tasks = JSON.stringify({ version: '2.0.0', tasks: [{ label: 'setup', type: 'shell', command: '${workspaceFolder}/scripts/on-open.sh', runOptions: { runOn: 'folderOpen' } }] });
  const world = withFiles(t, { '.vscode/tasks.json': `${tasks}\n`, 'scripts/on-open.sh': '#!/bin/sh\nnpm ci\n' });
  const result = await runAttack(world, PYTHON, [
    { tool: 'write', input: { path: 'k.py', content: `open('scripts/on-open.sh', 'w').write('touch ${world.mark}')\n` } },
    { tool: 'bash', input: { command: 'python3 k.py' } },
  ]);
  t.regex(result.stdout, /"tool":"bash","ok":true/u, 'the command ran (the sandbox binds the script read-only)');
  t.is(readFileSync(path.join(world.workspace, 'scripts/on-open.sh'), 'utf8'), '#!/bin/sh\nnpm ci\n');
});

test('the edit tool never changes the .env that `dotenv` in the .envrc loads', async (t) => {
  const world = withFiles(t, { '.envrc': 'dotenv\n', '.env': 'NODE_ENV=development\n' });
  const result = await runAttack(world, { mode: 'none' }, [{ tool: 'edit', input: { path: '.env', old_string: 'NODE_ENV=development', new_string: 'BASH_ENV=./x.sh' } }]);
  t.regex(result.stdout, /ZB_POLICY_PATH_PROTECTED/u);
  t.is(readFileSync(path.join(world.workspace, '.env'), 'utf8'), 'NODE_ENV=development\n');
});

test('an .envrc line zotbox does not read refuses commands too', async (t) => {
  const world = withFiles(t, { '.envrc': 'eval "$(./scripts/gen-env)"\n', 'k.py': "open('scripts/gen-env', 'w').write('touch x')\n" });
  const result = await runAttack(world, PYTHON, [{ tool: 'bash', input: { command: 'python3 k.py' } }]);
  t.regex(result.stdout, /command refused: zotbox cannot tell which files the user's tools would run: [^"]*\.envrc line 1/u);
  t.false(existsSync(path.join(world.workspace, 'scripts/gen-env')));
});
