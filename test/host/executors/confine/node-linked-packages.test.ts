// A bare specifier a hook program requires or imports, looked up in node_modules as node does (node-linked-packages.ts):
// a package that leads back into the project (a workspace link, a `file:` dependency, `npm link`) is its package.json
// and the entry files it maps, read on; a package really installed is not read; a name no node_modules holds yet is
// protected where node would look for it. Expected outcomes written out by hand.
import test from 'ava';
import { mkdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { globalFolders } from '../../../../src/host/executors/confine/node-global-folders.js';
import { nodeModulesDirectories, packageOf } from '../../../../src/host/executors/confine/node-linked-packages.js';
import { protectedSetOf, recordProtected, restoreProtected } from '../../../../src/host/executors/confine/protected-locations.js';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const HOST = { PATH: process.env['PATH'] ?? '' };

/** A workspace with `files`, `links` (name -> what the link says), and a pre-commit hook running `hook`. */
function workspace(t: Parameters<typeof tempDir>[0], hook: string, files: Readonly<Record<string, string>>, links: Readonly<Record<string, string>> = {}): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-node-linked-')), 'ws');
  for (const [name, content] of Object.entries({ ...files, '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n` })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    symlinkSync(target, path.join(ws, name));
  }
  mkdirSync(path.join(ws, '.git', 'objects'), { recursive: true });
  mkdirSync(path.join(ws, '.git', 'refs'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return ws;
}

function read(ws: string, environment: Readonly<Record<string, string>> = HOST) {
  const found = toolFileReferences([], [ws], { environment, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const location = (relative: string) => findControlLocation(path.join(ws, relative), found.locations);
  return { unresolved: found.unresolved, protects: (relative: string) => location(relative) !== undefined, location };
}

const json = (value: unknown) => JSON.stringify(value);
/** An npm workspaces monorepo: packages/utils linked as @acme/utils, packages/other linked as @acme/other. */
const MONOREPO = {
  'package.json': json({ name: 'acme', private: true, workspaces: ['packages/*'] }),
  'packages/utils/package.json': json({ name: '@acme/utils', main: 'index.js' }),
  'packages/utils/index.js': 'module.exports = require("./lint.js");\n',
  'packages/utils/lint.js': 'exports.lint = () => {};\n',
  'packages/utils/unused.js': 'exports.x = 1;\n',
  'packages/other/package.json': json({ name: '@acme/other' }),
  'packages/other/index.js': 'exports.y = 1;\n',
  'docs/a.md': 'a\n',
};
const MONOREPO_LINKS = { 'node_modules/@acme/utils': '../../packages/utils', 'node_modules/@acme/other': '../../packages/other' };

test('packageOf: the package a bare specifier names and the subpath in it', (t) => {
  t.deepEqual(packageOf('@acme/utils'), { name: '@acme/utils', subpath: '.' });
  t.deepEqual(packageOf('@acme/utils/lint.js'), { name: '@acme/utils', subpath: './lint.js' });
  t.deepEqual(packageOf('chalk'), { name: 'chalk', subpath: '.' });
  t.deepEqual(packageOf('lodash/fp/map'), { name: 'lodash', subpath: './fp/map' });
  // Names an import refuses are still names require looks up in node_modules.
  t.deepEqual(packageOf('@acme'), { name: '@acme', subpath: '.' });
  t.deepEqual(packageOf('@/utils/x'), { name: '@/utils', subpath: './x' });
});

test('nodeModulesDirectories: from the directory up to the root, nearest first, never node_modules/node_modules', (t) => {
  t.deepEqual(nodeModulesDirectories('/ws/tools'), ['/ws/tools/node_modules', '/ws/node_modules', '/node_modules']);
  t.deepEqual(nodeModulesDirectories('/ws/node_modules/chalk'), ['/ws/node_modules/chalk/node_modules', '/ws/node_modules', '/node_modules']);
});

test('a workspace package a hook program requires by name is its package.json and the files its main loads, read on; the rest of the package stays the agent', (t) => {
  const ws = workspace(t, 'node tools/check.js', { ...MONOREPO, 'tools/check.js': 'require("@acme/utils").lint();\n' }, MONOREPO_LINKS);
  const { unresolved, protects, location } = read(ws);
  t.deepEqual(unresolved, []);
  for (const name of ['packages/utils/package.json', 'packages/utils/index.js', 'packages/utils/lint.js']) t.true(protects(name), name);
  // The link itself, as a link (re-pointed, it changes what runs), not what it leads to whole.
  t.like(location('node_modules/@acme/utils'), { tree: false, asLink: true });
  t.false(protects('node_modules/@acme/other'));
  // Over-denial: a file nothing imports, a workspace package no hook imports, ordinary files.
  for (const name of ['packages/utils/unused.js', 'packages/utils/new.js', 'packages/other/index.js', 'packages/other/package.json', 'docs/a.md']) t.false(protects(name), name);
});

test('a subpath of a workspace package, an ESM import and a dynamic import are the files node loads for them', (t) => {
  for (const [code, expected] of [
    ['const { lint } = require("@acme/utils/lint.js");\n', ['packages/utils/lint.js', 'packages/utils/package.json']],
    ['const { lint } = require("@acme/utils/lint");\n', ['packages/utils/lint.js', 'packages/utils/lint']],
    ['import { lint } from "@acme/utils";\n', ['packages/utils/index.js', 'packages/utils/lint.js']],
    ['await import("@acme/utils");\n', ['packages/utils/index.js', 'packages/utils/lint.js']],
  ] as const) {
    const ws = workspace(t, 'node tools/check.mjs', { ...MONOREPO, 'tools/check.mjs': code }, MONOREPO_LINKS);
    const { unresolved, protects } = read(ws);
    t.deepEqual(unresolved, [], code);
    for (const name of expected) t.true(protects(name), `${code}: ${name}`);
    t.false(protects('packages/utils/unused.js'), code);
  }
});

test('"exports" decides what a linked package loads: every condition, subpath patterns; "main" and index without it', (t) => {
  const exportsed = json({
    name: '@acme/utils',
    exports: { '.': { import: './esm/index.mjs', require: './cjs/index.js' }, './rules/*': { node: './src/rules/*.js', default: './src/rules/*.web.js' } },
  });
  const ws = workspace(
    t,
    'node tools/check.js',
    {
      ...MONOREPO,
      'packages/utils/package.json': exportsed,
      'tools/check.js': 'require("@acme/utils");\nrequire("@acme/utils/rules/a");\n',
      'packages/utils/esm/index.mjs': '',
      'packages/utils/cjs/index.js': '',
    },
    MONOREPO_LINKS,
  );
  const { unresolved, protects } = read(ws);
  t.deepEqual(unresolved, []);
  // A target not made yet is protected all the same: whoever makes it, node loads it.
  for (const name of ['packages/utils/package.json', 'packages/utils/esm/index.mjs', 'packages/utils/cjs/index.js', 'packages/utils/src/rules/a.js', 'packages/utils/src/rules/a.web.js'])
    t.true(protects(name), name);
  // With "exports", index.js and the files it does not map load nothing.
  for (const name of ['packages/utils/index.js', 'packages/utils/lint.js', 'packages/utils/src/rules/b.js']) t.false(protects(name), name);

  const mainless = workspace(
    t,
    'node tools/check.js',
    { ...MONOREPO, 'packages/utils/package.json': json({ name: '@acme/utils', main: 'lib/main' }), 'tools/check.js': 'require("@acme/utils");\n' },
    MONOREPO_LINKS,
  );
  const main = read(mainless);
  t.deepEqual(main.unresolved, []);
  for (const name of ['packages/utils/lib/main', 'packages/utils/lib/main.js', 'packages/utils/index.js', 'packages/utils/lint.js']) t.true(main.protects(name), name);
});

test('a package linked in by pnpm, a `file:` dependency linked as a file, and a linked package that requires another by name (read on, from its real directory)', (t) => {
  // pnpm: packages/app/node_modules/@acme/utils -> ../../../utils; utils requires @acme/core from its own node_modules.
  const pnpm = workspace(
    t,
    'node packages/app/check.js',
    {
      'packages/app/check.js': 'require("@acme/utils");\n',
      'packages/utils/package.json': json({ name: '@acme/utils' }),
      'packages/utils/index.js': 'require("@acme/core");\n',
      'packages/core/package.json': json({ name: '@acme/core', main: 'core.js' }),
      'packages/core/core.js': '',
    },
    { 'packages/app/node_modules/@acme/utils': '../../../utils', 'packages/utils/node_modules/@acme/core': '../../../core' },
  );
  const chain = read(pnpm);
  t.deepEqual(chain.unresolved, []);
  for (const name of ['packages/utils/index.js', 'packages/core/package.json', 'packages/core/core.js']) t.true(chain.protects(name), name);

  const file = workspace(t, 'node tools/check.js', { 'tools/check.js': 'require("helper");\n', 'lib/helper.js': '', 'lib/other.js': '' }, { 'node_modules/helper.js': '../lib/helper.js' });
  const single = read(file);
  t.deepEqual(single.unresolved, []);
  t.true(single.protects('lib/helper.js'));
  t.false(single.protects('lib/other.js'));
});

test('a subpath import that maps to a workspace package by name ("#utils": "@acme/utils") is that package\'s files', (t) => {
  const ws = workspace(
    t,
    'node tools/check.js',
    { ...MONOREPO, 'package.json': json({ name: 'acme', workspaces: ['packages/*'], imports: { '#utils': '@acme/utils' } }), 'tools/check.js': 'require("#utils");\n' },
    MONOREPO_LINKS,
  );
  const { unresolved, protects } = read(ws);
  t.deepEqual(unresolved, []);
  for (const name of ['package.json', 'packages/utils/index.js', 'packages/utils/lint.js']) t.true(protects(name), name);
  t.false(protects('packages/utils/unused.js'));
});

test("packages really installed in node_modules (a directory, pnpm's .pnpm store) and node's built-in modules name nothing", (t) => {
  const ws = workspace(
    t,
    'node tools/check.js',
    {
      'tools/check.js': 'require("chalk");\nrequire("kleur");\nrequire("fs");\nrequire("node:path");\nrequire("fs/promises");\nimport("npm:zod");\n',
      'node_modules/chalk/package.json': json({ name: 'chalk' }),
      'node_modules/chalk/index.js': '',
      'node_modules/.pnpm/kleur@4.1.5/node_modules/kleur/package.json': json({ name: 'kleur' }),
      'node_modules/.pnpm/kleur@4.1.5/node_modules/kleur/index.js': '',
    },
    { 'node_modules/kleur': '.pnpm/kleur@4.1.5/node_modules/kleur' },
  );
  const { unresolved, protects } = read(ws);
  t.deepEqual(unresolved, []);
  for (const name of ['node_modules/chalk/index.js', 'node_modules/.pnpm/kleur@4.1.5/node_modules/kleur/index.js', 'node_modules/fs', 'tools/node_modules/fs', 'node_modules/fs/promises'])
    t.false(protects(name), name);
});

test('a name no node_modules holds yet is protected where node would look for it, and so is a nearer place that would shadow a linked package', (t) => {
  const missing = workspace(t, 'node tools/check.js', { 'tools/check.js': 'require("left-pad");\nimport "@acme/x/y.js";\nrequire("@acme");\n' });
  const { unresolved, protects, location } = read(missing);
  t.deepEqual(unresolved, []);
  for (const name of [
    'node_modules/left-pad/index.js',
    'tools/node_modules/left-pad/package.json',
    'node_modules/left-pad.js',
    'tools/node_modules/left-pad.json',
    'node_modules/@acme/x/y.js',
    'node_modules/@acme/index.js',
  ])
    t.true(protects(name), name);
  t.true(location('node_modules/left-pad')?.tree);
  // Other names in node_modules stay the agent's (npm install of other packages).
  for (const name of ['node_modules/chalk/index.js', 'node_modules/@acme-z/index.js', 'node_modules/.package-lock.json']) t.false(protects(name), name);

  const shadow = workspace(t, 'node tools/check.js', { ...MONOREPO, 'tools/check.js': 'require("@acme/utils");\n' }, MONOREPO_LINKS);
  t.true(read(shadow).protects('tools/node_modules/@acme/utils/index.js'));
});

test('every place node looks before the installed copy is protected (made or not yet); the installed copy, farther places and other packages are not', (t) => {
  const installed = {
    'tools/check.js': 'require("chalk");\nrequire("kleur");\nrequire("lodash/fp/map");\n',
    'node_modules/chalk/package.json': json({ name: 'chalk', main: 'source/index.js' }),
    'node_modules/chalk/source/index.js': '',
    'node_modules/.pnpm/kleur@4.1.5/node_modules/kleur/package.json': json({ name: 'kleur', exports: { '.': './index.js' } }),
    'node_modules/.pnpm/kleur@4.1.5/node_modules/kleur/index.js': '',
    'node_modules/lodash/package.json': json({ name: 'lodash' }),
    'node_modules/lodash/fp/map.js': '',
    'tools/other.js': '',
  };
  const ws = workspace(t, 'node tools/check.js', installed, { 'node_modules/kleur': '.pnpm/kleur@4.1.5/node_modules/kleur' });
  const { unresolved, protects, location } = read(ws);
  t.deepEqual(unresolved, []);
  for (const name of [
    'tools/node_modules/chalk',
    'tools/node_modules/chalk/index.js',
    'tools/node_modules/chalk/package.json',
    'tools/node_modules/chalk.js',
    'tools/node_modules/chalk.json',
    'tools/node_modules/chalk.node',
    'tools/node_modules/kleur/index.js',
    'tools/node_modules/kleur.js',
    'tools/node_modules/lodash/fp/map.js',
    // CommonJS tries NAME.js in the installed copy's own node_modules before its directory (it has no "exports").
    'node_modules/chalk.js',
    'node_modules/chalk.node',
  ])
    t.true(protects(name), name);
  t.true(location('tools/node_modules/chalk')?.tree);
  for (const name of [
    // The installed copies themselves: the project's dependencies (the documented limit).
    'node_modules/chalk/source/index.js',
    'node_modules/chalk/package.json',
    'node_modules/.pnpm/kleur@4.1.5/node_modules/kleur/index.js',
    // kleur's "exports" is resolved before any file form of its name; a subpath has no file forms of the package name.
    'node_modules/kleur.js',
    'tools/node_modules/lodash.js',
    'node_modules/lodash.js',
    // npm install of another package, anywhere; the program's other files are the agent's as ever.
    'node_modules/left-pad/index.js',
    'tools/node_modules/left-pad/index.js',
    'node_modules/.package-lock.json',
    'tools/other.js',
  ])
    t.false(protects(name), name);

  // A program deeper than its package's node_modules: the places between it and the installed copy, none beyond.
  const deep = workspace(t, 'node packages/app/src/check.js', {
    'packages/app/src/check.js': 'import chalk from "chalk";\n',
    'packages/app/node_modules/chalk/package.json': json({ name: 'chalk' }),
    'packages/app/node_modules/chalk/index.js': '',
    'node_modules/chalk/index.js': '',
  });
  const app = read(deep);
  t.deepEqual(app.unresolved, []);
  t.true(app.protects('packages/app/src/node_modules/chalk/index.js'));
  for (const name of ['packages/app/node_modules/chalk/index.js', 'node_modules/chalk/index.js', 'node_modules/chalk.js', 'packages/node_modules/chalk/index.js']) t.false(app.protects(name), name);
});

test('globalFolders: NODE_PATH entries in order, then the home folders; a relative entry is a reason, empty ones are skipped', (t) => {
  t.deepEqual(globalFolders({}), []);
  t.deepEqual(globalFolders({ NODE_PATH: '/opt/a::/opt/b/', HOME: '/home/u' }), [
    { directory: '/opt/a' },
    { directory: '/opt/b' },
    { directory: '/home/u/.node_modules' },
    { directory: '/home/u/.node_libraries' },
  ]);
  t.true('reason' in globalFolders({ NODE_PATH: 'lib' })[0]!);
});

test('NODE_PATH and the home folders are where CommonJS looks after node_modules: a name there is read or protected, a relative entry reached is unresolved', (t) => {
  const ws = workspace(t, 'node tools/check.js', {
    'tools/check.js': 'require("helper");\nrequire("left-pad");\nrequire("chalk");\n',
    'lib/helper.js': 'require("./inner.js");\n',
    'lib/inner.js': '',
    'lib/other.js': '',
    'global/node_modules/chalk/index.js': '',
    'node_modules/.keep': '',
  });
  const environment = { ...HOST, NODE_PATH: `${path.join(ws, 'lib')}:${path.join(ws, 'global/node_modules')}`, HOME: path.join(ws, 'home') };
  const { unresolved, protects } = read(ws, environment);
  t.deepEqual(unresolved, []);
  for (const name of [
    // The project's own file found through NODE_PATH, and nearer places that would shadow it.
    'lib/helper.js',
    'node_modules/helper.js',
    'tools/node_modules/helper/index.js',
    // A name installed nowhere: every place, NODE_PATH's and the home folders' too.
    'lib/left-pad/index.js',
    'global/node_modules/left-pad.js',
    'home/.node_modules/left-pad/index.js',
    'home/.node_libraries/left-pad.js',
    // Installed in a NODE_PATH node_modules: every place before it.
    'lib/chalk.js',
    'node_modules/chalk/index.js',
  ])
    t.true(protects(name), name);
  for (const name of ['lib/other.js', 'global/node_modules/chalk/index.js', 'home/.node_modules/chalk/index.js', 'home/.node_modules/other/index.js']) t.false(protects(name), name);

  // A relative NODE_PATH entry depends on where the hook is started: unresolved once the lookup reaches it, not before.
  t.is(read(ws, { ...HOST, NODE_PATH: 'lib' }).unresolved.length, 3);
  const installed = workspace(t, 'node tools/check.js', { 'tools/check.js': 'require("chalk");\n', 'node_modules/chalk/index.js': '' });
  t.deepEqual(read(installed, { ...HOST, NODE_PATH: 'lib' }).unresolved, []);
});

test('a hook written in node that requires many packages not installed yet stays within what zotbox reads', (t) => {
  const ws = workspace(t, 'true', {});
  const requires = Array.from({ length: 60 }, (_, i) => `require("pkg-${i}");`).join('\n');
  writeFileSync(path.join(ws, '.git/hooks/pre-commit'), `#!/usr/bin/env node\n${requires}\n`);
  const { unresolved, location } = read(ws);
  t.deepEqual(unresolved, []);
  t.true(location('node_modules/pkg-59.js')?.tree);
});

test('what zotbox cannot decide about a linked package is unresolved, never installed code', (t) => {
  for (const [files, links, code] of [
    [{ 'packages/utils/package.json': json({ exports: { './a': './a.js' } }) }, { 'node_modules/u': '../packages/utils' }, 'require("u/b");\n'],
    [{ 'packages/utils/package.json': json({ exports: { '.': '../outside.js' } }) }, { 'node_modules/u': '../packages/utils' }, 'require("u");\n'],
    [{ 'packages/utils/package.json': json({ exports: { '.': 7 } }) }, { 'node_modules/u': '../packages/utils' }, 'require("u");\n'],
    [{ 'packages/utils/package.json': '{ not json' }, { 'node_modules/u': '../packages/utils' }, 'require("u");\n'],
    [{}, { 'node_modules/u': '../packages/gone' }, 'require("u");\n'],
    [{}, { 'node_modules/u': 'u' }, 'require("u");\n'],
  ] as const) {
    const ws = workspace(t, 'node tools/check.js', { ...files, 'tools/check.js': code }, links);
    t.is(read(ws).unresolved.length, 1, `${json(files)} ${json(links)} ${code}`);
  }
});

test('a linked package re-pointed by a command is found changed and put back (the link is recorded as a link)', (t) => {
  const ws = workspace(
    t,
    'node tools/check.js',
    { ...MONOREPO, 'tools/check.js': 'require("@acme/utils").lint();\n', 'evil/package.json': json({ name: '@acme/utils', main: 'index.js' }), 'evil/index.js': 'require("fs");\n' },
    MONOREPO_LINKS,
  );
  const set = () => protectedSetOf(scanGitMetadata([ws], []), [ws], undefined);
  // The link is protected as a link: what it leads to is not protected whole (the package's other files stay the agent's).
  t.is(findControlLocation(path.join(ws, 'packages/utils/unused.js'), set().locations), undefined);
  t.truthy(findControlLocation(path.join(ws, 'packages/utils/lint.js'), set().locations));
  t.deepEqual(restoreProtected(recordProtected(set(), [ws]), set(), [ws]), []);
  const record = recordProtected(set(), [ws]);
  rmSync(path.join(ws, 'node_modules/@acme/utils'));
  symlinkSync('../../evil', path.join(ws, 'node_modules/@acme/utils'));
  // (What the re-pointed link made protected during the call, evil/'s files, is removed as new, as for any protected path.)
  t.true(restoreProtected(record, set(), [ws]).some((change) => change.path === path.join(ws, 'node_modules/@acme/utils')));
  t.is(readlinkSync(path.join(ws, 'node_modules/@acme/utils')), '../../packages/utils');
});
