// What the user's git configuration makes git run or read (issue 21 §3), found
// in real repositories: hooksPath and includes (conditional ones too), program
// paths, the user's global config, and links out of a git directory. Each
// reason names the config file and line, counted by hand here.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { UserGitEnvironment } from '../../../../src/host/executors/confine/control-locations.js';
import path from 'node:path';
import { collectControlLocations, userGitEnvironment } from '../../../../src/host/executors/confine/control-locations.js';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { currentControlLocations, protectedSetOf, recordProtected } from '../../../../src/host/executors/confine/protected-locations.js';
import { ZotboxError } from '../../../../src/errors.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

function world(t: Parameters<typeof tempDir>[0], config: string) {
  const root = realpathSync(tempDir(t, 'zb-controls-'));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(home);
  execFileSync('git', ['init', '-q', ws], { env: { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1' } });
  // Replaced whole, so the lines below are known: [core] is line 1.
  writeFileSync(path.join(ws, '.git', 'config'), config);
  return { root, ws, home, config: path.join(ws, '.git', 'config') };
}

function reasonFor(ws: string, home: string, target: string): string | undefined {
  const { locations } = collectControlLocations(scanGitMetadata([ws]), [ws], { home, noSystem: true });
  return findControlLocation(target, locations)?.reason;
}

test('core.hooksPath covers every file in it, named with the file and line', (t) => {
  const w = world(t, '[core]\n\trepositoryformatversion = 0\n\thooksPath = .husky\n');
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, '.husky', 'pre-commit')), `in core.hooksPath (set in ${w.config} line 3); the user's git runs the hooks there`);
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, '.husky-notes')), undefined);
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, 'src', 'app.ts')), undefined);
});

test('includes and every conditional include are taken as active, and what they set counts', (t) => {
  const w = world(t, '[core]\n\tbare = false\n[includeIf "onbranch:never"]\n\tpath = ../team.inc\n');
  writeFileSync(path.join(w.ws, 'team.inc'), '[alias]\n\tup = !./scripts/up.sh\n');
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, 'team.inc')), `a git config file included by ${w.config} line 4; the user's git reads it as configuration`);
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, 'scripts', 'up.sh')), `named by alias.up (set in ${path.join(w.ws, 'team.inc')} line 2); the user's git may run or read it`);
});

test('program paths of drivers, helpers and hooks of any key are found, every word of a command counting; a data value is not a command', (t) => {
  const w = world(t, '[filter "lfs"]\n\tclean = tools/clean %f\n[credential]\n\thelper = store\n[hook "lint"]\n\tcommand = ./lint.sh\n[user]\n\tname = alice\n');
  t.truthy(reasonFor(w.ws, w.home, path.join(w.ws, 'tools', 'clean')));
  t.truthy(reasonFor(w.ws, w.home, path.join(w.ws, 'lint.sh')));
  // Git runs "git credential-store" here, but a word without a slash is a file where git runs a shell command.
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, 'store')), `named by credential.helper (set in ${w.config} line 4); the user's git may run or read it`);
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, 'alice')), undefined);
});

test("the user's global config is read as the user's git reads it, and is itself protected when a scope holds it", (t) => {
  const w = world(t, '[core]\n\tbare = false\n');
  writeFileSync(path.join(w.home, '.gitconfig'), `[user]\n\tname = u\n[core]\n\tfsmonitor = ${path.join(w.ws, 'watch')}\n`);
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, 'watch')), `named by core.fsmonitor (set in ${path.join(w.home, '.gitconfig')} line 4); the user's git may run or read it`);
  // A scope over the home: ~/.gitconfig and the XDG config, even before they exist.
  const { locations } = collectControlLocations(scanGitMetadata([w.root]), [w.root], { home: w.home, noSystem: true });
  t.truthy(findControlLocation(path.join(w.home, '.gitconfig'), locations));
  t.truthy(findControlLocation(path.join(w.home, '.config', 'git', 'config'), locations));
});

test('a hooks directory reached through a link is protected where the link points', (t) => {
  const w = world(t, '[core]\n\tbare = false\n');
  mkdirSync(path.join(w.ws, 'githooks'));
  rmSync(path.join(w.ws, '.git', 'hooks'), { recursive: true });
  symlinkSync('../githooks', path.join(w.ws, '.git', 'hooks'));
  t.is(reasonFor(w.ws, w.home, path.join(w.ws, 'githooks', 'pre-commit')), `where the link ${path.join(w.ws, '.git', 'hooks')} points; git follows it to its hooks`);
});

test("a bare repository's control entries are protected though no .git is in their path", (t) => {
  const w = world(t, '[core]\n\tbare = false\n');
  execFileSync('git', ['init', '-q', '--bare', path.join(w.ws, 'mirror')], { env: { PATH: '/usr/bin:/bin', HOME: w.root, GIT_CONFIG_NOSYSTEM: '1' } });
  t.truthy(reasonFor(w.ws, w.home, path.join(w.ws, 'mirror', 'hooks', 'pre-receive')));
  t.truthy(reasonFor(w.ws, w.home, path.join(w.ws, 'mirror', 'config')));
});

test('the user git environment comes from the variables passed in', (t) => {
  const env = { HOME: '/h', XDG_CONFIG_HOME: '/x', GIT_CONFIG_NOSYSTEM: '1' };
  t.deepEqual(userGitEnvironment(env, '/fallback'), { home: '/h', xdgConfigHome: '/x', noSystem: true, environment: env });
  t.deepEqual(userGitEnvironment({ GIT_CONFIG_NOSYSTEM: 'false' }, '/fallback'), { home: '/fallback', environment: { GIT_CONFIG_NOSYSTEM: 'false' } });
});

function scan(scope: string, user: UserGitEnvironment) {
  return collectControlLocations(scanGitMetadata([scope]), [scope], user);
}

test('a scope inside a repository: the config git finds upward from the scope root is read, relative to the top of its worktree', (t) => {
  const w = world(t, '[core]\n\tbare = false\n\thooksPath = packages/app/githooks\n');
  const app = path.join(w.ws, 'packages', 'app');
  mkdirSync(app, { recursive: true });
  const { locations, unresolved } = scan(app, { home: w.home, noSystem: true });
  t.deepEqual(unresolved, []);
  t.is(findControlLocation(path.join(app, 'githooks', 'pre-commit'), locations)?.reason, `in core.hooksPath (set in ${w.config} line 3); the user's git runs the hooks there`);
  t.is(findControlLocation(path.join(app, 'src', 'index.ts'), locations), undefined);
});

test("a linked worktree as the scope: its gitfile, commondir and the main repository's config are followed", (t) => {
  const w = world(t, '[core]\n\tbare = false\n\thooksPath = githooks\n[alias]\n\tup = !sh scripts/up.sh\n');
  const env = { PATH: '/usr/bin:/bin', HOME: w.root, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' };
  execFileSync('git', ['-C', w.ws, 'commit', '-q', '--allow-empty', '-m', 'init'], { env });
  const feature = path.join(w.root, 'feature');
  execFileSync('git', ['-C', w.ws, 'worktree', 'add', '-q', feature, '-b', 'feature'], { env });
  const { locations } = scan(feature, { home: w.home, noSystem: true });
  t.is(findControlLocation(path.join(feature, 'githooks', 'pre-commit'), locations)?.reason, `in core.hooksPath (set in ${w.config} line 3); the user's git runs the hooks there`);
  t.is(findControlLocation(path.join(feature, 'scripts', 'up.sh'), locations)?.reason, `named by alias.up (set in ${w.config} line 5); the user's git may run or read it`);
  // The same worktree nested in a wider scope: its gitfile points out of the scope, and is followed all the same.
  const wider = path.join(w.root, 'outer');
  mkdirSync(wider);
  execFileSync('git', ['-C', w.ws, 'worktree', 'add', '-q', path.join(wider, 'nested'), '-b', 'nested'], { env });
  t.truthy(findControlLocation(path.join(wider, 'nested', 'githooks', 'x'), scan(wider, { home: w.home, noSystem: true }).locations));
});

test('a program named through an expansion only the run can know refuses, naming the config line; the known ones resolve', (t) => {
  const w = world(t, '[core]\n\tfsmonitor = $TOOLS/watch\n\tpager = "$HOME/bin/pager"\n\teditor = sh $(git rev-parse --show-toplevel)/edit.sh\n');
  const { locations, unresolved } = scan(w.ws, { home: w.ws, noSystem: true });
  t.deepEqual(unresolved, [`core.fsmonitor (set in ${w.config} line 2) names "$TOOLS/watch", and $TOOLS is expanded only when git runs it`]);
  t.truthy(findControlLocation(path.join(w.ws, 'bin', 'pager'), locations));
  t.truthy(findControlLocation(path.join(w.ws, 'edit.sh'), locations));
});

test('a bare program name is looked up in the PATH directories that are relative or in a scope', (t) => {
  const w = world(t, '[core]\n\tpager = mypager -R\n');
  const { locations } = scan(w.ws, { home: w.home, noSystem: true, searchPath: `node_modules/.bin:${path.join(w.ws, 'bin')}:/usr/bin` });
  t.truthy(findControlLocation(path.join(w.ws, 'node_modules', '.bin', 'mypager'), locations));
  t.truthy(findControlLocation(path.join(w.ws, 'bin', 'mypager'), locations));
  t.truthy(findControlLocation(path.join(w.ws, 'mypager'), locations));
});

test('a config file that exists but cannot be read is not taken as empty', (t) => {
  const w = world(t, '[core]\n\tbare = false\n[include]\n\tpath = ../team.inc\n');
  execFileSync('mkfifo', [path.join(w.ws, 'team.inc')]);
  t.deepEqual(scan(w.ws, { home: w.home, noSystem: true }).unresolved, [`${path.join(w.ws, 'team.inc')} exists but cannot be read`]);
});

test('an unresolved value reaches every writer: the gate gets no list but the reason, and recording for a command refuses', (t) => {
  const w = world(t, '[core]\n\tbare = false\n\tfsmonitor = sh $(cat .watcher)\n');
  const user = { home: w.home, noSystem: true };
  const why = `zotbox cannot tell which files the user's git would run: core.fsmonitor (set in ${w.config} line 3) names "$(cat .watcher)", and $(cat .watcher) is expanded only when git runs it`;
  const controls = currentControlLocations([w.ws], [], user);
  t.true('unavailable' in controls && controls.unavailable.startsWith(why), JSON.stringify(controls));
  const error = t.throws(() => recordProtected(protectedSetOf(scanGitMetadata([w.ws]), [w.ws], user), [w.ws]));
  t.true(error instanceof ZotboxError && error.code === 'ZB_CONFINEMENT_GIT_CONFIG_UNRESOLVED');
  t.true(error.message.startsWith(`command refused: ${why}`), error.message);
});

test('a git command that preloads a node package by name is refused, not taken for a path: the config reader does not look packages up', (t) => {
  const w = world(t, '[core]\n\tbare = false\n[alias]\n\tlint = !node -r @acme/setup tools/lint.js\n[alias]\n\tplain = !node -r ./tools/setup.js tools/lint.js\n');
  const { locations, unresolved } = collectControlLocations(scanGitMetadata([w.ws]), [w.ws], { home: w.home, noSystem: true });
  t.deepEqual(unresolved, [`alias.lint (set in ${w.config} line 4): node preloads the package "@acme/setup" by name, which zotbox does not look up here`]);
  // The preload written as a path is a file like any other word.
  t.truthy(findControlLocation(path.join(w.ws, 'tools', 'setup.js'), locations));
  t.false(locations.some((location) => location.path.includes('__zotbox_node_preload__')));
});
