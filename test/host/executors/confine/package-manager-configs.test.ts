// The configuration a package manager reads from the project (.npmrc, .pnpmfile.cjs, .yarnrc, bunfig.toml,
// .bundle/config ...) is protected where a hook runs that package manager, with what such a config names; one there
// that cannot be read, or a directory the hook moves to that zotbox cannot place, refuses every writer.
import test from 'ava';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';
import type { ExecutionContext } from 'ava';

/** A repository whose pre-commit hook is `hook`, with `files`; what the tool files protect, and what is unresolved. */
function project(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>> = {}, home?: string) {
  const ws = path.join(tempDir(t, 'zb-npmrc-'), 'ws');
  const all: Record<string, string> = { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, 'package.json': '{"name":"app","private":true}\n', 'src/app.js': '1;\n', ...files };
  for (const [name, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  const environment = { PATH: '/usr/bin:/bin', HOME: home ?? path.join(path.dirname(ws), 'home') };
  const found = toolFileReferences([], [ws], { environment, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { ws, unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const [name, hook, configs] of [
  ['npx NAME: .npmrc (node-options, script-shell)', 'npx lint-staged', ['.npmrc']],
  ['npm test', 'npm test', ['.npmrc']],
  ['pnpm: .npmrc, the pnpmfile, pnpm-workspace.yaml', 'pnpm lint', ['.npmrc', '.pnpmfile.cjs', '.pnpmfile.mjs', 'pnpm-workspace.yaml']],
  ['yarn 1: .yarnrc (yarn-path) and .npmrc', 'yarn lint', ['.yarnrc', '.npmrc']],
  ['bun: bunfig.toml (preload)', 'bun test', ['bunfig.toml']],
  ['bunx NAME', 'bunx eslint .', ['bunfig.toml']],
  ['corepack: .corepack.env', 'corepack pnpm lint', ['.corepack.env', '.npmrc']],
  ['bundle exec: .bundle/config', 'bundle exec rubocop', ['.bundle/config']],
  ['a runner behind a wrapper and a path', 'timeout 60 /usr/bin/npm run lint', ['.npmrc']],
] as const)
  test(`a package manager's project configuration is protected, there or not, when a hook runs it: ${name}`, (t) => {
    const { unresolved, protects } = project(t, hook);
    t.deepEqual(unresolved, []);
    for (const config of configs) t.true(protects(config), config);
    t.false(protects('src/app.js'));
  });

test("node-options' relative --require is protected from where npm runs too", (t) => {
  const { unresolved, protects } = project(t, 'cd packages/web && npx acme-lint', { 'packages/web/package.json': '{"name":"web"}\n', '.npmrc': 'node-options=--require ./preload.js\n' });
  t.deepEqual(unresolved, []);
  t.true(protects('preload.js'));
  t.true(protects('packages/web/preload.js'));
});

test('the configuration is looked up in every directory the hook runs the package manager in, and above', (t) => {
  const { unresolved, protects } = project(t, 'cd packages/web && npm test', { 'packages/web/package.json': '{"name":"web"}\n' });
  t.deepEqual(unresolved, []);
  for (const config of ['packages/web/.npmrc', 'packages/.npmrc', '.npmrc']) t.true(protects(config), config);
  t.false(protects('packages/other/.npmrc'));
});

test('a hook that runs no package manager protects no .npmrc', (t) => {
  const { unresolved, protects } = project(t, 'make lint', { '.npmrc': 'node-options=--require ./tools/preload.js\n' });
  t.deepEqual(unresolved, []);
  t.false(protects('.npmrc'));
  t.false(protects('tools/preload.js'));
});

for (const [name, file, content, named] of [
  ['.npmrc node-options --require', '.npmrc', 'node-options=--require ./tools/preload.js\n', 'tools/preload.js'],
  ['.npmrc node-options --import=', '.npmrc', 'node-options = "--import=./tools/hook.mjs --max-old-space-size=4096"\n', 'tools/hook.mjs'],
  ['.npmrc script-shell', '.npmrc', 'script-shell=./tools/shell.sh\n', 'tools/shell.sh'],
  ['.npmrc userconfig: the file it names, and what that names', '.npmrc', 'userconfig=./config/npmrc\n', 'config/npmrc'],
] as const)
  test(`what an existing config names is protected: ${name}`, (t) => {
    const { unresolved, protects } = project(t, 'npx acme-lint', { [file]: content, 'config/npmrc': 'script-shell=../tools/other.sh\n' });
    t.deepEqual(unresolved, []);
    t.true(protects(named), named);
    if (named === 'config/npmrc') t.true(protects('tools/other.sh'));
  });

for (const [name, hook, file, content, named] of [
  ['yarn 1 .yarnrc yarn-path', 'yarn lint', '.yarnrc', 'yarn-path ".yarn/releases/yarn-1.22.19.cjs"\n', '.yarn/releases/yarn-1.22.19.cjs'],
  ['bunfig.toml preload', 'bun test', 'bunfig.toml', '[test]\npreload = ["./tools/setup.ts", "./tools/more.ts"]\n', 'tools/more.ts'],
  ['.bundle/config BUNDLE_GEMFILE (relative to .bundle/)', 'bundle exec rspec', '.bundle/config', '---\nBUNDLE_GEMFILE: "../gemfiles/ci.gemfile"\n', 'gemfiles/ci.gemfile'],
  ['.bundle/config BUNDLE_GEMFILE (relative to the project)', 'bundle exec rspec', '.bundle/config', '---\nBUNDLE_GEMFILE: "gemfiles/ci.gemfile"\n', 'gemfiles/ci.gemfile'],
  ['.corepack.env COREPACK_HOME', 'pnpm lint', '.corepack.env', 'COREPACK_HOME=./.cache/corepack\n', '.cache/corepack'],
] as const)
  test(`what an existing config names is protected: ${name}`, (t) => {
    const { unresolved, protects } = project(t, hook, { [file]: content });
    t.deepEqual(unresolved, []);
    t.true(protects(file), file);
    t.true(protects(named), named);
  });

test('over-denial: an ordinary .npmrc (a registry, a token from the environment) refuses nothing else', (t) => {
  const { unresolved, protects } = project(t, 'npx lint-staged', {
    '.npmrc': 'registry=https://registry.npmjs.org/\n@acme:registry=https://npm.acme.dev/\n//npm.acme.dev/:_authToken=${NPM_TOKEN}\nsave-exact=true\ncache=~/.npm-cache\n',
  });
  t.deepEqual(unresolved, []);
  t.true(protects('.npmrc'));
  t.false(protects('src/app.js'));
  t.false(protects('registry.npmjs.org'));
});

test('a config that is there but cannot be read refuses every writer', (t) => {
  const { unresolved } = project(t, 'npx lint-staged', { '.npmrc/x': '' });
  t.true(
    unresolved.some((why) => why.includes(`${path.sep}.npmrc exists but cannot be read`)),
    unresolved.join('\n'),
  );
});

test('a directory the package manager runs in that zotbox cannot place refuses every writer', (t) => {
  const { unresolved } = project(t, 'cd "$(cat .where)" && npm test');
  t.true(
    unresolved.some((why) => why.includes('project configuration')),
    unresolved.join('\n'),
  );
});

test("the user's own ~/.npmrc pointing npm's userconfig into the project: that file is protected and read", (t) => {
  const root = tempDir(t, 'zb-npmrc-home-');
  const home = path.join(root, 'home');
  mkdirSync(home);
  // The workspace is made by project() under its own temp root; the home then names a file there by absolute path.
  const { unresolved, protects, ws: at } = project(t, 'npx lint-staged', { 'config/npmrc': 'node-options=--require ./preload.js\n' }, home);
  writeFileSync(path.join(home, '.npmrc'), `userconfig=${path.join(at, 'config/npmrc')}\n`);
  const again = toolFileReferences([], [at], { environment: { PATH: '/usr/bin:/bin', HOME: home }, hookDirectories: [{ directory: path.join(at, '.git/hooks'), top: at }] });
  t.deepEqual(unresolved, []);
  t.false(protects('config/npmrc'), 'before the home names it');
  t.deepEqual(again.unresolved, []);
  t.truthy(findControlLocation(path.join(at, 'config/npmrc'), again.locations));
  t.truthy(findControlLocation(path.join(at, 'config/preload.js'), again.locations));
});

test('a linked ~/.npmrc (a dotfiles repository) is read where it leads', (t) => {
  const root = tempDir(t, 'zb-npmrc-link-');
  mkdirSync(path.join(root, 'home'));
  mkdirSync(path.join(root, 'dotfiles'));
  writeFileSync(path.join(root, 'dotfiles/npmrc'), 'save-exact=true\n');
  symlinkSync('../dotfiles/npmrc', path.join(root, 'home/.npmrc'));
  const { unresolved } = project(t, 'npx lint-staged', {}, path.join(root, 'home'));
  t.deepEqual(unresolved, []);
});
