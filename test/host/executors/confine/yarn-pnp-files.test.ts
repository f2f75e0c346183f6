// What yarn runs as code where it runs (yarn-pnp-files.ts) and what a name it runs under Plug'n'Play is
// (yarn-pnp-bins.ts). Expected outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { yarnPnpName } from '../../../../src/host/executors/confine/yarn-pnp-bins.js';
import { yarnProjectFiles } from '../../../../src/host/executors/confine/yarn-pnp-files.js';
import { tempDir } from '../../../fixtures/temp.js';

function tree(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-yarn-pnp-')), 'ws');
  mkdirSync(ws, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

test('yarnProjectFiles: the runtime, every rc file up to the root, and the release and plugins .yarnrc.yml names, there or not', (t) => {
  const ws = tree(t, {
    '.yarnrc.yml': 'nodeLinker: pnp\nyarnPath: .yarn/releases/yarn-4.5.0.cjs\nplugins:\n  - path: .yarn/plugins/a.cjs\n    spec: x\n  - .yarn/plugins/b.cjs\n',
    'packages/app/package.json': '{}\n',
  });
  const found = yarnProjectFiles(path.join(ws, 'packages/app'));
  t.deepEqual(found.unresolved, []);
  t.true(found.pnp);
  for (const name of [
    '.pnp.cjs',
    '.pnp.loader.mjs',
    '.pnp.data.json',
    '.yarnrc.yml',
    '.yarnrc',
    '.yarn/releases/yarn-4.5.0.cjs',
    '.yarn/plugins/a.cjs',
    '.yarn/plugins/b.cjs',
    'packages/app/.yarnrc.yml',
    'packages/app/.pnp.cjs',
  ])
    t.true(found.files.includes(path.join(ws, name)), name);
  t.false(found.files.includes(path.join(ws, 'packages/app/package.json')));
});

test('yarnProjectFiles: Plug`n`Play is a .pnp.cjs there or the nearest nodeLinker saying pnp; yarn 1`s yarn-path is named', (t) => {
  t.true(yarnProjectFiles(tree(t, { '.pnp.cjs': '"use strict";\n' })).pnp);
  t.false(yarnProjectFiles(tree(t, { '.yarnrc.yml': 'nodeLinker: node-modules\n' })).pnp);
  t.false(yarnProjectFiles(tree(t, { 'package.json': '{}\n' })).pnp);
  const nested = tree(t, { '.yarnrc.yml': 'nodeLinker: pnp\n', 'app/.yarnrc.yml': 'nodeLinker: node-modules\n' });
  t.false(yarnProjectFiles(path.join(nested, 'app')).pnp);
  t.true(yarnProjectFiles(nested).pnp);
  const classic = tree(t, { '.yarnrc': 'yarn-path "./.yarn/releases/yarn-1.22.19.js"\n' });
  t.true(yarnProjectFiles(classic).files.includes(path.join(classic, '.yarn/releases/yarn-1.22.19.js')));
});

test('yarnProjectFiles: an rc file zotbox cannot parse, or a path it cannot spell out, is unresolved', (t) => {
  for (const rc of ['nodeLinker: [pnp\n', 'yarnPath: ${HOME}/yarn.cjs\n', 'yarnPath: 3\n', '- a list\n', 'plugins: .yarn/plugins\n', 'nodeLinker: {a: 1}\n']) {
    const found = yarnProjectFiles(tree(t, { '.yarnrc.yml': rc }));
    t.is(found.unresolved.length, 1, rc);
  }
  t.deepEqual(yarnProjectFiles(tree(t, { '.yarnrc.yml': '# nothing\n' })).unresolved, []);
  t.is(yarnProjectFiles(tree(t, { '.yarnrc': 'yarn-path "${X}/yarn.js"\n' })).unresolved.length, 1);
});

const WORKSPACE = {
  'package.json': '{"name":"mono","workspaces":["packages/*"],"scripts":{"lint":"acme-lint"}}\n',
  'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
  'packages/one/package.json': '{"name":"@acme/one","bin":"cli.js"}\n',
  'packages/app/package.json': '{"name":"app"}\n',
};

test('yarnPnpName: a script of the package yarn runs in, else a workspace package`s bin (a string bin named like the package)', (t) => {
  const ws = tree(t, WORKSPACE);
  // The script's text is handed back: node-bin-runs.ts reads the names it runs as yarn runs them.
  const manifest = path.join(ws, 'package.json');
  t.deepEqual(yarnPnpName('lint', ws), { bins: [], files: [manifest], script: { file: manifest, text: 'acme-lint' } });
  const bin = yarnPnpName('acme-lint', path.join(ws, 'packages/app'));
  t.deepEqual(bin.bins, [path.join(ws, 'packages/lint/bin/lint.js')]);
  t.is(bin.unresolved, undefined);
  for (const name of ['package.json', 'packages/lint/package.json', 'packages/app/package.json']) t.true(bin.files.includes(path.join(ws, name)), name);
  // Yarn takes a workspace's bin path from these too: they decide what runs.
  for (const name of ['yarn.lock', '.yarn/install-state.gz']) t.true(bin.files.includes(path.join(ws, name)), name);
  t.deepEqual(yarnPnpName('one', ws).bins, [path.join(ws, 'packages/one/cli.js')]);
});

test("yarnPnpName: a name no script nor workspace bin has is a dependency's bin: yarn's cache and unplugged folders, where every spec is the registry's; an unreadable package.json is unresolved", (t) => {
  const ws = tree(t, WORKSPACE);
  const dependency = yarnPnpName('eslint', ws);
  t.is(dependency.unresolved, undefined);
  t.deepEqual(dependency.bins, []);
  for (const folder of ['.yarn/cache', '.yarn/unplugged']) t.true(dependency.installed?.includes(path.join(ws, folder)), folder);
  for (const file of ['yarn.lock', '.yarn/install-state.gz', 'packages/app/package.json']) t.true(dependency.files.includes(path.join(ws, file)), file);
  // One package, no workspaces: that package's own specs decide.
  const single = tree(t, { 'package.json': '{"name":"single","devDependencies":{"eslint":"^9"}}\n' });
  t.true(yarnPnpName('eslint', single).installed?.includes(path.join(single, '.yarn/cache')));
  t.truthy(yarnPnpName('eslint', tree(t, { 'package.json': '{"name":"single","devDependencies":{"eslint":"link:../eslint"}}\n' })).unresolved);
  t.truthy(yarnPnpName('eslint', tree(t, { ...WORKSPACE, 'packages/app/package.json': '{"name":"app","dependencies":{"eslint":"portal:../../eslint"}}' })).unresolved);
  t.truthy(yarnPnpName('acme-lint', tree(t, { ...WORKSPACE, 'packages/app/package.json': '{' })).unresolved);
  t.truthy(yarnPnpName('acme-lint', tree(t, { ...WORKSPACE, 'packages/app/package.json': '{"name":"app","directories":{"bin":"b"}}' })).unresolved);
});

test("yarnProjectFiles: the environment files .yarnrc.yml's injectEnvironmentFiles lists (a trailing ? is the same file); one zotbox cannot spell out is unresolved", (t) => {
  const ws = tree(t, { '.yarnrc.yml': 'injectEnvironmentFiles:\n  - .env\n  - config/local.env?\n', 'app/package.json': '{}\n' });
  const found = yarnProjectFiles(path.join(ws, 'app'));
  t.deepEqual(found.unresolved, []);
  for (const name of ['.env', 'config/local.env']) t.true(found.files.includes(path.join(ws, name)), name);
  for (const rc of ['injectEnvironmentFiles: .env\n', 'injectEnvironmentFiles:\n  - ${HOME}/x.env\n', 'injectEnvironmentFiles:\n  - 3\n'])
    t.is(yarnProjectFiles(tree(t, { '.yarnrc.yml': rc })).unresolved.length, 1, rc);
});
