// The names a package.json script yarn runs under Plug'n'Play runs (node-bin-runs.ts, yarn-pnp-bins.ts): yarn gives a
// script the dependencies' bins through Plug'n'Play, not node_modules/.bin, so each name is looked up as `yarn NAME`
// is (a script, a workspace bin, else a dependency's bin in yarn's cache). Read as a hook's text is
// (toolFileReferences). Expected outcomes written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const HOST = { PATH: process.env['PATH'] ?? '' };
const ZIP = '.yarn/cache/eslint-npm-9.0.0-abc.zip';

/** A yarn workspace (`@acme/lint` with the bin `acme-lint`) whose root has `scripts` and `eslint` (`spec`), and a pre-commit hook. */
function project(t: Parameters<typeof tempDir>[0], hook: string, scripts: Readonly<Record<string, string>>, options: { linker?: string; spec?: string } = {}) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-yarn-script-')), 'ws');
  const linker = options.linker ?? 'pnp';
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'], scripts, devDependencies: { eslint: options.spec ?? '^9.0.0', '@acme/lint': 'workspace:*' } }),
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\n',
    'src/app.js': 'x\n',
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    '.yarnrc.yml': `nodeLinker: ${linker}\n`,
    ...(linker === 'pnp' ? { '.pnp.cjs': '#!/usr/bin/env node\n"use strict";\n' } : {}),
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  for (const name of ['.git/objects', '.git/refs']) mkdirSync(path.join(ws, name), { recursive: true });
  writeFileSync(path.join(ws, '.git/HEAD'), 'ref: refs/heads/main\n');
  const found = toolFileReferences([], [ws], { environment: HOST, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const hook of ['yarn lint', 'yarn run lint', 'yarn verify'])
  test(`a dependency's bin a yarn script runs under Plug'n'Play protects yarn's cache: ${hook}`, (t) => {
    const { unresolved, protects } = project(t, hook, { lint: 'eslint . && echo linted', verify: 'yarn lint' });
    t.deepEqual(unresolved, []);
    for (const file of [ZIP, '.yarn/unplugged/esbuild-npm-0.20.0-x/node_modules/esbuild/bin/esbuild', 'yarn.lock', '.yarn/install-state.gz']) t.true(protects(file), file);
    t.false(protects('src/app.js'));
  });

test("a workspace bin a yarn script runs under Plug'n'Play, behind a wrapper, is read as run", (t) => {
  const { unresolved, protects } = project(t, 'yarn lint', { lint: 'cross-env CI=1 acme-lint' });
  t.deepEqual(unresolved, []);
  t.true(protects('packages/lint/bin/lint.js'));
  t.false(protects('src/app.js'));
});

test("with a link: dependency a yarn script's dependency bin refuses every writer; yarn's own node and a shell builtin do not", (t) => {
  t.not(project(t, 'yarn lint', { lint: 'eslint .' }, { spec: 'link:./tools/eslint' }).unresolved.length, 0);
  const own = project(t, 'yarn lint', { lint: 'node tools/check.js && echo ok' }, { spec: 'link:./tools/eslint' });
  t.deepEqual(own.unresolved, []);
  t.false(own.protects('src/app.js'));
});

test('a script that runs itself through yarn is read once; a chain of scripts deeper than zotbox reads is unresolved', (t) => {
  t.deepEqual(project(t, 'yarn loop', { loop: 'yarn loop' }).unresolved, []);
  const chain = { a: 'yarn b', b: 'yarn c', c: 'yarn d', d: 'yarn e', e: 'yarn f', f: 'eslint .' };
  t.not(project(t, 'yarn a', chain).unresolved.length, 0);
});

test("not under Plug'n'Play (node_modules linker) a script's names are read as before: yarn's cache is not protected", (t) => {
  const { unresolved, protects } = project(t, 'yarn lint', { lint: 'eslint .' }, { linker: 'node-modules' });
  t.deepEqual(unresolved, []);
  t.false(protects(ZIP));
});
