// Names a hook runs through the project's node_modules/.bin (node-bin-runs.ts): npx, npm exec, pnpm, yarn, and a
// plain name where the hook's PATH holds node_modules/.bin (a PATH assignment, husky's hooks), looked up from where the
// hook runs upward and followed as the path written out is. Expected outcomes written out by hand.
import test from 'ava';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nodeBinPlaces, nodeBinReading, nodeBinRuns, putsNodeBinOnPath } from '../../../../src/host/executors/confine/node-bin-runs.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const HOST = { PATH: process.env['PATH'] ?? '' };

test('nodeBinRuns: the names npx, npm exec, pnpm, yarn, pnpx and bunx run, past their options and wrappers', (t) => {
  for (const [text, expected] of [
    ['npx acme-lint', ['acme-lint']],
    ['exec npx --yes acme-lint --fix', ['acme-lint']],
    ['npx -p @acme/lint acme-lint', ['acme-lint']],
    ['npm exec -- acme-lint', ['acme-lint']],
    ['npm exec acme-lint', ['acme-lint']],
    ['npm x -- acme-lint', ['acme-lint']],
    ['npm --prefix . exec -- acme-lint', ['acme-lint']],
    ['pnpm exec acme-lint', ['acme-lint']],
    ['pnpm acme-lint', ['acme-lint']],
    ['yarn acme-lint', ['acme-lint']],
    ['yarn run acme-lint', ['acme-lint']],
    ['yarn exec acme-lint', ['acme-lint']],
    ['pnpx acme-lint && bunx other', ['acme-lint', 'other']],
    ['env CI=1 npx acme-lint', ['acme-lint']],
    ['FOO=1 nice -n 5 npx "acme-lint"', ['acme-lint']],
  ] as const)
    t.deepEqual(nodeBinRuns(text), [...expected], text);
});

test('nodeBinRuns: a runner behind any wrapper, known or not, and in compound commands', (t) => {
  for (const text of [
    'exec timeout 60 npx acme-lint',
    'timeout -k 5 -s KILL 60 npx acme-lint',
    'git diff --cached --name-only | xargs -r npx acme-lint',
    'stdbuf -oL npx acme-lint',
    'chronic npx acme-lint',
    'flock .git/lint.lock npx acme-lint',
    'ionice -c 3 npx acme-lint',
    'setsid npx acme-lint',
    'caffeinate -i npx acme-lint',
    'unbuffer npx acme-lint',
    'cross-env CI=1 npx acme-lint',
    '/usr/bin/npx acme-lint',
    'if ! npx acme-lint; then echo "lint failed" >&2; exit 1; fi',
    '{ npx acme-lint; } || exit 1',
    'for dir in packages/lint; do npx acme-lint; done',
    'while true; do npx acme-lint && break; done',
  ])
    t.deepEqual(nodeBinRuns(text), ['acme-lint'], text);
});

test("nodeBinRuns: npm's command words that are exec (the alias x, the abbreviation exe); an ambiguous one runs nothing", (t) => {
  for (const text of ['npm exe acme-lint', 'npm x acme-lint', 'npm --silent exe -- acme-lint']) t.deepEqual(nodeBinRuns(text), ['acme-lint'], text);
  // `npm ex` is exec's, explain's and explore's prefix: npm refuses it.
  for (const text of ['npm ex acme-lint', 'npm explain acme-lint']) t.deepEqual(nodeBinRuns(text), [], text);
});

test('nodeBinReading: npx / npm exec / bunx operands and -p/--package values are package specs too; pnpm and yarn are not', (t) => {
  const specs = (text: string) => nodeBinReading(text, { workingDirectory: '/ws' }).packages.map((run) => run.name);
  for (const [text, expected] of [
    ['npx @acme/lint', ['@acme/lint']],
    ['npx --no -- @acme/lint', ['@acme/lint']],
    ['npm exec @acme/lint@1 --fix', ['@acme/lint@1']],
    ['npm exe ./packages/lint', ['./packages/lint']],
    ['npx acme-lint', ['acme-lint']],
    ['bunx acme-lint', ['acme-lint']],
    ['npx -p @acme/lint --package=other acme-lint', ['@acme/lint', 'other']],
    ['timeout 60 npx lint-staged@latest', ['lint-staged@latest']],
    ['pnpm exec acme-lint', []],
    ['yarn acme-lint', []],
    ['npx -c "acme-lint src"', []],
  ] as const)
    t.deepEqual(specs(text), [...expected], text);
  t.true(nodeBinReading('npx "$TOOL"', { workingDirectory: '/ws' }).unresolved.length > 0);
  t.true(nodeBinReading('cd "$(cat .dir)" && npx @acme/lint', { workingDirectory: '/ws' }).unresolved.length > 0);
});

test('nodeBinRuns: a plain name is looked up only where PATH holds node_modules/.bin; downloads, npm scripts and paths are not names there', (t) => {
  t.deepEqual(nodeBinRuns('acme-lint'), []);
  t.deepEqual(nodeBinRuns('acme-lint', true), ['acme-lint']);
  t.deepEqual(nodeBinRuns('export PATH="node_modules/.bin:$PATH"\nacme-lint\n'), ['acme-lint']);
  t.deepEqual(nodeBinRuns('PATH=./node_modules/.bin:$PATH acme-lint'), ['acme-lint']);
  t.deepEqual(nodeBinRuns('PATH="$PWD/node_modules/.bin:$PATH"; exec acme-lint'), ['acme-lint']);
  for (const text of ['npm test', 'npm run lint', 'pnpm dlx cowsay', 'npx ./tools/x.js', 'node tools/check.js', 'PATH=/opt/bin:$PATH acme-lint']) t.deepEqual(nodeBinRuns(text), [], text);
  t.true(putsNodeBinOnPath('export PATH="node_modules/.bin:$PATH"'));
  t.false(putsNodeBinOnPath('echo node_modules/.bin'));
  // A PATH entry zotbox cannot spell out (a command's output, another variable) is taken as holding node_modules/.bin.
  for (const text of ['PATH="$(npm root)/.bin:$PATH"', 'export PATH=`npm root`/.bin:$PATH', 'PATH="$TOOLS:$PATH"', 'PATH=${BIN}:$PATH acme-lint']) t.true(putsNodeBinOnPath(text), text);
  for (const text of ['PATH="$HOME/.local/bin:$PATH"', 'export PATH=/opt/bin:${PATH}', "PATH='$(x)':$PATH"]) t.false(putsNodeBinOnPath(text), text);
  t.deepEqual(nodeBinRuns('PATH="$(npm root)/.bin:$PATH"\nacme-lint\n'), ['acme-lint', 'npm', 'root']);
});

test('nodeBinPlaces: from the run directory up to the first node_modules/.bin that holds the name; none when none does', (t) => {
  const root = realpathSync(tempDir(t, 'zb-node-bin-'));
  mkdirSync(path.join(root, 'ws/pkg/node_modules/.bin'), { recursive: true });
  mkdirSync(path.join(root, 'ws/node_modules/.bin'), { recursive: true });
  symlinkSync('../x/bin.js', path.join(root, 'ws/node_modules/.bin/acme-lint'));
  t.deepEqual(nodeBinPlaces('acme-lint', path.join(root, 'ws/pkg')), [path.join(root, 'ws/pkg/node_modules/.bin/acme-lint'), path.join(root, 'ws/node_modules/.bin/acme-lint')]);
  t.deepEqual(nodeBinPlaces('acme-lint', path.join(root, 'ws')), [path.join(root, 'ws/node_modules/.bin/acme-lint')]);
  t.deepEqual(nodeBinPlaces('not-installed', path.join(root, 'ws/pkg')), []);
});

/** A monorepo whose packages/lint bin is linked as node_modules/.bin/acme-lint, with a pre-commit hook (or a husky hook) `hook`. */
function monorepo(t: Parameters<typeof tempDir>[0], hook: string, husky = false) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-node-bin-')), 'ws');
  const files: Record<string, string> = {
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nrequire("../lib/rules.js");\n',
    'packages/lint/lib/rules.js': 'module.exports = {};\n',
    'packages/lint/README.md': 'docs\n',
    'node_modules/eslint/package.json': '{"name":"eslint"}\n',
    'node_modules/eslint/bin/eslint.js': '#!/usr/bin/env node\n',
    'src/app.js': 'x\n',
    [husky ? '.husky/pre-commit' : '.git/hooks/pre-commit']: `#!/bin/sh\n${hook}\n`,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  chmodSync(path.join(ws, 'packages/lint/bin/lint.js'), 0o755);
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
  symlinkSync('../@acme/lint/bin/lint.js', path.join(ws, 'node_modules/.bin/acme-lint'));
  symlinkSync('../eslint/bin/eslint.js', path.join(ws, 'node_modules/.bin/eslint'));
  for (const name of ['.git/objects', '.git/refs', '.git/hooks']) mkdirSync(path.join(ws, name), { recursive: true });
  writeFileSync(path.join(ws, '.git/HEAD'), 'ref: refs/heads/main\n');
  const found = toolFileReferences(husky ? [path.join(ws, '.husky')] : [], [ws], { environment: HOST, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const [name, hook, husky] of [
  ['npx', 'exec npx acme-lint', false],
  ['npm exec --', 'npm exec -- acme-lint', false],
  ['pnpm exec', 'pnpm exec acme-lint', false],
  ['yarn run', 'yarn run acme-lint', false],
  ['a PATH assignment', 'export PATH="node_modules/.bin:$PATH"\nacme-lint', false],
  ['a husky hook (husky puts node_modules/.bin on PATH)', 'acme-lint --fix', true],
  ['the path written out (as before)', 'exec node_modules/.bin/acme-lint', false],
  ['timeout 60 npx', 'exec timeout 60 npx acme-lint', false],
  ['xargs npx', 'git diff --cached --name-only | xargs npx acme-lint', false],
  ['npm exe (an abbreviation of exec)', 'npm exe acme-lint', false],
  ['PATH="$(npm root)/.bin:$PATH"', 'PATH="$(npm root)/.bin:$PATH"\nacme-lint', false],
  ['a husky hook behind a wrapper', 'timeout 60 acme-lint', true],
] as const)
  test(`a workspace bin a hook runs through node_modules/.bin is read where its link leads: ${name}`, (t) => {
    const { unresolved, protects } = monorepo(t, hook, husky);
    t.deepEqual(unresolved, []);
    for (const file of ['packages/lint/bin/lint.js', 'packages/lint/lib/rules.js', 'node_modules/.bin/acme-lint']) t.true(protects(file), `${name}: ${file}`);
    // Over-denial: the rest of the workspace package and ordinary files stay the agent's.
    for (const file of ['packages/lint/README.md', 'src/app.js']) t.false(protects(file), `${name}: ${file}`);
  });

for (const [name, hook] of [
  ['npx with the package name', 'exec npx @acme/lint'],
  ['npx --no -- with the package name', 'npx --no -- @acme/lint'],
  ['npm exec with a version', 'npm exec @acme/lint@1'],
  ['npx with the folder', 'npx ./packages/lint'],
  ['npx -p with the package', 'npx -p @acme/lint acme-lint'],
] as const)
  test(`a workspace package a hook runs through npx by its spec: its package.json and bin are read: ${name}`, (t) => {
    const { unresolved, protects } = monorepo(t, hook);
    t.deepEqual(unresolved, []);
    for (const file of ['packages/lint/bin/lint.js', 'packages/lint/lib/rules.js', 'packages/lint/package.json']) t.true(protects(file), `${name}: ${file}`);
    for (const file of ['packages/lint/README.md', 'src/app.js']) t.false(protects(file), `${name}: ${file}`);
  });

test('over-denial: a name no node_modules/.bin holds (npx downloads it) and a plain name without node_modules/.bin on PATH name nothing in the project', (t) => {
  for (const hook of ['npx not-installed', 'acme-lint', 'npm test']) {
    const { unresolved, protects } = monorepo(t, hook);
    t.deepEqual(unresolved, [], hook);
    for (const file of ['packages/lint/bin/lint.js', 'src/app.js', 'node_modules/.bin/not-installed']) t.false(protects(file), `${hook}: ${file}`);
  }
});
