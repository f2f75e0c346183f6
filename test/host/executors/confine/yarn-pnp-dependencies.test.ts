// Where a dependency's bin yarn runs under Plug'n'Play lies (yarn-pnp-dependencies.ts): which specs are the registry's,
// and the folders yarn's settings and the user's environment name. Expected outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isRegistrySpec, yarnInstalledCode } from '../../../../src/host/executors/confine/yarn-pnp-dependencies.js';
import { tempDir } from '../../../fixtures/temp.js';

test("a registry's spec or a workspace's is one whose code yarn puts in its cache", (t) => {
  for (const spec of [
    '^9.0.0',
    '~1.2',
    '1.2.3',
    '1.0.0-beta.1',
    '>=1 <2',
    '1.x',
    '*',
    '',
    'latest',
    'next',
    'npm:^9',
    'npm:eslint@^9',
    'npm:@acme/lint@1.0.0',
    'workspace:*',
    'workspace:^',
    'patch:eslint@npm%3A9.0.0#~/.yarn/patches/eslint.patch',
  ])
    t.true(isRegistrySpec(spec), spec);
  for (const spec of [
    'link:../lint',
    'portal:../lint',
    'file:../lint',
    '../lint',
    './lint',
    '.',
    '..',
    '/abs/lint',
    '~/lint',
    'lint.tgz',
    'lint-1.0.0.tar.gz',
    'acme/lint',
    'github:acme/lint',
    'git+ssh://git@github.com/acme/lint.git',
    'https://example.com/lint.tgz',
    'exec:./build.js',
    'npm:../lint',
    'patch:lint@link%3A../lint#x.patch',
    'patch:%E0%A4%A',
  ])
    t.false(isRegistrySpec(spec), spec);
});

function workspace(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-yarn-deps-')), 'ws');
  for (const [name, content] of Object.entries({ 'package.json': '{"name":"app","devDependencies":{"eslint":"^9"}}\n', ...files })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

test("yarn's default folders, from where it runs up, and the global cache in the home directory", (t) => {
  const ws = workspace(t, {});
  const home = path.join(path.dirname(ws), 'home');
  const code = yarnInstalledCode(ws, [ws], { homeDirectory: home, environment: { XDG_DATA_HOME: '/xdg' } });
  t.is(code.unresolved, undefined);
  for (const folder of [path.join(ws, '.yarn/cache'), path.join(ws, '.yarn/unplugged'), path.join(home, '.yarn/berry/cache'), '/xdg/yarn/berry/cache']) t.true(code.folders.includes(folder), folder);
  for (const file of [path.join(ws, 'yarn.lock'), path.join(ws, '.yarn/install-state.gz'), path.join(ws, '.yarnrc.yml'), path.join(home, '.yarnrc.yml'), path.join(ws, 'package.json')])
    t.true(code.files.includes(file), file);
});

test('folder settings are resolved from the rc file that sets them, inside the project or outside it', (t) => {
  const ws = workspace(t, { '.yarnrc.yml': 'cacheFolder: ../shared/cache\nglobalFolder: /opt/yarn\ninstallStatePath: state/install.gz\nlockfileFilename: deps.lock\n' });
  const code = yarnInstalledCode(path.join(ws, 'src'), [ws]);
  t.is(code.unresolved, undefined);
  for (const folder of [path.join(path.dirname(ws), 'shared/cache'), '/opt/yarn/cache']) t.true(code.folders.includes(folder), folder);
  for (const file of [path.join(ws, 'state/install.gz'), path.join(ws, 'deps.lock')]) t.true(code.files.includes(file), file);
});

test('a folder setting zotbox cannot spell out, an rc file it cannot parse, or a foreign spec is a reason', (t) => {
  for (const rc of [
    'cacheFolder: ${HOME}/c\n',
    'pnpUnpluggedFolder: ~/u\n',
    'installStatePath: 3\n',
    'lockfileFilename: ../x.lock\n',
    'cacheFolder: [\n',
    'packageExtensions: 1\n',
    'packageExtensions:\n  "a@*":\n    peerDependencies:\n      b: "portal:../b"\n',
  ])
    t.truthy(yarnInstalledCode(workspace(t, { '.yarnrc.yml': rc }), []).unresolved, rc);
  for (const environment of [{ YARN_CACHE_FOLDER: 'relative/cache' }, { YARN_RC_FILENAME: '.other.yml' }, { YARN_PACKAGE_EXTENSIONS: '{}' }])
    t.truthy(yarnInstalledCode(workspace(t, {}), [], { environment }).unresolved, JSON.stringify(environment));
  t.deepEqual(yarnInstalledCode(workspace(t, {}), [], { environment: { YARN_CACHE_FOLDER: '/var/cache/yarn' } }).folders.includes('/var/cache/yarn'), true);
  for (const json of ['{"resolutions":{"eslint":"link:./eslint"}}', '{"dependencies":["eslint"]}', '{"optionalDependencies":{"x":"file:x.tgz"}}', '[1]']) {
    const ws = workspace(t, { 'packages/a/package.json': json });
    t.truthy(yarnInstalledCode(ws, [ws, path.join(ws, 'packages/a')]).unresolved, json);
  }
});
