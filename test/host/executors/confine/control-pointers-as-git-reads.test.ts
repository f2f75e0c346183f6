// What the user's git follows, zotbox follows the same way (reviews s63l, s64m): `~NAME/` in a config path from the
// account database, a config git stops reading in, a `.git` link that leads to a gitfile (above the scopes and in
// them), and a control link whose target is not UTF-8. Real git is the oracle where it can answer; the expected
// outcomes are stated by hand.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { collectControlLocations, type UserGitEnvironment, userGitEnvironment } from '../../../../src/host/executors/confine/control-locations.js';
import { gitEnvironmentNames } from '../../../../src/host/executors/confine/git-environment-config.js';
import { commandWords } from '../../../../src/host/executors/confine/git-config-lines.js';
import { checkCreatedConfig } from '../../../../src/host/executors/confine/git-config-rules.js';
import { pointerNamesNow, scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { expandUserPath } from '../../../../src/host/executors/confine/user-path-expansion.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const GIT_ENV = { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function repository(t: Parameters<typeof tempDir>[0], config: string) {
  const root = realpathSync(tempDir(t, 'zb-pointers-'));
  const ws = path.join(root, 'ws');
  execFileSync('git', ['init', '-q', ws], { env: { ...GIT_ENV, HOME: root } });
  writeFileSync(path.join(ws, '.git', 'config'), config);
  return { root, ws, config: path.join(ws, '.git', 'config') };
}

function controls(writeRoots: readonly string[], user: UserGitEnvironment) {
  return collectControlLocations(scanGitMetadata(writeRoots, [], true, user.home), writeRoots, user);
}

test('~ and ~NAME are expanded as git expands them; an account zotbox cannot find is a problem, never nothing', (t) => {
  const accounts = (name: string) => (name === 'alice' ? '/home/alice' : undefined);
  t.deepEqual(expandUserPath('~/x', '/h', accounts), { path: '/h/x' });
  t.deepEqual(expandUserPath('~', '/h', accounts), { path: '/h' });
  t.deepEqual(expandUserPath('~alice/hooks', '/h', accounts), { path: '/home/alice/hooks' });
  t.deepEqual(expandUserPath('~alice', '/h', accounts), { path: '/home/alice' });
  t.deepEqual(expandUserPath('a/~b', '/h', accounts), { path: 'a/~b' });
  const unknown = expandUserPath('~bob/hooks', '/h', accounts);
  t.true('problem' in unknown && unknown.problem.includes('~bob'));
  // The real account database, as git reads it: root's home.
  const scratch = realpathSync(tempDir(t, 'zb-pointers-'));
  execFileSync('git', ['init', '-q', scratch], { env: { ...GIT_ENV, HOME: scratch } });
  const git = execFileSync('git', ['-c', 'core.hooksPath=~root/x', 'rev-parse', '--git-path', 'hooks/pre-commit'], { cwd: scratch, env: { ...GIT_ENV, HOME: scratch }, encoding: 'utf8' }).trim();
  t.is(git, '/root/x/pre-commit');
  t.deepEqual(expandUserPath('~root/x', '/h'), { path: '/root/x' });
});

test('core.hooksPath and an include spelled ~NAME/ name what git uses; one zotbox cannot expand refuses', (t) => {
  const w = repository(t, '[core]\n\thooksPath = ~alice/hooks\n[include]\n\tpath = ~alice/team.inc\n');
  const alice = path.join(w.ws, 'alice');
  mkdirSync(alice);
  writeFileSync(path.join(alice, 'team.inc'), '[alias]\n\tup = !./up.sh\n');
  const user = { home: path.join(w.root, 'home'), noSystem: true, accounts: (name: string) => (name === 'alice' ? alice : undefined) };
  const found = controls([w.ws], user);
  t.deepEqual(found.unresolved, []);
  t.is(findControlLocation(path.join(alice, 'hooks', 'pre-commit'), found.locations)?.reason, `in core.hooksPath (set in ${w.config} line 2); the user's git runs the hooks there`);
  t.truthy(findControlLocation(path.join(alice, 'team.inc'), found.locations));
  t.truthy(findControlLocation(path.join(alice, 'up.sh'), found.locations), 'what the included file names is read too');
  const nobody = controls([w.ws], { ...user, accounts: () => undefined });
  t.is(nobody.unresolved.length, 2);
  t.true(nobody.unresolved.every((problem) => problem.includes('~alice')));
});

test('a config git stops reading in refuses, naming the line: what follows it counts once the line is mended', (t) => {
  const w = repository(t, '[core]\n\tbare = false\n[core ]\n\thooksPath = scripts/hooks\n');
  const found = controls([w.ws], { home: path.join(w.root, 'home'), noSystem: true });
  t.deepEqual(found.unresolved, [`git cannot read ${w.config} past line 3 ("bad config line"), so zotbox cannot tell what the lines after it name; mend that line`]);
});

test("a .git link to a gitfile above the scopes: its relative gitdir is taken from the link's folder, as git takes it, and the gitfile is protected", (t) => {
  const root = realpathSync(tempDir(t, 'zb-pointers-'));
  const proj = path.join(root, 'proj');
  const store = path.join(root, 'store');
  mkdirSync(path.join(proj, 'sub'), { recursive: true });
  mkdirSync(store);
  execFileSync('git', ['init', '-q', '--bare', path.join(proj, 'repo.git')], { env: { ...GIT_ENV, HOME: root } });
  execFileSync('git', ['init', '-q', '--bare', path.join(store, 'repo.git')], { env: { ...GIT_ENV, HOME: root } });
  writeFileSync(path.join(store, 'proj.gitfile'), 'gitdir: repo.git\n');
  symlinkSync('../store/proj.gitfile', path.join(proj, '.git'));
  const git = execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: path.join(proj, 'sub'), env: { ...GIT_ENV, HOME: root }, encoding: 'utf8' }).trim();
  t.is(git, path.join(proj, 'repo.git'), "git takes the gitfile's relative path from the link's folder");
  const scope = path.join(proj, 'sub');
  const found = controls([scope, store], { home: path.join(root, 'home'), noSystem: true });
  t.deepEqual(found.unresolved, []);
  t.truthy(
    found.hookDirectories.find((hooks) => hooks.directory === path.join(proj, 'repo.git', 'hooks')),
    'the hooks of the repository git opens',
  );
  t.is(findControlLocation(path.join(store, 'proj.gitfile'), found.locations)?.reason, `the gitfile git reads through the link ${path.join(proj, '.git')}; what it names is the repository git opens`);
});

test('a control link in the scopes whose target is not UTF-8 is refused by name', (t) => {
  const w = repository(t, '[core]\n\tbare = false\n');
  const hooks = path.join(w.ws, '.git', 'hooks');
  execFileSync('rm', ['-rf', hooks]);
  symlinkSync(Buffer.from('../caf\xe9-hooks', 'latin1'), hooks);
  const found = controls([w.ws], { home: path.join(w.root, 'home'), noSystem: true });
  t.deepEqual(found.unresolved, [`${hooks} is a link whose target is not UTF-8, so zotbox cannot follow it`]);
});

test('a new config with a NUL or another control character is not plain: git would read another name than the text shows', (t) => {
  t.true(checkCreatedConfig('[remote "origin"]\n\turl = https://h/r\n').ok);
  t.false(checkCreatedConfig('[remote "origin\u0000x"]\n\turl = https://h/r\n').ok);
  t.false(checkCreatedConfig('[core]\n\tbare = false\u0000\n').ok);
});

test("the scan follows a .git link to a gitfile as git does: the gitfile is bound read-only, the pointer names the gitfile's directory", (t) => {
  const root = realpathSync(tempDir(t, 'zb-pointers-'));
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'store'), { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', path.join(ws, 'store', 'main.git')], { env: { ...GIT_ENV, HOME: root } });
  writeFileSync(path.join(ws, 'store', 'main.gitfile'), 'gitdir: store/main.git\n');
  symlinkSync('store/main.gitfile', path.join(ws, '.git'));
  const inventory = scanGitMetadata([ws]);
  t.true(inventory.linkTargets.includes(path.join(ws, 'store', 'main.gitfile')));
  const pointer = inventory.gitEntries.get(path.join(ws, '.git'));
  t.is(pointer?.target, path.join(ws, 'store', 'main.git'));
  const named = statSync(path.join(ws, 'store', 'main.git'));
  t.is(pointer?.names, `${named.dev}:${named.ino}`);
});

test("the scan follows an include spelled ~/ from the user's home when it lies in a scope", (t) => {
  const w = repository(t, '[include]\n\tpath = ~/team.inc\n');
  const home = path.join(w.ws, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, 'team.inc'), '[filter "x"]\n\tclean = cat\n');
  t.true(scanGitMetadata([w.ws], [], true, home).configTexts.has(path.join(home, 'team.inc')));
  t.false(scanGitMetadata([w.ws]).configTexts.has(path.join(home, 'team.inc')), 'no home given: not followed here (control-locations reads it)');
});

test("git configuration the user's own environment sets (GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS) counts like their global config", (t) => {
  const w = repository(t, '[core]\n\tbare = false\n');
  const environment = { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'u', GIT_CONFIG_KEY_1: 'core.hooksPath', GIT_CONFIG_VALUE_1: 'team-hooks' };
  const git = execFileSync('git', ['rev-parse', '--git-path', 'hooks/pre-commit'], { cwd: w.ws, env: { ...GIT_ENV, HOME: w.root, ...environment }, encoding: 'utf8' }).trim();
  t.is(path.resolve(w.ws, git), path.join(w.ws, 'team-hooks', 'pre-commit'), 'git takes the hooks from there');
  const user = { home: path.join(w.root, 'home'), noSystem: true, environment };
  const found = controls([w.ws], user);
  t.deepEqual(found.unresolved, []);
  t.is(
    findControlLocation(path.join(w.ws, 'team-hooks', 'pre-commit'), found.locations)?.reason,
    "in core.hooksPath (set by GIT_CONFIG_KEY_1 in the user's environment); the user's git runs the hooks there",
  );
  const parameters = controls([w.ws], { ...user, environment: { GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='sh ./watch.sh'" } });
  t.truthy(findControlLocation(path.join(w.ws, 'watch.sh'), parameters.locations));
  const bogus = controls([w.ws], { ...user, environment: { GIT_CONFIG_COUNT: 'two' } });
  t.deepEqual(bogus.unresolved, [`the user's environment sets GIT_CONFIG_COUNT to "two", which zotbox does not read as a count`]);
});

test('includes nested deeper than git reads refuse; a file first read deep is read again when included nearer', (t) => {
  // .git/config includes c1, c1 includes c2, … c9 includes x (depth 10); x includes hooks.inc (depth 11: git stops).
  const chain = Array.from({ length: 9 }, (_, i) => `c${i + 1}.inc`);
  const w = repository(t, `[include]\n\tpath = ../${chain[0]!}\n[include]\n\tpath = ../x.inc\n`);
  chain.forEach((file, i) => writeFileSync(path.join(w.ws, file), `[include]\n\tpath = ${chain[i + 1] ?? 'x.inc'}\n`));
  writeFileSync(path.join(w.ws, 'x.inc'), '[include]\n\tpath = hooks.inc\n');
  writeFileSync(path.join(w.ws, 'hooks.inc'), '[core]\n\thooksPath = team-hooks\n');
  const found = controls([w.ws], { home: path.join(w.root, 'home'), noSystem: true });
  t.is(found.unresolved.length, 1);
  t.true(found.unresolved[0]!.startsWith(`${path.join(w.ws, 'hooks.inc')} is included more than 10 levels deep`), found.unresolved[0]);
  // Reached at depth 1 from the repository's config, x.inc's include is read: its hooks directory is protected.
  t.truthy(findControlLocation(path.join(w.ws, 'team-hooks', 'pre-commit'), found.locations));
});

test('a config value that is not UTF-8 refuses unless it is data; a data value in Latin-1 is no refusal', (t) => {
  const w = repository(t, '[core]\n\tbare = false\n');
  writeFileSync(w.config, Buffer.from('[user]\n\tname = Jos\xe9\n[include]\n\tpath = ../caf\xe9.inc\n', 'latin1'));
  const found = controls([w.ws], { home: path.join(w.root, 'home'), noSystem: true });
  t.deepEqual(found.unresolved, [`include.path (set in ${w.config} line 4) has a value that is not UTF-8, so zotbox cannot tell which file it names`]);
  // The same through a config file an environment file names (GIT_CONFIG_GLOBAL in an .envrc).
  const global = path.join(w.root, 'global.gitconfig');
  writeFileSync(global, Buffer.from('[core]\n\thooksPath = caf\xe9\n', 'latin1'));
  const unresolved: string[] = [];
  gitEnvironmentNames(new Map([['GIT_CONFIG_GLOBAL', global]]), '.envrc', { directory: w.ws, tops: [w.ws], fromWorkingDirectory: new Set() }, unresolved);
  t.deepEqual(unresolved, [`${global} line 2: core.hooksPath has a value that is not UTF-8, so zotbox cannot tell which file it names`]);
});

test('a .. after a folder name refuses, in a path key, an include and a command word; a leading .. is a path', (t) => {
  const w = repository(t, '[core]\n\thooksPath = ../ws/hooks\n[include]\n\tpath = ../conf/old/../team.inc\n');
  const found = controls([w.ws], { home: path.join(w.root, 'home'), noSystem: true });
  t.deepEqual(found.unresolved, [
    `include.path (set in ${w.config} line 4) includes "../conf/old/../team.inc": a ".." after a folder name is walked through that folder, which may be a link to anywhere`,
  ]);
  t.truthy(findControlLocation(path.join(w.ws, 'hooks', 'pre-commit'), found.locations));
  const tree = controls([repository(t, '[core]\n\thooksPath = scripts/cache/../hooks\n').ws], { home: '/nonexistent', noSystem: true });
  t.is(tree.unresolved.length, 1);
  t.true(tree.unresolved[0]!.includes('is "scripts/cache/../hooks": a ".." after a folder name'));
  t.deepEqual(
    commandWords('sh scripts/cache/../lint.sh ../up.sh').map((word) => `${word.kind}:${word.text}`),
    ['path:sh', 'unresolved:scripts/cache/../lint.sh', 'path:../up.sh'],
  );
});

test("git's reading of GIT_CONFIG_NOSYSTEM and an empty HOME", (t) => {
  const user = (env: Record<string, string>) => userGitEnvironment(env, '/home/account');
  for (const value of ['1', 'true', 'YES', 'on', '2']) t.true(user({ GIT_CONFIG_NOSYSTEM: value }).noSystem === true, value);
  // git reads these as false, or stops on them: the system config is read.
  for (const value of ['0', '00', '0k', ' 0', '0x0', '-0', 'false', 'off', '', 'maybe']) t.is(user({ GIT_CONFIG_NOSYSTEM: value }).noSystem, undefined, JSON.stringify(value));
  t.is(user({ HOME: '' }).home, '/');
  t.is(user({}).home, '/home/account');
  t.is(user({ HOME: '/h' }).home, '/h');
});

test("in a script, a .. is a path only where it climbs out of the script's own folder (on the way to the script, a protected file)", (t) => {
  const script = { scriptFile: '/ws/.githooks/pre-commit', scriptDirectory: '/ws/.githooks', workingDirectory: '/ws', environment: {} };
  const text = 'sh tools/cache/../lint.sh\nsh "$(dirname "$0")/../lib/run.sh"\nsh "$(dirname "$0")/sub/../x.sh"\n';
  const words = commandWords(text, 'shell', script).filter((word) => word.text.includes('..'));
  t.deepEqual(
    words.map((word) => `${word.kind}:${word.text}`),
    ['unresolved:tools/cache/../lint.sh', 'path:/ws/.githooks/../lib/run.sh', 'unresolved:/ws/.githooks/sub/../x.sh'],
  );
});

test('an include in a config an environment file names: %(prefix)// is the absolute path, a .. after a folder name refuses', (t) => {
  const root = realpathSync(tempDir(t, 'zb-pointers-'));
  const team = path.join(root, 'team.inc');
  writeFileSync(team, '[core]\n\thooksPath = /opt/team-hooks\n');
  const global = path.join(root, 'global.gitconfig');
  writeFileSync(global, `[include]\n\tpath = %(prefix)/${team}\n[include]\n\tpath = conf/old/../other.inc\n`);
  const unresolved: string[] = [];
  const names = gitEnvironmentNames(new Map([['GIT_CONFIG_GLOBAL', global]]), '.envrc', { directory: root, tops: [root], fromWorkingDirectory: new Set() }, unresolved);
  t.truthy(
    names.find((name) => name.name === '/opt/team-hooks' && name.as === 'hooks'),
    'what the included file sets is read',
  );
  t.true(
    unresolved.some((problem) => problem.includes('includes "conf/old/../other.inc": a ".." after a folder name')),
    JSON.stringify(unresolved),
  );
});

test('what a gitfile names is looked up as the kernel walks it: a folder before its .. made a link changes it', (t) => {
  const root = realpathSync(tempDir(t, 'zb-pointers-'));
  const ws = path.join(root, 'ws');
  mkdirSync(path.join(ws, 'store', 'cache'), { recursive: true });
  mkdirSync(path.join(ws, 'evil', 'a'), { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', path.join(ws, 'store', 'main.git')], { env: { ...GIT_ENV, HOME: root } });
  execFileSync('git', ['init', '-q', '--bare', path.join(ws, 'evil', 'main.git')], { env: { ...GIT_ENV, HOME: root } });
  mkdirSync(path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib', '.git'), 'gitdir: ../store/cache/../main.git\n');
  const entry = path.join(ws, 'lib', '.git');
  const before = scanGitMetadata([ws]).gitEntries.get(entry)!;
  execFileSync('rm', ['-rf', path.join(ws, 'store', 'cache')]);
  symlinkSync('../evil/a', path.join(ws, 'store', 'cache'));
  const git = execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: path.join(ws, 'lib'), env: { ...GIT_ENV, HOME: root }, encoding: 'utf8' }).trim();
  t.is(git, path.join(ws, 'evil', 'main.git'), 'git opens the repository the link leads to');
  const evil = statSync(path.join(ws, 'evil', 'main.git'));
  t.is(pointerNamesNow(entry, before), `${evil.dev}:${evil.ino}`);
  t.not(pointerNamesNow(entry, before), before.names);
});

test('a HOME or XDG_CONFIG_HOME with a .. after a folder name refuses: git appends to it as text, and the kernel walks that folder', (t) => {
  const { root, ws } = repository(t, '');
  const home = `${root}/cache/..`;
  const climb = 'a ".." after a folder name is walked through that folder, which may be a link to anywhere';
  t.deepEqual(controls([ws], { home, noSystem: true }).unresolved, [
    `the user's global git config is ${root}/cache/../.config/git/config: ${climb}`,
    `the user's global git config is ${root}/cache/../.gitconfig: ${climb}`,
  ]);
  t.deepEqual(controls([ws], { home: root, xdgConfigHome: `${root}/cfg/../x/`, noSystem: true }).unresolved, [`the user's global git config is ${root}/cfg/../x/git/config: ${climb}`]);
  // Without a climb, the file is read where it lies, tidied (a trailing slash, `//`, `./`): no problem.
  t.deepEqual(controls([ws], { home: `${root}/`, xdgConfigHome: `${root}//cfg/./`, noSystem: true }).unresolved, []);
});
