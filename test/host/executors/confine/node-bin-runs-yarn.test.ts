// yarn under Plug'n'Play, bun as a package runner, and a wrapper's command zotbox cannot spell out where a runner or
// node_modules/.bin is in play (node-bin-runs.ts), read as a hook's text is (toolFileReferences). Expected outcomes
// written out by hand.
import test from 'ava';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nodeBinReading, nodeBinRuns } from '../../../../src/host/executors/confine/node-bin-runs.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const HOST = { PATH: process.env['PATH'] ?? '' };

/** A yarn workspace (`linker`: Plug'n'Play, no node_modules; or node_modules with the .bin link) with a pre-commit hook. */
function project(t: Parameters<typeof tempDir>[0], hook: string, linker: 'pnp' | 'node-modules' | 'none' = 'pnp', extra: Readonly<Record<string, string>> = {}) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-yarn-bin-')), 'ws');
  const files: Record<string, string> = {
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"],"scripts":{"lint":"acme-lint"}}\n',
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nrequire("../lib/rules.js");\n',
    'packages/lint/lib/rules.js': 'module.exports = {};\n',
    'src/app.js': 'x\n',
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    ...(linker === 'none' ? {} : { '.yarnrc.yml': `nodeLinker: ${linker}\nyarnPath: .yarn/releases/yarn-4.5.0.cjs\n`, '.yarn/releases/yarn-4.5.0.cjs': '// yarn\n' }),
    ...(linker === 'pnp' ? { '.pnp.cjs': '#!/usr/bin/env node\n"use strict";\n' } : {}),
    ...extra,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  chmodSync(path.join(ws, 'packages/lint/bin/lint.js'), 0o755);
  if (linker === 'node-modules') {
    mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
    mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
    symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
    symlinkSync('../@acme/lint/bin/lint.js', path.join(ws, 'node_modules/.bin/acme-lint'));
  }
  for (const name of ['.git/objects', '.git/refs']) mkdirSync(path.join(ws, name), { recursive: true });
  writeFileSync(path.join(ws, '.git/HEAD'), 'ref: refs/heads/main\n');
  const found = toolFileReferences([], [ws], { environment: HOST, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

const RUNTIME = ['.pnp.cjs', '.pnp.loader.mjs', '.yarnrc.yml', '.yarn/releases/yarn-4.5.0.cjs'];

for (const hook of ['yarn lint', 'yarn acme-lint', 'yarn run acme-lint', 'yarn exec acme-lint', 'yarn install', 'yarn', 'cd packages/lint && yarn acme-lint', 'yarn --cwd packages/lint acme-lint'])
  test(`what yarn runs as code (runtime, rc file, release) is protected where a hook runs yarn: ${hook}`, (t) => {
    const { unresolved, protects } = project(t, hook);
    t.deepEqual(unresolved, [], hook);
    for (const file of RUNTIME) t.true(protects(file), `${hook}: ${file}`);
    // Over-denial: the project's ordinary files stay the agent's.
    t.false(protects('src/app.js'));
  });

for (const hook of ['yarn acme-lint', 'yarn run acme-lint', 'cd packages/lint && yarn run acme-lint'])
  test(`a workspace bin yarn runs under Plug'n'Play is read as run: ${hook}`, (t) => {
    const { unresolved, protects } = project(t, hook);
    t.deepEqual(unresolved, [], hook);
    for (const file of ['packages/lint/bin/lint.js', 'packages/lint/lib/rules.js', 'packages/lint/package.json']) t.true(protects(file), `${hook}: ${file}`);
    t.false(protects('src/app.js'));
  });

test("a dependency's bin yarn runs under Plug'n'Play (no script nor workspace bin has the name) protects yarn's cache and unplugged folders whole", (t) => {
  const dependency = { 'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"],"devDependencies":{"eslint":"^9.0.0","@acme/lint":"workspace:*"}}\n' };
  for (const hook of ['yarn eslint .', 'yarn run eslint', 'npx husky && yarn eslint .']) {
    const { unresolved, protects } = project(t, hook, 'pnp', dependency);
    t.deepEqual(unresolved, [], hook);
    for (const file of ['.yarn/cache/eslint-npm-9.0.0-abc.zip', '.yarn/unplugged/esbuild-npm-0.20.0-x/node_modules/esbuild/bin/esbuild', 'yarn.lock', '.yarn/install-state.gz'])
      t.true(protects(file), `${hook}: ${file}`);
    // Over-denial: the project's ordinary files stay the agent's.
    t.false(protects('src/app.js'), hook);
  }
  // Not under Plug'n'Play: a name no node_modules/.bin holds is the shell's, as before; and no yarn, no yarn files.
  t.deepEqual(project(t, 'yarn eslint .', 'node-modules').unresolved, []);
  t.false(project(t, 'yarn eslint .', 'node-modules').protects('.yarn/cache/eslint-npm-9.0.0-abc.zip'));
  const plain = project(t, 'npx acme-lint', 'pnp');
  t.false(plain.protects('.pnp.cjs'));
});

for (const spec of [
  'link:../lint',
  'portal:../lint',
  'file:../lint',
  '../lint',
  'github:acme/lint',
  'acme/lint',
  'https://example.com/lint.tgz',
  'git+https://example.com/lint.git',
  'exec:./build.js',
])
  test(`a dependency's bin yarn runs under Plug'n'Play where a dependency is ${spec} (its code is not in yarn's cache) refuses every writer`, (t) => {
    const linked = { 'packages/lint/package.json': `{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"},"dependencies":{"eslint":${JSON.stringify(spec)}}}\n` };
    t.true(
      project(t, 'yarn eslint .', 'pnp', linked).unresolved.some((why) => why.includes('"eslint"')),
      spec,
    );
    // A workspace bin is read as before, whatever the dependencies are.
    t.deepEqual(project(t, 'yarn acme-lint', 'pnp', linked).unresolved, [], spec);
  });

test("a dependency's bin under Plug'n'Play in a project of one package (no workspaces) protects the folders too", (t) => {
  const single = { 'package.json': '{"name":"app","private":true,"devDependencies":{"eslint":"npm:eslint@^9","prettier":"3.3.3"}}\n' };
  const { unresolved, protects } = project(t, 'yarn eslint .', 'pnp', single);
  t.deepEqual(unresolved, []);
  t.true(protects('.yarn/cache/eslint-npm-9.0.0-abc.zip'));
  t.false(protects('src/app.js'));
});

test("yarn's cacheFolder and pnpUnpluggedFolder settings move the folders protected; one zotbox cannot spell out refuses every writer", (t) => {
  const moved = { '.yarnrc.yml': 'nodeLinker: pnp\ncacheFolder: ./vendor/yarn-cache\npnpUnpluggedFolder: build/unplugged\n' };
  const { unresolved, protects } = project(t, 'yarn eslint .', 'pnp', moved);
  t.deepEqual(unresolved, []);
  t.true(protects('vendor/yarn-cache/eslint-npm-9.0.0-abc.zip'));
  t.true(protects('build/unplugged/esbuild-npm-0.20.0-x/node_modules/esbuild/bin/esbuild'));
  t.false(protects('vendor/other.js'));
  for (const rc of [
    'nodeLinker: pnp\ncacheFolder: ${HOME}/cache\n',
    'nodeLinker: pnp\nglobalFolder: ~/yarn\n',
    'nodeLinker: pnp\npackageExtensions:\n  "eslint@*":\n    dependencies:\n      evil: "link:./evil"\n',
  ])
    t.true(project(t, 'yarn eslint .', 'pnp', { '.yarnrc.yml': rc }).unresolved.length > 0, rc);
});

test('an rc file zotbox cannot parse, where a hook runs yarn, is unresolved; where none runs yarn, not read', (t) => {
  const broken = { '.yarnrc.yml': 'nodeLinker: [pnp\n' };
  t.true(project(t, 'yarn lint', 'none', broken).unresolved.length > 0);
  t.deepEqual(project(t, 'npm test', 'none', broken).unresolved, []);
  // One the agent may add later is protected before it exists (yarn reads it from where it runs upward).
  t.true(project(t, 'yarn lint', 'none').protects('.yarnrc.yml'));
});

test("bun's runs: `bun run NAME`, `bun x NAME`, `bun NAME`; bun's own commands run no name", (t) => {
  for (const [text, expected] of [
    ['bun run acme-lint', ['acme-lint']],
    ['bun x acme-lint', ['acme-lint']],
    ['bun acme-lint --fix', ['acme-lint']],
    ['bun --silent run acme-lint', ['acme-lint']],
    ['bun install', []],
    ['bun test', []],
    ['bun', []],
  ] as const)
    t.deepEqual(nodeBinRuns(text), [...expected], text);
  t.deepEqual(
    nodeBinReading('bun x @acme/lint', { workingDirectory: '/ws' }).packages.map((run) => run.name),
    ['@acme/lint'],
  );
  t.deepEqual(
    nodeBinReading('bun run acme-lint', { workingDirectory: '/ws' }).packages.map((run) => run.name),
    [],
  );
  for (const hook of ['bun run acme-lint', 'bun x acme-lint', 'bun acme-lint']) {
    const { unresolved, protects } = project(t, hook, 'node-modules');
    t.deepEqual(unresolved, [], hook);
    t.true(protects('packages/lint/bin/lint.js'), hook);
    t.false(protects('src/app.js'), hook);
  }
});

test('a wrapper`s command zotbox cannot spell out is unresolved where a runner or node_modules/.bin is in play', (t) => {
  const unresolved = (text: string, pathHasBin = false) => nodeBinReading(text, { workingDirectory: '/ws', pathHasBin }).unresolved.length > 0;
  for (const text of ['TOOL=$(cat .tool)\ncaffeinate "$TOOL"', 'CMD=$1\ntimeout 5 $CMD', 'xargs $(cat .tool) < files', 'timeout -s KILL 5 nice "$(cat .tool)"', 'flock .lock "$(cat .tool)"'])
    t.true(unresolved(text, true), text);
  t.true(unresolved('X=$(cat .tool)\nxargs $X\nnpx acme-lint'), 'a runner in the text');
  // Balance: no runner and no .bin on PATH; a wrapper whose command is spelled out; a variable the text never sets.
  for (const text of ['TOOL=$(cat .tool)\ncaffeinate "$TOOL"', 'xargs $(cat .tool) < files']) t.false(unresolved(text), text);
  for (const text of [
    'timeout 5 acme-lint',
    'timeout 5 eslint "$(git diff --name-only)"',
    'caffeinate "$UNSET_BY_THE_TEXT"',
    'xargs -n 1 eslint',
    // No wrapper: a test's operands (a venv's activate script puts an entry zotbox cannot spell out on PATH).
    'if [ ! "${1:-}" = "nondestructive" ] ; then unset X; fi',
  ])
    t.false(unresolved(text, true), text);
});
