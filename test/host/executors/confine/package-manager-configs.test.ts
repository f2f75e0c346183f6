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
function project(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>> = {}, home?: string, user: Readonly<Record<string, string>> = {}) {
  const ws = path.join(tempDir(t, 'zb-npmrc-'), 'ws');
  const all: Record<string, string> = { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, 'package.json': '{"name":"app","private":true}\n', 'src/app.js': '1;\n', ...files };
  for (const [name, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  const environment = { PATH: '/usr/bin:/bin', HOME: home ?? path.join(path.dirname(ws), 'home'), ...user };
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

// The environment files a runner loads into what it runs (NODE_OPTIONS there reaches every node it starts).
for (const [name, hook, files] of [
  ["yarn 4: .env.yarn (injectEnvironmentFiles' default)", 'yarn acme-lint', ['.env.yarn']],
  ['bun run: the .env family', 'bun run lint', ['.env', '.env.local', '.env.development', '.env.production', '.env.test']],
  ['bunx', 'bunx eslint .', ['.env', '.env.local']],
  ['pipenv run: .env', 'pipenv run python tools/lint.py', ['.env']],
  ['nx (through npx): the workspace .env family', 'npx nx run-many -t lint', ['.env', '.local.env', '.env.local']],
  ['in each directory the runner runs in, and above', 'cd web && bun run lint', ['web/.env', 'web/.env.local', '.env']],
] as const)
  test(`an environment file a runner loads on its own is protected, there or not: ${name}`, (t) => {
    const { unresolved, protects } = project(t, hook, { 'web/package.json': '{"name":"web"}\n' });
    t.deepEqual(unresolved, []);
    for (const file of files) t.true(protects(file), file);
    t.false(protects('src/app.js'));
  });

test('over-denial: a .env is not protected where the hook runs only runners that do not load it (npm, pnpm)', (t) => {
  const { unresolved, protects } = project(t, 'npm test && pnpm lint');
  t.deepEqual(unresolved, []);
  t.false(protects('.env'));
  t.false(protects('.env.yarn'));
});

test("what an environment file there names is protected and read: .env.yarn's NODE_OPTIONS --require", (t) => {
  const { unresolved, protects } = project(t, 'yarn acme-lint', { '.env.yarn': 'NODE_OPTIONS=--require ./tools/preload.cjs\n' });
  t.deepEqual(unresolved, []);
  t.true(protects('tools/preload.cjs'));
});

test('bun: NODE_ENV a hook sets adds .env.NODE_ENV; one zotbox cannot spell out refuses every writer', (t) => {
  const set = project(t, 'NODE_ENV=staging bun run lint');
  t.deepEqual(set.unresolved, []);
  t.true(set.protects('.env.staging'));
  const unknown = project(t, 'NODE_ENV="$STAGE" bun run lint');
  t.is(unknown.unresolved.length, 1, unknown.unresolved.join('\n'));
  t.true(unknown.unresolved[0]!.includes('NODE_ENV'));
});

test('pipenv: the file PIPENV_DOTENV_LOCATION names is protected; one zotbox cannot spell out refuses every writer', (t) => {
  const set = project(t, 'PIPENV_DOTENV_LOCATION=config/dev.env pipenv run lint');
  t.deepEqual(set.unresolved, []);
  t.true(set.protects('config/dev.env'));
  t.true(set.protects('.env'));
  // Set in the user's environment: no word of the hook names it.
  const own = project(t, 'pipenv run lint', {}, undefined, { PIPENV_DOTENV_LOCATION: 'config/dev.env' });
  t.deepEqual(own.unresolved, []);
  t.true(own.protects('config/dev.env'));
  t.false(own.protects('config/other.env'));
  const unknown = project(t, 'export PIPENV_DOTENV_LOCATION="$HOME/x.env"\npipenv run lint');
  t.is(unknown.unresolved.length, 1, unknown.unresolved.join('\n'));
});

test('yarn: a YARN_INJECT_ENVIRONMENT_FILES assignment (a list zotbox does not read) refuses every writer', (t) => {
  const { unresolved } = project(t, 'YARN_INJECT_ENVIRONMENT_FILES=.env yarn lint');
  t.is(unresolved.length, 1, unresolved.join('\n'));
});

test("a .env a .yarnrc.yml's injectEnvironmentFiles lists is protected where the hook runs yarn", (t) => {
  const { unresolved, protects } = project(t, 'yarn lint', { '.yarnrc.yml': 'injectEnvironmentFiles:\n  - .env\n  - config/ci.env?\n' });
  t.deepEqual(unresolved, []);
  t.true(protects('.env'));
  t.true(protects('config/ci.env'));
});

// A runner's own directory options move it for the config lookup, as cd does.
for (const [hook, config] of [
  ['npm --prefix web test', 'web/.npmrc'],
  ['npm -C web test', 'web/.npmrc'],
  ['npm run lint --prefix=web', 'web/.npmrc'],
  ['npx --prefix web eslint .', 'web/.npmrc'],
  ['npm exec --prefix web -- eslint .', 'web/.npmrc'],
  ['npm_config_prefix=web npm test', 'web/.npmrc'],
  ['NPM_CONFIG_PREFIX=web npm test', 'web/.npmrc'],
  ['bun --cwd web run lint', 'web/bunfig.toml'],
  ['bun --cwd=web run lint', 'web/.env'],
  ['sh -c "npm --prefix web test"', 'web/.npmrc'],
  ['cd packages && npm --prefix web test', 'packages/web/.npmrc'],
] as const)
  test(`the directory a runner's own option moves it to is placed: ${hook}`, (t) => {
    const { unresolved, protects } = project(t, hook);
    t.deepEqual(unresolved, []);
    t.true(protects(config), config);
    t.true(protects(config.replace(/^(?:packages\/)?web\//u, '')), 'and above');
    t.false(protects('other/.npmrc'));
  });

for (const hook of ['npm --prefix "$DIR" test', 'npm test --prefix=$(cat .where)', 'npx -C web* eslint', 'npm_config_prefix=$X npm test', 'bun --cwd "$1" run lint'])
  test(`a directory option zotbox cannot spell out refuses every writer: ${hook}`, (t) => {
    const { unresolved } = project(t, hook);
    t.true(
      unresolved.some((why) => why.includes('project configuration')),
      unresolved.join('\n'),
    );
  });

test("over-denial: another program's -C, and the script's own --prefix after --, place nothing", (t) => {
  const { unresolved, protects } = project(t, 'git -C sub status && make -C "$D" && npm test -- --prefix x');
  t.deepEqual(unresolved, []);
  t.false(protects('sub/.npmrc'));
  t.false(protects('x/.npmrc'));
  t.true(protects('.npmrc'));
});
