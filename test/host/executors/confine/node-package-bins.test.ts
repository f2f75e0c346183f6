// What npx / npm exec run for a package spec (node-package-bins.ts): the folder's or the nearest installed package's
// package.json and the bins it lists; a package.json zotbox cannot read is unresolved. Expected outcomes by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageBins, specPackageName } from '../../../../src/host/executors/confine/node-package-bins.js';
import { tempDir } from '../../../fixtures/temp.js';

function tree(t: Parameters<typeof tempDir>[0], files: Record<string, string>): string {
  const root = realpathSync(tempDir(t, 'zb-node-package-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}

test('specPackageName: the name of a registry spec, with its version or tag dropped; none for a folder', (t) => {
  for (const [spec, name] of [
    ['@acme/lint', '@acme/lint'],
    ['@acme/lint@^1.2.0', '@acme/lint'],
    ['lint-staged@latest', 'lint-staged'],
    ['eslint', 'eslint'],
    ['./packages/lint', undefined],
    ['../lint', undefined],
    ['/abs/lint', undefined],
  ] as const)
    t.is(specPackageName(spec), name, spec);
});

test('a scoped package linked into node_modules (a workspace): its package.json and each bin, nearer candidates named too', (t) => {
  const root = tree(t, {
    'ws/packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js","acme-fix":"./bin/fix.js"}}',
    'ws/packages/app/src/x.js': '',
  });
  mkdirSync(path.join(root, 'ws/node_modules/@acme'), { recursive: true });
  symlinkSync('../../packages/lint', path.join(root, 'ws/node_modules/@acme/lint'));
  const found = packageBins('@acme/lint@1', path.join(root, 'ws/packages/app'));
  const pkg = path.join(root, 'ws/node_modules/@acme/lint');
  t.deepEqual(found, {
    places: [
      path.join(root, 'ws/packages/app/node_modules/@acme/lint/package.json'),
      path.join(root, 'ws/packages/node_modules/@acme/lint/package.json'),
      path.join(pkg, 'package.json'),
      path.join(pkg, 'bin/lint.js'),
      path.join(pkg, 'bin/fix.js'),
    ],
    bins: ['acme-lint', 'acme-fix'],
  });
});

test("a folder spec, and a string bin named as the package's unscoped name", (t) => {
  const root = tree(t, { 'packages/lint/package.json': '{"name":"@acme/lint","bin":"cli.js"}' });
  t.deepEqual(packageBins('./packages/lint', root), {
    places: [path.join(root, 'packages/lint/package.json'), path.join(root, 'packages/lint/cli.js')],
    bins: ['lint'],
  });
});

test('a package installed nowhere (npx downloads it) names nothing; a package without package.json or bin runs nothing', (t) => {
  const root = tree(t, { 'node_modules/nobin/package.json': '{"name":"nobin"}', 'node_modules/empty/index.js': '' });
  t.deepEqual(packageBins('not-installed', root), { places: [], bins: [] });
  t.deepEqual(packageBins('nobin', root), { places: [path.join(root, 'node_modules/nobin/package.json')], bins: [] });
  t.deepEqual(packageBins('empty', root), { places: [path.join(root, 'node_modules/empty/package.json')], bins: [] });
});

test('closed world: a package.json or bin zotbox cannot read is unresolved, its package.json still named', (t) => {
  const root = tree(t, {
    'node_modules/broken/package.json': '{"name":',
    'node_modules/odd/package.json': '{"name":"odd","bin":{"odd":7}}',
    'node_modules/dirbin/package.json': '{"name":"dirbin","directories":{"bin":"./bin"}}',
  });
  mkdirSync(path.join(root, 'node_modules/notfile/package.json'), { recursive: true });
  for (const name of ['broken', 'odd', 'dirbin', 'notfile']) {
    const found = packageBins(name, root);
    t.not(found.unresolved, undefined, name);
    t.true(found.places.includes(path.join(root, 'node_modules', name, 'package.json')), name);
  }
  t.not(packageBins('~/lint', root).unresolved, undefined);
});
