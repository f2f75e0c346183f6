// The packages of a JavaScript workspace as npm, yarn and pnpm list them (node-workspace-packages.ts), and the names a
// hook runs in them (node-bin-runs.ts): every expected list is written out by hand for the temp tree built here.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { nodeBinReading } from '../../../../src/host/executors/confine/node-bin-runs.js';
import { selectedPackages, workspacePackages } from '../../../../src/host/executors/confine/node-workspace-packages.js';

/** A temp tree of `files` (a name ending in "/" is an empty directory), removed after the test. */
function tree(t: ExecutionContext, files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'zb-nbwork-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.join(root, name.endsWith('/') ? name : path.dirname(name)), { recursive: true });
    if (!name.endsWith('/')) writeFileSync(path.join(root, name), text);
  }
  return root;
}

const PACKAGES = { 'packages/a/package.json': '{}', 'packages/b/package.json': '{}', 'packages/.hidden/package.json': '{}', 'apps/web/package.json': '{}', 'apps/web/src/x.js': '', 'tools/x.js': '' };

const listed = (root: string, from = root) => {
  const found = workspacePackages(from);
  return 'reason' in found ? [found.reason] : found.directories.map((directory) => path.relative(root, directory) || '.').sort();
};

test('package.json workspaces (an array or {packages}) and pnpm-workspace.yaml list the root and every directory their globs match', (t) => {
  const npm = tree(t, { ...PACKAGES, 'package.json': '{"workspaces":["packages/*"]}' });
  t.deepEqual(listed(npm), ['.', 'packages/.hidden', 'packages/a', 'packages/b']);
  const yarn = tree(t, { ...PACKAGES, 'package.json': '{"workspaces":{"packages":["apps/*","packages/a"]}}' });
  t.deepEqual(listed(yarn), ['.', 'apps/web', 'packages/a']);
  const pnpm = tree(t, { ...PACKAGES, 'pnpm-workspace.yaml': "packages:\n  - 'apps/**'\n  - packages/*\n  - '!packages/b'\n" });
  t.deepEqual(listed(pnpm), ['.', 'apps', 'apps/web', 'apps/web/src', 'packages/.hidden', 'packages/a']);
  // From a package directory, the nearest root above it.
  t.deepEqual(listed(npm, path.join(npm, 'packages/a')), ['.', 'packages/.hidden', 'packages/a', 'packages/b']);
});

test('an exclusion with a wildcard never excludes a dot directory the tools keep; node_modules is never a package', (t) => {
  const root = tree(t, { ...PACKAGES, 'packages/node_modules/x/package.json': '{}', 'pnpm-workspace.yaml': 'packages: ["packages/*", "!packages/*"]\n' });
  t.deepEqual(listed(root), ['.', 'packages/.hidden']);
});

test('every workspace file examined is named, there or not: they decide what runs', (t) => {
  const root = tree(t, { ...PACKAGES, 'package.json': '{"workspaces":["packages/*"]}' });
  const found = workspacePackages(path.join(root, 'packages/a'));
  t.deepEqual(
    found.files.map((file) => path.relative(root, file)),
    ['packages/a/package.json', 'packages/a/pnpm-workspace.yaml', 'packages/package.json', 'packages/pnpm-workspace.yaml', 'package.json', 'pnpm-workspace.yaml'],
  );
});

test('what zotbox cannot read is a reason, never no packages', (t) => {
  const cases: Record<string, string>[] = [
    {},
    { 'package.json': '{"workspaces":' },
    { 'package.json': '{"workspaces":"packages/*"}' },
    { 'pnpm-workspace.yaml': 'packages: [' },
    { 'pnpm-workspace.yaml': 'packages:\n  - packages/{a,b}\n' },
    { 'pnpm-workspace.yaml': 'packages:\n  - packages/?\n' },
    { 'pnpm-workspace.yaml': 'packages:\n  - ../outside\n' },
    { 'pnpm-workspace.yaml': 'packages:\n  - 3\n' },
    { 'pnpm-workspace.yaml': 'catalog:\n  x: 1\n' },
    { 'pnpm-workspace.yaml': '' },
  ];
  for (const files of cases) {
    const root = tree(t, { 'sub/x.js': '', ...files });
    t.true('reason' in workspacePackages(path.join(root, 'sub')), JSON.stringify(files));
  }
  // A workspace file that is a link is not read through.
  const linked = tree(t, { ...PACKAGES, 'real.yaml': 'packages: ["packages/*"]\n' });
  symlinkSync('real.yaml', path.join(linked, 'pnpm-workspace.yaml'));
  t.true('reason' in workspacePackages(linked));
});

test('a selector path picks the packages at or below it; a name, a pattern or a path no package is at picks all', (t) => {
  const all = ['/w', '/w/packages/a', '/w/packages/b', '/w/apps/web'];
  t.deepEqual(selectedPackages(all, ['./packages/a'], '/w'), ['/w/packages/a']);
  t.deepEqual(selectedPackages(all, ['packages'], '/w'), all);
  t.deepEqual(selectedPackages(all, ['packages/b'], '/w'), ['/w/packages/b']);
  t.deepEqual(selectedPackages(all, ['./packages'], '/w'), ['/w/packages/a', '/w/packages/b']);
  for (const values of [['web'], ['@acme/web'], ['./packages/a...'], ['{./apps/*}'], ['./nowhere'], ['*'], ['./packages/a', 'web'], []])
    t.deepEqual(selectedPackages(all, values, '/w'), all, JSON.stringify(values));
});

test('a name a hook runs in workspace packages is looked up from each package picked; the workspace files are named', (t) => {
  // Globs listed literally: the packages are known, and every one picked is looked in.
  const root = tree(t, { ...PACKAGES, 'package.json': '{"workspaces":["packages/a","packages/b","apps/web"]}' });
  const at = (...names: string[]) => names.map((name) => path.join(root, name));
  const runs = (text: string, from = root) => nodeBinReading(text, { workingDirectory: from }).runs.map((run) => ({ ...run, directories: [...run.directories].sort() }));
  const everyPackage = [{ name: 'acme-lint', directories: at('.', 'apps/web', 'packages/a', 'packages/b').sort() }];
  for (const text of [
    'pnpm -r exec acme-lint',
    'pnpm --filter web exec acme-lint',
    'npm exec --workspaces -- acme-lint',
    'yarn workspace web acme-lint',
    'yarn workspaces foreach -A run acme-lint',
    'cd apps && pnpm -r exec acme-lint',
  ])
    t.deepEqual(runs(text), everyPackage, text);
  const reading = nodeBinReading('pnpm -r exec acme-lint', { workingDirectory: root });
  t.deepEqual(reading.unresolved, []);
  t.deepEqual(reading.files, at('package.json', 'pnpm-workspace.yaml'));
  // Globs with a pattern: a package the agent makes later (packages/evil with its own node_modules/.bin/acme-lint)
  // would run too, and cannot be protected before it exists. Every package: unresolved; packages picked by path: exact.
  const open = tree(t, { ...PACKAGES, 'package.json': '{"workspaces":["packages/*","apps/*"]}' });
  const inOpen = (...names: string[]) => names.map((name) => path.join(open, name));
  for (const text of ['pnpm -r exec acme-lint', 'pnpm --filter web exec acme-lint', 'npm exec --workspaces -- acme-lint', 'yarn workspace web acme-lint', 'yarn workspaces foreach -A run acme-lint']) {
    const openReading = nodeBinReading(text, { workingDirectory: open });
    t.deepEqual(openReading.runs, [], text);
    t.is(openReading.unresolved.length, 1, text);
  }
  t.deepEqual(runs('npm exec -w packages/a -- acme-lint', open), [{ name: 'acme-lint', directories: inOpen('packages/a') }]);
  t.deepEqual(runs('pnpm --filter=./apps/web exec acme-lint', open), [{ name: 'acme-lint', directories: inOpen('apps/web') }]);
  // No workspace root above the tree, or a glob form not read: the name cannot be placed.
  const bare = tree(t, { 'src/app.js': '' });
  t.is(nodeBinReading('pnpm -r exec acme-lint', { workingDirectory: bare }).unresolved.length, 1);
  const braces = tree(t, { 'pnpm-workspace.yaml': 'packages: ["packages/{a,b}"]\n' });
  t.is(nodeBinReading('npm exec -w packages/a -- acme-lint', { workingDirectory: braces }).unresolved.length, 1);
});
