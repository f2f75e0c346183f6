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
