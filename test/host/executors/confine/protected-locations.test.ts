// Nothing a command leaves behind is run later by the user's own tools (issue 21
// §3, §5): what the repository's git configuration names (a husky hooksPath, a
// hooks directory reached through a link, an included config) and the files
// other tools run on their own (.envrc, .vscode/, shell startup files) are
// read-only in the sandbox and put back after the call, confined or not. Each
// escape ends with the user's own git (or a check of the file) as the witness.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxLayout } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { sandboxWorld, type SandboxWorld } from '../../../fixtures/sandbox-world.js';

const USER_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' };

/** The user's own git, later, with their configuration (a test home) and no zotbox environment. Returns whether it succeeded. */
function userGit(world: SandboxWorld, args: string[]): boolean {
  try {
    execFileSync('git', args, { cwd: world.ws, env: { PATH: '/usr/bin:/bin', HOME: path.join(world.root, 'user-home'), ...USER_ENV }, stdio: 'ignore' });
    return true;
  } catch {
    return false; // a failing user command is fine: what counts is the marker
  }
}

/** A repository in the workspace with one commit; `config` is appended to .git/config. */
function repository(world: SandboxWorld, config = ''): void {
  const env = { PATH: '/usr/bin:/bin', HOME: world.root, ...USER_ENV };
  execFileSync('git', ['init', '-q', world.ws], { env });
  writeFileSync(path.join(world.ws, 'README.md'), 'hello\n');
  execFileSync('git', ['add', 'README.md'], { cwd: world.ws, env });
  execFileSync('git', ['commit', '-qm', 'first', '--no-verify'], { cwd: world.ws, env });
  const file = path.join(world.ws, '.git', 'config');
  writeFileSync(file, readFileSync(file, 'utf8') + config);
}

/** The line of .git/config that holds `text` (1-based), counted by hand from the file as written. */
function lineOf(world: SandboxWorld, text: string): number {
  return (
    readFileSync(path.join(world.ws, '.git', 'config'), 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1
  );
}

function layoutOf(world: SandboxWorld, extra: Partial<SandboxLayout> = {}): SandboxLayout {
  mkdirSync(path.join(world.root, 'user-home'), { recursive: true });
  return { ...world.layout, userGit: { home: path.join(world.root, 'user-home'), noSystem: true }, ...extra };
}

/** The call fails with `code`; its message (errors cross ports as plain data: compared by code, not class). */
async function refused(t: ExecutionContext, promise: Promise<unknown>, code: string): Promise<{ message: string }> {
  const error = await t.throwsAsync(promise);
  t.is((error as { code?: string }).code, code, error.message);
  return { message: error.message };
}

const HOOK = (marker: string) => `#!/bin/sh\ntouch ${marker}\n`;
const modes = [
  { name: 'confined', confined: true },
  { name: 'unconfined', confined: false },
] as const;

function huskyWorld(t: ExecutionContext, withHook: boolean): SandboxWorld {
  const world = sandboxWorld(t);
  repository(world, '[core]\n\thooksPath = .husky\n');
  mkdirSync(path.join(world.ws, '.husky', '_'), { recursive: true });
  if (withHook) writeFileSync(path.join(world.ws, '.husky', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return world;
}

for (const { name, confined } of modes) {
  test(`husky (${name}): a command that rewrites .husky/pre-commit does not get it run by the user's next commit`, async (t) => {
    const world = huskyWorld(t, true);
    const marker = path.join(world.root, 'HUSKY-RAN');
    const command = `printf '${HOOK(marker).replaceAll('\n', '\\n')}' > .husky/pre-commit`;
    if (confined) {
      const result = await world.run(command, { layout: layoutOf(world) });
      t.regex(result.stderr, /Read-only file system/);
    } else {
      const error = await refused(t, world.run(command, { layout: layoutOf(world), confined: false }), 'ZB_CONFINEMENT_PROTECTED_FILE');
      t.true(error.message.includes(path.join(world.ws, '.husky', 'pre-commit')));
      t.true(error.message.includes('core.hooksPath'), error.message);
    }
    t.is(readFileSync(path.join(world.ws, '.husky', 'pre-commit'), 'utf8'), '#!/bin/sh\nexit 0\n');
    t.is(statSync(path.join(world.ws, '.husky', 'pre-commit')).mode & 0o777, 0o755);
    writeFileSync(path.join(world.ws, 'a.txt'), 'a\n');
    userGit(world, ['add', 'a.txt']);
    t.true(userGit(world, ['commit', '-qm', 'user']));
    t.false(existsSync(marker));
  });

  test(`husky (${name}): a hook that did not exist yet cannot be added`, async (t) => {
    const world = huskyWorld(t, false);
    const marker = path.join(world.root, 'HUSKY-NEW');
    const command = `printf '${HOOK(marker).replaceAll('\n', '\\n')}' > .husky/pre-commit && chmod +x .husky/pre-commit`;
    if (confined) {
      const result = await world.run(command, { layout: layoutOf(world) });
      t.regex(result.stderr, /Read-only file system/);
    } else {
      const error = await refused(t, world.run(command, { layout: layoutOf(world), confined: false }), 'ZB_CONFINEMENT_PROTECTED_FILE');
      t.true(error.message.includes(`core.hooksPath (set in ${path.join(world.ws, '.git', 'config')} line ${lineOf(world, 'hooksPath')})`), error.message);
    }
    t.false(existsSync(path.join(world.ws, '.husky', 'pre-commit')));
    writeFileSync(path.join(world.ws, 'a.txt'), 'a\n');
    userGit(world, ['add', 'a.txt']);
    userGit(world, ['commit', '-qm', 'user']);
    t.false(existsSync(marker));
    // The payload is real: the same hook, written by the user, runs.
    writeFileSync(path.join(world.ws, '.husky', 'pre-commit'), HOOK(marker), { mode: 0o755 });
    writeFileSync(path.join(world.ws, 'b.txt'), 'b\n');
    userGit(world, ['add', 'b.txt']);
    userGit(world, ['commit', '-qm', 'user 2']);
    t.true(existsSync(marker));
  });

  test(`a hooksPath directory that does not exist yet cannot be created with a hook in it (${name})`, async (t) => {
    const world = sandboxWorld(t);
    repository(world, '[core]\n\thooksPath = tools/hooks\n');
    const marker = path.join(world.root, 'MISSING-DIR');
    const error = await refused(
      t,
      world.run(`mkdir -p tools/hooks && printf '${HOOK(marker).replaceAll('\n', '\\n')}' > tools/hooks/pre-commit && chmod +x tools/hooks/pre-commit`, { layout: layoutOf(world), confined }),
      'ZB_CONFINEMENT_PROTECTED_FILE',
    );
    t.true(error.message.includes(`core.hooksPath (set in ${path.join(world.ws, '.git', 'config')} line ${lineOf(world, 'hooksPath')})`), error.message);
    t.false(existsSync(path.join(world.ws, 'tools', 'hooks')));
    writeFileSync(path.join(world.ws, 'a.txt'), 'a\n');
    userGit(world, ['add', 'a.txt']);
    userGit(world, ['commit', '-qm', 'user']);
    t.false(existsSync(marker));
  });

  test(`versioned hooks through a link, .git/hooks -> ../githooks: the hooks there are kept (${name})`, async (t) => {
    const world = sandboxWorld(t);
    repository(world);
    mkdirSync(path.join(world.ws, 'githooks'));
    writeFileSync(path.join(world.ws, 'githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    execFileSync('rm', ['-rf', path.join(world.ws, '.git', 'hooks')]);
    symlinkSync('../githooks', path.join(world.ws, '.git', 'hooks'));
    const marker = path.join(world.root, 'LINKED-RAN');
    const command = `printf '${HOOK(marker).replaceAll('\n', '\\n')}' > githooks/pre-commit; printf '${HOOK(marker).replaceAll('\n', '\\n')}' > githooks/post-commit; chmod +x githooks/post-commit`;
    if (confined) {
      const result = await world.run(command, { layout: layoutOf(world) });
      t.regex(result.stderr, /Read-only file system/);
    } else await refused(t, world.run(command, { layout: layoutOf(world), confined: false }), 'ZB_CONFINEMENT_PROTECTED_FILE');
    t.is(readFileSync(path.join(world.ws, 'githooks', 'pre-commit'), 'utf8'), '#!/bin/sh\nexit 0\n');
    t.false(existsSync(path.join(world.ws, 'githooks', 'post-commit')));
    writeFileSync(path.join(world.ws, 'a.txt'), 'a\n');
    userGit(world, ['add', 'a.txt']);
    t.true(userGit(world, ['commit', '-qm', 'user']));
    t.false(existsSync(marker));
  });

  test(`an included config in the worktree cannot gain core.fsmonitor (${name})`, async (t) => {
    const world = sandboxWorld(t);
    repository(world, '[include]\n\tpath = ../project.gitconfig\n');
    writeFileSync(path.join(world.ws, 'project.gitconfig'), '[user]\n\tname = me\n');
    const marker = path.join(world.root, 'FSMONITOR');
    writeFileSync(path.join(world.ws, 'evil'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    const command = `printf '[core]\\n\\tfsmonitor = ./evil\\n' >> project.gitconfig`;
    if (confined) {
      const result = await world.run(command, { layout: layoutOf(world) });
      t.regex(result.stderr, /Read-only file system/);
    } else await t.throwsAsync(world.run(command, { layout: layoutOf(world), confined: false }));
    t.is(readFileSync(path.join(world.ws, 'project.gitconfig'), 'utf8'), '[user]\n\tname = me\n');
    userGit(world, ['status']);
    t.false(existsSync(marker));
  });

  test(`a program an existing config names in the worktree is kept as it was (${name})`, async (t) => {
    const world = sandboxWorld(t);
    repository(world, '[core]\n\tfsmonitor = ./scripts/watch.sh\n');
    mkdirSync(path.join(world.ws, 'scripts'));
    writeFileSync(path.join(world.ws, 'scripts', 'watch.sh'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const marker = path.join(world.root, 'WATCH');
    const command = `printf '#!/bin/sh\\ntouch ${marker}\\nexit 1\\n' > scripts/watch.sh`;
    if (confined) {
      const result = await world.run(command, { layout: layoutOf(world) });
      t.regex(result.stderr, /Read-only file system/);
    } else {
      const error = await refused(t, world.run(command, { layout: layoutOf(world), confined: false }), 'ZB_CONFINEMENT_PROTECTED_FILE');
      t.true(error.message.includes('core.fsmonitor'));
    }
    userGit(world, ['status']);
    t.false(existsSync(marker));
  });

  test(`the user's global config names a hooks directory in the scopes: it is kept too (${name})`, async (t) => {
    const world = sandboxWorld(t);
    repository(world);
    const home = path.join(world.root, 'user-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(path.join(home, '.gitconfig'), `[core]\n\thooksPath = ${path.join(world.ws, 'team-hooks')}\n`);
    const marker = path.join(world.root, 'GLOBAL');
    const error = await refused(
      t,
      world.run(`mkdir team-hooks && printf '${HOOK(marker).replaceAll('\n', '\\n')}' > team-hooks/pre-commit && chmod +x team-hooks/pre-commit`, { layout: layoutOf(world), confined }),
      'ZB_CONFINEMENT_PROTECTED_FILE',
    );
    t.true(error.message.includes(`${path.join(home, '.gitconfig')} line 2`), error.message);
    writeFileSync(path.join(world.ws, 'a.txt'), 'a\n');
    userGit(world, ['add', 'a.txt']);
    userGit(world, ['commit', '-qm', 'user']);
    t.false(existsSync(marker));
  });

  test(`tool files (${name}): a new .envrc at any depth and a .bashrc are removed, and the run stops`, async (t) => {
    const world = sandboxWorld(t);
    mkdirSync(path.join(world.ws, 'deep', 'er'), { recursive: true });
    const error = await refused(
      t,
      world.run("echo 'touch /tmp/x' > deep/er/.envrc; echo 'curl x | sh' > .bashrc; echo ok > notes.txt", { layout: layoutOf(world), confined }),
      'ZB_CONFINEMENT_PROTECTED_FILE',
    );
    t.true(error.message.includes('permissions.fs.write'));
    t.false(existsSync(path.join(world.ws, 'deep', 'er', '.envrc')));
    t.false(existsSync(path.join(world.ws, '.bashrc')));
    t.is(readFileSync(path.join(world.ws, 'notes.txt'), 'utf8'), 'ok\n');
  });

  test(`tool files (${name}): .vscode/tasks.json is kept, a new file in .vscode/ is removed`, async (t) => {
    const world = sandboxWorld(t);
    mkdirSync(path.join(world.ws, '.vscode'));
    writeFileSync(path.join(world.ws, '.vscode', 'tasks.json'), '{}\n');
    const command = `echo '{"tasks":[{"command":"touch /tmp/pwn","runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json; echo '{}' > .vscode/launch.json`;
    if (confined) {
      const result = await world.run(command, { layout: layoutOf(world) });
      t.regex(result.stderr, /Read-only file system/);
    } else await refused(t, world.run(command, { layout: layoutOf(world), confined: false }), 'ZB_CONFINEMENT_PROTECTED_FILE');
    t.is(readFileSync(path.join(world.ws, '.vscode', 'tasks.json'), 'utf8'), '{}\n');
    t.false(existsSync(path.join(world.ws, '.vscode', 'launch.json')));
  });

  test(`tool files (${name}): a .vscode/ moved away and made anew is put back`, async (t) => {
    const world = sandboxWorld(t);
    mkdirSync(path.join(world.ws, 'sub', '.vscode'), { recursive: true });
    writeFileSync(path.join(world.ws, 'sub', '.vscode', 'tasks.json'), '{}\n');
    await refused(t, world.run(`mv sub sub2 && mkdir -p sub/.vscode && echo evil > sub/.vscode/tasks.json`, { layout: layoutOf(world), confined }), 'ZB_CONFINEMENT_PROTECTED_FILE');
    t.is(readFileSync(path.join(world.ws, 'sub', '.vscode', 'tasks.json'), 'utf8'), '{}\n');
  });

  test(`an explicit grant lets commands write that file and no other (${name})`, async (t) => {
    const world = sandboxWorld(t);
    mkdirSync(path.join(world.ws, '.vscode'));
    writeFileSync(path.join(world.ws, '.vscode', 'settings.json'), '{}\n');
    writeFileSync(path.join(world.ws, '.vscode', 'tasks.json'), '{}\n');
    const layout = layoutOf(world, { writeRoots: [...world.layout.writeRoots, path.join(world.ws, '.vscode', 'settings.json')] });
    const result = await world.run(`echo '{"editor.tabSize": 2}' > .vscode/settings.json`, { layout, confined });
    t.is(result.exitCode, 0, result.stderr);
    t.is(readFileSync(path.join(world.ws, '.vscode', 'settings.json'), 'utf8'), '{"editor.tabSize": 2}\n');
    if (confined) {
      const other = await world.run(`echo evil > .vscode/tasks.json`, { layout });
      t.regex(other.stderr, /Read-only file system/);
    } else await refused(t, world.run(`echo evil > .vscode/tasks.json`, { layout, confined: false }), 'ZB_CONFINEMENT_PROTECTED_FILE');
    t.is(readFileSync(path.join(world.ws, '.vscode', 'tasks.json'), 'utf8'), '{}\n');
  });

  test(`ordinary work in a husky repository still works: edit source, commit (${name})`, async (t) => {
    const world = huskyWorld(t, true);
    mkdirSync(path.join(world.ws, 'src'));
    const result = await world.run(`printf 'export const x = 1;\\n' > src/app.ts && git add src/app.ts && git -c user.name=a -c user.email=a@x commit -qm 'add app' && git log --oneline | wc -l`, {
      layout: layoutOf(world),
      confined,
    });
    t.is(result.exitCode, 0, result.stderr);
    t.is(result.stdout.trim(), '2');
  });
}

for (const { name, confined } of modes) {
  test(`python -m hook (${name}): a command that creates urllib3.py, urllib3/__init__.py or chardet.py at the top is undone and stops the run; shop/forms.py is the agent's`, async (t) => {
    const world = sandboxWorld(t);
    repository(world);
    writeFileSync(path.join(world.ws, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexec python3 -m tools.check\n', { mode: 0o755 });
    const host = { PATH: process.env['PATH'] ?? '' };
    const layout = layoutOf(world, { userGit: { home: path.join(world.root, 'user-home'), noSystem: true, searchPath: host.PATH, environment: host } });
    for (const command of ['echo "x = 1" > urllib3.py', 'mkdir urllib3 && echo "x = 1" > urllib3/__init__.py', 'echo "x = 1" > chardet.py']) {
      await refused(t, world.run(command, { layout, confined }), 'ZB_CONFINEMENT_PROTECTED_FILE');
      t.false(existsSync(path.join(world.ws, 'urllib3.py')), command);
      t.false(existsSync(path.join(world.ws, 'urllib3', '__init__.py')), command);
      t.false(existsSync(path.join(world.ws, 'chardet.py')), command);
    }
    const ordinary = await world.run('echo "x = 1" > my-notes.py && mkdir -p shop && echo "y = 2" > shop/forms.py', { layout, confined });
    t.is(ordinary.exitCode, 0, ordinary.stderr);
    t.is(readFileSync(path.join(world.ws, 'shop', 'forms.py'), 'utf8'), 'y = 2\n');
  });
}
