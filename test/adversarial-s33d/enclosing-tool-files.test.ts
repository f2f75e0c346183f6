// Finding (s33d): the tool files that name protected scripts are read only where they lie inside a write scope.
// When the workspace is a package of a larger repository (a monorepo; the case docs/security.md names for git
// config), the enclosing repository's husky hook and the parent directory's .envrc lie outside the scopes, so what
// they name inside the package is not protected: the write tool plants pkg/scripts/check.sh, which the root
// pre-commit hook runs on the user's next commit, and pkg/bin/git, which the root .envrc (PATH_add pkg/bin) puts
// first on PATH when the user's shell enters pkg/.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, userRuns, type World } from './world.js';

/** The repository is the world's workspace; the agent's workspace is its package pkg/. */
function monorepo(t: ExecutionContext): { world: World; pkg: string } {
  const world = makeWorld(t);
  const pkg = path.join(world.workspace, 'pkg');
  mkdirSync(path.join(pkg, 'scripts'), { recursive: true });
  mkdirSync(path.join(pkg, 'bin'));
  mkdirSync(path.join(world.workspace, '.husky'));
  userRuns(world, 'git', ['init', '-q']);
  userRuns(world, 'git', ['config', 'core.hooksPath', '.husky']);
  writeFileSync(path.join(world.workspace, '.husky', 'pre-commit'), '#!/bin/sh\nsh pkg/scripts/check.sh\n');
  chmodSync(path.join(world.workspace, '.husky', 'pre-commit'), 0o755);
  writeFileSync(path.join(pkg, 'scripts', 'check.sh'), 'echo checked\n');
  writeFileSync(path.join(world.workspace, 'README.md'), 'project\n');
  return { world, pkg };
}

test("a script the enclosing repository's pre-commit hook runs is not the agent's to write", async (t) => {
  const { world, pkg } = monorepo(t);
  const marker = path.join(world.root, 'PWNED');
  const result = await world.run([{ write: 'scripts/check.sh', content: `touch ${marker}\n` }], { cwd: pkg });
  t.is(result.status, 0, result.stderr);
  userRuns(world, 'git', ['add', 'README.md']);
  userRuns(world, 'git', ['-c', 'user.email=u@example.com', '-c', 'user.name=u', 'commit', '-q', '-m', 'docs']);
  t.is(readFileSync(path.join(pkg, 'scripts', 'check.sh'), 'utf8'), 'echo checked\n', 'the agent rewrote the script the root hook runs');
  t.false(existsSync(marker), "the user's commit ran a script the agent wrote");
});

test("a program in a directory the parent .envrc puts on PATH is not the agent's to write", async (t) => {
  const { world, pkg } = monorepo(t);
  const marker = path.join(world.root, 'PWNED');
  writeFileSync(path.join(world.workspace, '.envrc'), 'PATH_add pkg/bin\n');
  const result = await world.run([{ write: 'bin/git', content: `#!/bin/sh\ntouch ${marker}\n` }, { bash: 'chmod +x bin/git' }], { bash: 'ask', cwd: pkg });
  t.is(result.status, 0, result.stderr);
  userRuns(world, 'direnv', ['allow', '.']);
  userRuns(world, 'direnv', ['exec', '.', 'sh', '-c', 'git status --short'], {}, pkg);
  t.false(existsSync(path.join(pkg, 'bin', 'git')), 'the agent wrote a program into a directory the parent .envrc puts on PATH');
  t.false(existsSync(marker), "the user's git in pkg/ ran a program the agent wrote");
});
