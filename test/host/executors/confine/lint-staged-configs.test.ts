// lint-staged's configuration (lint-staged-configs.ts): each command it lists runs with node_modules/.bin first on PATH
// from the configuration's directory, so a bare name there is looked up in node_modules/.bin as a husky hook's is
// (tool-file-references.ts). Expected outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isLintStagedConfig, lintStagedCommands, packageCommands } from '../../../../src/host/executors/confine/lint-staged-configs.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const texts = (file: string, text: string) => lintStagedCommands(file, text).map((command) => command.text);

test('the configuration files lint-staged reads by name', (t) => {
  for (const name of [
    '.lintstagedrc',
    '.lintstagedrc.json',
    '.lintstagedrc.yaml',
    '.lintstagedrc.yml',
    '.lintstagedrc.mjs',
    '.lintstagedrc.cjs',
    '.lintstagedrc.js',
    'lint-staged.config.js',
    'lint-staged.config.mjs',
  ])
    t.true(isLintStagedConfig(`/ws/${name}`), name);
  for (const name of ['package.json', '.lintstagedrc.bak', 'lint-staged.config.json']) t.false(isLintStagedConfig(`/ws/${name}`), name);
});

test('JSON: each command of a pattern, a string or an array, on its own line', (t) => {
  t.deepEqual(lintStagedCommands('/ws/.lintstagedrc.json', '{\n  "*.js": "eslint --fix",\n  "*.md": ["acme-lint", "prettier --write"]\n}\n'), [
    { text: 'eslint --fix', line: 1 },
    { text: 'acme-lint', line: 2 },
    { text: 'prettier --write', line: 2 },
  ]);
});

test('YAML (.lintstagedrc with no JSON in it): a plain or quoted value, a list, a flow list', (t) => {
  t.deepEqual(texts('/ws/.lintstagedrc', '"*.js": eslint --fix # fix\n*.md:\n  - acme-lint\n  - "prettier --write"\n*.css: [\'stylelint\', "acme-css"]\n'), [
    'eslint --fix',
    'acme-lint',
    'prettier --write',
    'stylelint',
    'acme-css',
  ]);
});

test('package.json: the commands of its "lint-staged" key; none without one, none where it is no JSON', (t) => {
  t.deepEqual(
    packageCommands('{"name":"x","lint-staged":{"*.md":["acme-lint --fix"],"*.js":"eslint"}}').map((command) => command.text),
    ['acme-lint --fix', 'eslint'],
  );
  t.deepEqual(packageCommands('{"name":"x","scripts":{"lint":"acme-lint"}}'), []);
  t.deepEqual(packageCommands('{"name":'), []);
});

test("JavaScript: every string literal (a template's ${…} a word of its own); one with an unbalanced quote is left to words", (t) => {
  t.deepEqual(texts('/ws/lint-staged.config.js', "export default {\n  '*.js': (files) => `acme-lint ${files.join(' ')}`,\n  \"*.md\": \"don't\",\n};\n"), [
    '*.js',
    'acme-lint  tool-argument ',
    '*.md',
  ]);
});

/** A monorepo whose pre-commit hook is `hook`, with the workspace bin acme-lint and an installed eslint, and `files`. */
function project(t: Parameters<typeof tempDir>[0], hook: string, files: Readonly<Record<string, string>>) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-lint-staged-')), 'ws');
  const all: Record<string, string> = {
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nrequire("../lib/rules.js");\n',
    'packages/lint/lib/rules.js': 'module.exports = {};\n',
    'node_modules/eslint/package.json': '{"name":"eslint","bin":{"eslint":"bin/eslint.js"}}\n',
    'node_modules/eslint/bin/eslint.js': '#!/usr/bin/env node\nrequire("../lib/cli.js");\n',
    'node_modules/eslint/lib/cli.js': '// `*.js`\n',
    'src/app.js': 'x\n',
    ...files,
  };
  for (const [name, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
  symlinkSync('../@acme/lint/bin/lint.js', path.join(ws, 'node_modules/.bin/acme-lint'));
  symlinkSync('../eslint/bin/eslint.js', path.join(ws, 'node_modules/.bin/eslint'));
  const entries = Object.keys(files)
    .filter((name) => isLintStagedConfig(name))
    .map((name) => path.join(ws, name));
  const found = toolFileReferences(entries, [ws], { environment: { PATH: '/usr/bin:/bin' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const [name, files] of [
  ['.lintstagedrc.json', { '.lintstagedrc.json': '{"*.md": "acme-lint"}\n' }],
  ['.lintstagedrc as YAML', { '.lintstagedrc': '"*.md":\n  - acme-lint --fix\n' }],
  ['.lintstagedrc.yaml', { '.lintstagedrc.yaml': "'*.md': acme-lint\n" }],
  ['lint-staged.config.js, a function returning the command', { 'lint-staged.config.js': "module.exports = { '*.md': (files) => `acme-lint ${files.join(' ')}` };\n" }],
  ['package.json\'s "lint-staged" key', { 'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"],"lint-staged":{"*.md":["acme-lint --fix"]}}\n' }],
] as const)
  test(`a workspace bin lint-staged's configuration runs by name is read through node_modules/.bin: ${name}`, (t) => {
    const { unresolved, protects } = project(t, 'exec npx lint-staged', files);
    t.deepEqual(unresolved, []);
    for (const file of ['node_modules/.bin/acme-lint', 'packages/lint/bin/lint.js', 'packages/lint/lib/rules.js']) t.true(protects(file), file);
    t.false(protects('src/app.js'));
  });

test('over-denial: the usual "eslint --fix" protects the bin, not the installed eslint\'s code, and refuses nothing', (t) => {
  const { unresolved, protects } = project(t, 'exec npx lint-staged', { '.lintstagedrc.json': '{"*.js": ["eslint --fix", "prettier --write"]}\n' });
  t.deepEqual(unresolved, []);
  t.true(protects('node_modules/.bin/eslint'));
  t.false(protects('node_modules/eslint/lib/cli.js'));
  t.false(protects('packages/lint/bin/lint.js'));
});

test('package.json\'s "lint-staged" key is read only where a hook runs lint-staged', (t) => {
  const pkg = { 'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"],"lint-staged":{"*.md":"acme-lint"}}\n' };
  t.false(project(t, 'exec npx eslint .', pkg).protects('packages/lint/bin/lint.js'));
  t.true(project(t, 'export PATH="node_modules/.bin:$PATH"\nlint-staged', pkg).protects('packages/lint/bin/lint.js'));
});

test('a command that runs lint-staged again does not read the key again (and names no more)', (t) => {
  const { unresolved, protects } = project(t, 'exec npx lint-staged', { 'package.json': '{"name":"mono","lint-staged":{"*.md":["lint-staged","acme-lint"]}}\n' });
  t.deepEqual(unresolved, []);
  t.true(protects('packages/lint/bin/lint.js'));
});
