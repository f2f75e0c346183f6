// Git is not a code-execution channel (issue 9 §3): during a run, git never runs
// a program that configuration names, whoever wrote it; after a run, nothing the
// agent left makes the user's own git run anything. Each payload writes a marker
// file; the tests check the marker never appears (and that the same payload does
// run with plain git, so the tests can fail).
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandboxWorld } from '../../../fixtures/sandbox-world.js';

/** Runs the host's git the way a user would, with no zotbox environment (HOME and config of a test home). */
function userGit(t: ExecutionContext, cwd: string, args: string[]): void {
  const home = path.join(cwd, '..', 'user-home');
  mkdirSync(home, { recursive: true });
  try {
    execFileSync('git', args, {
      cwd,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' },
      stdio: 'ignore',
    });
  } catch (error) {
    t.log(`git ${args.join(' ')} failed: ${(error as Error).message.split('\n')[0]!}`); // a failing user command is fine: what counts is the marker
  }
}

function initRepository(directory: string): void {
  mkdirSync(directory, { recursive: true });
  execFileSync('git', ['init', '-q', directory], { env: { PATH: '/usr/bin:/bin', HOME: directory, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** A config fragment whose every program touches `marker`. */
function payloadConfig(marker: string): string {
  return `[core]\n\tfsmonitor = touch ${marker}-fsmonitor; echo\n\thooksPath = hooks\n[filter "x"]\n\tclean = touch ${marker}-filter; cat\n\tsmudge = touch ${marker}-filter; cat\n[diff "x"]\n\ttextconv = touch ${marker}-textconv; cat\n`;
}

test('a gitfile pointing at a directory with fsmonitor: confined git status runs nothing (plain git would)', async (t) => {
  const world = sandboxWorld(t);
  initRepository(path.join(world.ws, 'evil-src'));
  renameSync(path.join(world.ws, 'evil-src', '.git'), path.join(world.ws, 'evil'));
  mkdirSync(path.join(world.ws, 'sub'));
  writeFileSync(path.join(world.ws, 'sub', '.git'), 'gitdir: ../evil\n');
  const marker = path.join(world.ws, 'PWNED');
  writeFileSync(path.join(world.ws, 'evil', 'config'), `${readFileSync(path.join(world.ws, 'evil', 'config'), 'utf8')}${payloadConfig(marker)}`);
  const result = await world.run('cd sub && git status --short && git diff');
  t.is(result.exitCode, 0, result.stderr);
  t.false(existsSync(`${marker}-fsmonitor`), 'fsmonitor ran inside the sandbox');
  userGit(t, path.join(world.ws, 'sub'), ['status']);
  t.true(existsSync(`${marker}-fsmonitor`), 'the payload is real: plain git runs it');
});

test("a repository's own filters, textconv and hooks do not run for the agent's git add, diff and commit", async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  const marker = path.join(world.ws, 'RAN');
  writeFileSync(path.join(world.ws, '.git', 'config'), `${readFileSync(path.join(world.ws, '.git', 'config'), 'utf8')}${payloadConfig(marker).replace(/\thooksPath = hooks\n/u, '')}`);
  writeFileSync(path.join(world.ws, '.gitattributes'), '*.txt filter=x diff=x\n');
  mkdirSync(path.join(world.ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(world.ws, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${marker}-hook\n`, { mode: 0o755 });
  writeFileSync(path.join(world.ws, 'a.txt'), 'one\n');
  const result = await world.run('git add a.txt .gitattributes && git commit -qm first && echo two >> a.txt && git diff --stat && git status --short');
  t.is(result.exitCode, 0, result.stderr);
  for (const what of ['fsmonitor', 'filter', 'textconv', 'hook']) t.false(existsSync(`${marker}-${what}`), `${what} ran`);
  t.regex(result.stdout, /a\.txt/);
});

test("writing .git/commondir fails the call, the file is removed, and the user's git status afterwards runs nothing", async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  const marker = path.join(world.root, 'AFTER');
  mkdirSync(path.join(world.ws, 'common'));
  writeFileSync(path.join(world.ws, 'common', 'config'), payloadConfig(marker));
  const error = await t.throwsAsync(world.run('echo ../common > .git/commondir'));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, '.git', 'commondir')));
  userGit(t, world.ws, ['status']);
  t.false(existsSync(`${marker}-fsmonitor`));
});

test('cp -r of a template into .git cannot plant a hook: the hooks directory is read-only, and commits run none', async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  const marker = path.join(world.root, 'HOOKED');
  mkdirSync(path.join(world.ws, 'tpl', 'hooks'), { recursive: true });
  writeFileSync(path.join(world.ws, 'tpl', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
  writeFileSync(path.join(world.ws, 'f.txt'), 'x\n');
  const result = await world.run('cp -r tpl/. .git/; git add f.txt && git commit -qm planted; echo done');
  t.regex(result.stderr, /Read-only file system/);
  t.false(existsSync(path.join(world.ws, '.git', 'hooks', 'pre-commit')));
  t.false(existsSync(marker));
  userGit(t, world.ws, ['commit', '--allow-empty', '-qm', 'user']);
  t.false(existsSync(marker), "the user's next commit runs no planted hook");
});

test('a hook planted where .git had no hooks directory is removed after the call, which fails', async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  execFileSync('rm', ['-rf', path.join(world.ws, '.git', 'hooks')]);
  const error = await t.throwsAsync(world.run('mkdir .git/hooks && printf "#!/bin/sh\\ntouch /tmp/x\\n" > .git/hooks/post-checkout'));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, '.git', 'hooks', 'post-checkout')));
});

test('an agent may create a repository and commit as usual', async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run(
    'mkdir proj && cd proj && git init -q && echo hi > a.txt && git add a.txt && git commit -qm first && git log --format=%s && git remote add origin ../elsewhere && git branch -q side',
  );
  t.is(result.exitCode, 0, result.stderr);
  t.is(result.stdout, 'first\n');
  t.true(existsSync(path.join(world.ws, 'proj', '.git', 'config')));
});

for (const [name, spelling] of [
  ['.git', '.git'],
  ['upper case', '.GIT'],
  ['mixed case', '.Git'],
] as const) {
  test(`a new repository (${name}) whose config names a program is undone after the call, which fails`, async (t) => {
    const world = sandboxWorld(t);
    const error = await t.throwsAsync(world.run(`mkdir -p r/${spelling} && printf '[core]\\n\\tfsmonitor = touch /tmp/pwn\\n' > r/${spelling}/config`));
    t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
    t.false(existsSync(path.join(world.ws, 'r', spelling, 'config')));
  });
}

test('a new gitfile or .git symlink is undone after the call, which fails', async (t) => {
  const world = sandboxWorld(t);
  const gitfile = await t.throwsAsync(world.run('mkdir sub && echo "gitdir: ../evil" > sub/.git'));
  t.is((gitfile as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, 'sub', '.git')));
  const link = await t.throwsAsync(world.run('mkdir other && ln -s ../evil other/.git'));
  t.is((link as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, 'other', '.git')));
});

test('unconfined (--confine off), a changed .git/config is restored and the call fails', async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  const original = readFileSync(path.join(world.ws, '.git', 'config'), 'utf8');
  const error = await t.throwsAsync(world.run('printf "[core]\\n\\tfsmonitor = touch /tmp/pwn\\n" >> .git/config', { confined: false }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.is(readFileSync(path.join(world.ws, '.git', 'config'), 'utf8'), original);
});

test(".git cannot be renamed away and made anew with a config of the command's choosing", async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  const marker = path.join(world.root, 'RENAMED');
  const original = readFileSync(path.join(world.ws, '.git', 'config'), 'utf8');
  await world
    .run(`mv .git .git-old && mkdir .git && cp -r .git-old/objects .git-old/refs .git-old/HEAD .git/ && printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' > .git/config`)
    .catch(() => undefined);
  t.is(readFileSync(path.join(world.ws, '.git', 'config'), 'utf8'), original);
  userGit(t, world.ws, ['status']);
  t.false(existsSync(marker));
});

test('a directory shaped like a repository (HEAD, objects, refs) under any name is held to the same rules', async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  mkdirSync(path.join(world.ws, 'src'));
  const error = await t.throwsAsync(world.run('cd src && cp -r ../.git/objects ../.git/refs ../.git/HEAD . && printf "[core]\\n\\tbare = true\\n\\tpager = touch /tmp/pwn\\n" > config'));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, 'src', 'config')));
});

test('a config file the repository includes from the worktree is read-only too, and cannot be created', async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  writeFileSync(path.join(world.ws, '.git', 'config'), `${readFileSync(path.join(world.ws, '.git', 'config'), 'utf8')}[include]\n\tpath = ../project.gitconfig\n`);
  const marker = path.join(world.root, 'INCLUDED');
  const error = await t.throwsAsync(world.run(`printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' > project.gitconfig`));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, 'project.gitconfig')));
  writeFileSync(path.join(world.ws, 'project.gitconfig'), '[user]\n\tname = me\n');
  const write = await world.run(`printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' >> project.gitconfig`);
  t.regex(write.stderr, /Read-only file system/);
  userGit(t, world.ws, ['status']);
  t.false(existsSync(marker));
});

test('repositories at any depth of the agent data directory are protected as well', async (t) => {
  const world = sandboxWorld(t);
  initRepository(path.join(world.data, 'proj'));
  const result = await world.run(`printf '#!/bin/sh\\nid\\n' > ${world.data}/proj/.git/hooks/post-commit`);
  t.regex(result.stderr, /Read-only file system/);
  t.false(existsSync(path.join(world.data, 'proj', '.git', 'hooks', 'post-commit')));
});

test('a rebase left with an exec line for the user to continue is undone, and the call fails', async (t) => {
  const world = sandboxWorld(t);
  initRepository(world.ws);
  const error = await t.throwsAsync(world.run('mkdir -p .git/rebase-merge && printf "pick 0000000 one\\nexec touch /tmp/pwn\\n" > .git/rebase-merge/git-rebase-todo'));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.false(existsSync(path.join(world.ws, '.git', 'rebase-merge', 'git-rebase-todo')));
});

for (const [name, command] of [
  [
    'a repository inside a directory shaped like one',
    'mkdir -p proj/objects proj/refs && echo "ref: refs/heads/main" > proj/HEAD && git init -q proj/src && printf "[core]\\n\\tfsmonitor = touch /tmp/pwn\\n" >> proj/src/.git/config',
  ],
  ['the workspace root itself shaped like a repository', 'mkdir objects refs && echo "ref: refs/heads/main" > HEAD && printf "[core]\\n\\tworktree = .\\n\\tfsmonitor = touch /tmp/pwn\\n" > config'],
  [
    'objects and refs as links',
    'mkdir r && git init -q --bare store && ln -s ../store/objects r/objects && ln -s ../store/refs r/refs && echo "ref: refs/heads/main" > r/HEAD && printf "[core]\\n\\tpager = touch /tmp/pwn\\n" > r/config',
  ],
  [
    'a repository made through commondir',
    'git init -q --bare c && mkdir r && echo "ref: refs/heads/main" > r/HEAD && echo ../c > r/commondir && printf "[core]\\n\\tpager = touch /tmp/pwn\\n" >> c/config',
  ],
  [
    'a config past the size zotbox reads whole',
    'git init -q big && head -c 1100000 /dev/zero | tr "\\\\0" "#" | fold -w 100 >> big/.git/config && printf "\\n[core]\\n\\tfsmonitor = touch /tmp/pwn\\n" >> big/.git/config',
  ],
] as const) {
  test(`git metadata left in ${name} is undone and the call fails`, async (t) => {
    const world = sandboxWorld(t);
    const error = await t.throwsAsync(world.run(command));
    t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_GIT_PROGRAM', error.message);
  });
}

test("making a directory shaped like a repository around a user's nested repository does not unprotect it", async (t) => {
  const world = sandboxWorld(t);
  initRepository(path.join(world.ws, 'lib'));
  const config = readFileSync(path.join(world.ws, 'lib', '.git', 'config'), 'utf8');
  await world.run('mkdir lib/objects lib/refs && echo "ref: refs/heads/main" > lib/HEAD').catch(() => undefined);
  const second = await world.run('printf "[core]\\n\\tfsmonitor = touch /tmp/pwn\\n" >> lib/.git/config');
  t.regex(second.stderr, /Read-only file system/);
  t.is(readFileSync(path.join(world.ws, 'lib', '.git', 'config'), 'utf8'), config);
});
