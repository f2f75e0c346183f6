// Git configuration an .envrc gives through the environment is read as git configuration: what its entries run or
// read is protected, what zotbox cannot spell out is unresolved. Expected sets are stated by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

function read(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-git-env-')), 'ws');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  const found = toolFileReferences([path.join(ws, '.envrc')], [ws]);
  return { paths: found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`), unresolved: found.unresolved };
}

const hooks = { 'githooks/pre-commit': '#!/bin/sh\n' };

test('GIT_CONFIG_COUNT pairs, GIT_CONFIG_PARAMETERS and GIT_CONFIG_GLOBAL name what git runs', (t) => {
  const pairs = read(t, {
    ...hooks,
    '.envrc': 'export GIT_CONFIG_COUNT=2\nexport GIT_CONFIG_KEY_0=core.hooksPath\nexport GIT_CONFIG_VALUE_0=githooks\nexport GIT_CONFIG_KEY_1=user.name\nexport GIT_CONFIG_VALUE_1=tools\n',
  });
  t.true(pairs.paths.includes('githooks/'), pairs.paths.join(' '));
  t.deepEqual(pairs.unresolved, []);
  const parameters = read(t, { ...hooks, '.envrc': `export GIT_CONFIG_PARAMETERS="'core.hooksPath'='githooks' 'core.editor'='sh tools/edit.sh'"\n`, 'tools/edit.sh': 'true\n' });
  for (const expected of ['githooks/', 'tools/edit.sh']) t.true(parameters.paths.includes(expected), `${expected}: ${parameters.paths.join(' ')}`);
  t.deepEqual(parameters.unresolved, []);
  const global = read(t, {
    ...hooks,
    '.envrc': 'export GIT_CONFIG_GLOBAL=$PWD/tools/gitconfig\n',
    'tools/gitconfig': '[include]\n\tpath = more.gitconfig\n',
    'tools/more.gitconfig': '[core]\n\thooksPath = githooks\n',
  });
  for (const expected of ['tools/gitconfig', 'tools/more.gitconfig', 'githooks/']) t.true(global.paths.includes(expected), `${expected}: ${global.paths.join(' ')}`);
  t.deepEqual(global.unresolved, []);
});

test('git configuration the .envrc gives only in part is unresolved', (t) => {
  for (const envrc of [
    'export GIT_CONFIG_KEY_0=core.hooksPath\nexport GIT_CONFIG_VALUE_0=githooks\n',
    'export GIT_CONFIG_COUNT=1\nexport GIT_CONFIG_KEY_0=core.hooksPath\n',
    'export GIT_CONFIG_PARAMETERS="core.hooksPath=githooks"\n',
  ])
    t.true(read(t, { '.envrc': envrc }).unresolved.length > 0, envrc);
});

test('git configuration given in one export of several assignments, or several commands on a line, is read', (t) => {
  for (const envrc of [
    'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=githooks\n',
    'export GIT_CONFIG_COUNT=1; export GIT_CONFIG_KEY_0=core.hooksPath && export GIT_CONFIG_VALUE_0=githooks\n',
    'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=githooks\n',
    'declare -x GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=githooks\n',
  ]) {
    const found = read(t, { ...hooks, '.envrc': envrc });
    t.true(found.paths.includes('githooks/'), `${envrc}: ${found.paths.join(' ')}`);
    t.deepEqual(found.unresolved, [], envrc);
  }
});

test('a relative GIT_CONFIG_GLOBAL is unresolved (git opens it from whatever directory it runs in); one spelled from $PWD is read', (t) => {
  for (const envrc of ['export GIT_CONFIG_GLOBAL=tools/gitconfig\n', 'export GIT_CONFIG_SYSTEM=./gitconfig\n', 'ROOT=tools\nexport GIT_CONFIG_GLOBAL=$ROOT/gitconfig\n'])
    t.is(read(t, { '.envrc': envrc, 'tools/gitconfig': '' }).unresolved.length, 1, envrc);
  for (const envrc of ['export GIT_CONFIG_GLOBAL="$PWD/tools/gitconfig"\n', 'ROOT=${PWD}\nexport GIT_CONFIG_GLOBAL=$ROOT/tools/gitconfig\n']) {
    const found = read(t, { '.envrc': envrc, 'tools/gitconfig': '' });
    t.deepEqual(found, { paths: ['tools/gitconfig'], unresolved: [] }, envrc);
  }
});

/** A monorepo: the repository at ws, a package .envrc at packages/web, a nested repository at packages/web/vendor/lib. */
function monorepo(t: Parameters<typeof tempDir>[0], envrc: string, withHooks: boolean) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-git-env-mono-')), 'ws');
  for (const name of ['packages/web/vendor/lib/.git', '.git']) mkdirSync(path.join(ws, name), { recursive: true });
  writeFileSync(path.join(ws, 'packages/web/.envrc'), envrc);
  const hookDirectories = withHooks ? [ws, path.join(ws, 'packages/web/vendor/lib'), '/elsewhere/repo'].map((top) => ({ directory: path.join(top, '.git/hooks'), top })) : [];
  const found = toolFileReferences([path.join(ws, 'packages/web/.envrc')], [ws], { hookDirectories });
  return { paths: found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`).sort(), unresolved: found.unresolved };
}

test("a package .envrc's relative core.hooksPath and command words are taken from its directory and the top of every repository there", (t) => {
  const envrc = 'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=tools/githooks\n';
  // The top git finds above the .envrc (its nearest .git), with or without the repositories zotbox found.
  const hooksOf = ({ paths, unresolved }: { paths: string[]; unresolved: readonly string[] }) => ({ paths: paths.filter((p) => p.endsWith('githooks/')), unresolved });
  t.deepEqual(hooksOf(monorepo(t, envrc, false)), { paths: ['packages/web/tools/githooks/', 'tools/githooks/'], unresolved: [] });
  t.deepEqual(hooksOf(monorepo(t, envrc, true)), { paths: ['packages/web/tools/githooks/', 'packages/web/vendor/lib/tools/githooks/', 'tools/githooks/'], unresolved: [] });
  const parameters = monorepo(t, `export GIT_CONFIG_PARAMETERS="'core.hooksPath=tools/githooks' 'alias.check=!sh scripts/check.sh'"\n`, false);
  for (const expected of ['tools/githooks/', 'packages/web/tools/githooks/', 'scripts/check.sh/', 'packages/web/scripts/check.sh/'])
    t.true(parameters.paths.includes(expected), `${expected}: ${parameters.paths.join(' ')}`);
  t.deepEqual(parameters.unresolved, []);
});

test("the hooks in a hooks directory an .envrc's git configuration names are read for what they run, from each repository top", (t) => {
  const ws = path.join(realpathSync(tempDir(t, 'zb-git-env-')), 'ws');
  const files: Record<string, string> = {
    'packages/web/.envrc': 'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=tools/githooks\n',
    'tools/githooks/pre-commit': '#!/bin/sh\npython3 tools/check.py\nsh scripts/lint.sh\n',
    'tools/check.py': 'import sys\n',
    'scripts/lint.sh': 'true\n',
    'packages/web/app.js': '1\n',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  mkdirSync(path.join(ws, '.git'));
  const found = toolFileReferences([path.join(ws, 'packages/web/.envrc')], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const paths = found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`);
  // The hook runs at the worktree top: its program and script there are protected, and the hooks directory whole.
  const covered = (name: string) => paths.includes(name) || paths.includes(`${name}/`);
  for (const expected of ['tools/githooks', 'tools/check.py', 'scripts/lint.sh']) t.true(covered(expected), `${expected}: ${paths.join(' ')}`);
  t.false(covered('packages/web/app.js'));
  t.deepEqual(found.unresolved, []);
});
