// A bin run through node_modules/.bin that is installed code (node-installed-bins.ts): protected where it is named,
// not read for what it loads (lint-staged's own code, whose comments and computed cwd refused every writer); a bin that
// leads back into the project (a workspace link) is read as before. Expected outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isInstalledPackageFile } from '../../../../src/host/executors/confine/node-installed-bins.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

for (const [name, written, canonical, installed] of [
  ["npm's link in .bin to the package", '/ws/node_modules/.bin/lint-staged', '/ws/node_modules/lint-staged/bin/lint-staged.js', true],
  ["pnpm's store", '/ws/node_modules/lint-staged/bin/x.js', '/ws/node_modules/.pnpm/lint-staged@15/node_modules/lint-staged/bin/x.js', true],
  ['a package hoisted above a workspace package', '/ws/packages/a/node_modules/.bin/x', '/ws/node_modules/x/bin/x.js', true],
  ['a scoped package', '/ws/node_modules/.bin/acme-lint', '/ws/node_modules/@acme/lint/bin/lint.js', true],
  ['a workspace link (the project’s own files)', '/ws/node_modules/.bin/acme-lint', '/ws/packages/lint/bin/lint.js', false],
  ["pnpm's shim, a file in .bin itself", '/ws/node_modules/.bin/lint-staged', '/ws/node_modules/.bin/lint-staged', false],
  ['a project that itself lies under a node_modules, its workspace bin', '/u/node_modules/proj/node_modules/.bin/acme-lint', '/u/node_modules/proj/packages/lint/bin/lint.js', false],
  ['a written path with no node_modules', '/ws/packages/lint/bin/lint.js', '/ws/node_modules/lint/bin/lint.js', false],
] as const)
  test(`isInstalledPackageFile: ${name}`, (t) => {
    t.is(isInstalledPackageFile(written, canonical), installed);
  });

/** lint-staged 15.5.2's lines that refused every writer: a comment with `*.js` in backquotes, execa's computed cwd. */
const LINT_STAGED = [
  '#!/usr/bin/env node',
  'require("../lib/index.js");',
  '// This makes `*.js` match both `test.js` and `subdirectory/test.js`.',
  'const options = { cwd: /^git(\\.exe)?/i.test(cmd) ? topLevelDir : cwd, preferLocal: true };',
  'execa(cmd, args, options);',
  '',
].join('\n');

/** A project whose pre-commit hook is `hook`, with lint-staged installed as `layout` lays it out, and the workspace bin acme-lint. */
function project(t: Parameters<typeof tempDir>[0], hook: string, layout: 'npm' | 'pnpm') {
  const ws = path.join(realpathSync(tempDir(t, 'zb-installed-bins-')), 'ws');
  const store = layout === 'npm' ? 'node_modules/lint-staged' : 'node_modules/.pnpm/lint-staged@15.5.2/node_modules/lint-staged';
  const files: Record<string, string> = {
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nrequire("../lib/rules.js");\n',
    'packages/lint/lib/rules.js': 'module.exports = {};\n',
    [`${store}/package.json`]: '{"name":"lint-staged","version":"15.5.2","bin":"bin/lint-staged.js"}\n',
    [`${store}/bin/lint-staged.js`]: LINT_STAGED,
    [`${store}/lib/index.js`]: 'module.exports = 1;\n',
    'src/app.js': 'x\n',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
  symlinkSync('../@acme/lint/bin/lint.js', path.join(ws, 'node_modules/.bin/acme-lint'));
  if (layout === 'pnpm') symlinkSync('.pnpm/lint-staged@15.5.2/node_modules/lint-staged', path.join(ws, 'node_modules/lint-staged'));
  symlinkSync('../lint-staged/bin/lint-staged.js', path.join(ws, 'node_modules/.bin/lint-staged'));
  const found = toolFileReferences([], [ws], { environment: { PATH: '/usr/bin:/bin' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const layout of ['npm', 'pnpm'] as const)
  for (const hook of ['exec npx lint-staged', 'exec node_modules/.bin/lint-staged', 'export PATH="node_modules/.bin:$PATH"\nlint-staged'])
    test(`an installed bin a hook runs through node_modules/.bin is protected, its code not read (${layout}): ${hook}`, (t) => {
      const { unresolved, protects } = project(t, hook, layout);
      t.deepEqual(unresolved, []);
      t.true(protects('node_modules/.bin/lint-staged'));
      t.true(protects('node_modules/lint-staged/bin/lint-staged.js'));
      // What the installed bin loads is the project's dependencies, as a bare specifier's package is.
      t.false(protects('node_modules/lint-staged/lib/index.js'));
      t.false(protects('src/app.js'));
    });

test('the same hook running a workspace bin still reads it: what it loads is protected', (t) => {
  const { unresolved, protects } = project(t, 'exec npx lint-staged\nexec npx acme-lint', 'npm');
  t.deepEqual(unresolved, []);
  t.true(protects('packages/lint/bin/lint.js'));
  t.true(protects('packages/lint/lib/rules.js'));
});

test('an installed bin a hook runs by its path (not through node_modules/.bin) is read as before', (t) => {
  const { unresolved, protects } = project(t, 'exec node node_modules/lint-staged/bin/lint-staged.js', 'npm');
  t.true(protects('node_modules/lint-staged/lib/index.js'));
  t.true(unresolved.length > 0, 'the computed cwd next to a computed command is unresolved, as before');
});

test("what pnpm's shim in .bin runs from pnpm's store is protected, not read; the shim itself is read", (t) => {
  const ws = path.join(realpathSync(tempDir(t, 'zb-installed-bins-')), 'ws');
  const store = 'node_modules/.pnpm/lint-staged@15.5.2/node_modules/lint-staged';
  const shim = `#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")\n\ncase \`uname\` in\n    *CYGWIN*) basedir=\`cygpath -w "$basedir"\`;;\nesac\n\nif [ -x "$basedir/node" ]; then\n  exec "$basedir/node"  "$basedir/../lint-staged/bin/lint-staged.js" "$@"\nelse\n  exec node  "$basedir/../lint-staged/bin/lint-staged.js" "$@"\nfi\n`;
  const files: Record<string, string> = {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec npx lint-staged\n',
    [`${store}/package.json`]: '{"name":"lint-staged","bin":"bin/lint-staged.js"}\n',
    [`${store}/bin/lint-staged.js`]: LINT_STAGED,
    [`${store}/lib/index.js`]: 'module.exports = 1;\n',
    'node_modules/.bin/lint-staged': shim,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  symlinkSync('.pnpm/lint-staged@15.5.2/node_modules/lint-staged', path.join(ws, 'node_modules/lint-staged'));
  const found = toolFileReferences([], [ws], { environment: { PATH: '/usr/bin:/bin' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const protects = (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined;
  t.deepEqual(found.unresolved, []);
  for (const file of ['node_modules/.bin/lint-staged', 'node_modules/.bin/node', `${store}/bin/lint-staged.js`]) t.true(protects(file), file);
  t.false(protects(`${store}/lib/index.js`));
});
