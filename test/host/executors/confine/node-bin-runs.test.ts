// Names a hook runs through the project's node_modules/.bin (node-bin-runs.ts): npx, npm exec, pnpm, yarn, and a
// plain name where the hook's PATH holds node_modules/.bin (a PATH assignment, husky's hooks), looked up from where the
// hook runs upward and followed as the path written out is. Expected outcomes written out by hand.
import test from 'ava';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nodeBinPlaces, nodeBinRuns, putsNodeBinOnPath } from '../../../../src/host/executors/confine/node-bin-runs.js';
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

test('nodeBinRuns: a plain name is looked up only where PATH holds node_modules/.bin; downloads, npm scripts and paths are not names there', (t) => {
  t.deepEqual(nodeBinRuns('acme-lint'), []);
  t.deepEqual(nodeBinRuns('acme-lint', true), ['acme-lint']);
  t.deepEqual(nodeBinRuns('export PATH="node_modules/.bin:$PATH"\nacme-lint\n'), ['acme-lint']);
  t.deepEqual(nodeBinRuns('PATH=./node_modules/.bin:$PATH acme-lint'), ['acme-lint']);
  t.deepEqual(nodeBinRuns('PATH="$PWD/node_modules/.bin:$PATH"; exec acme-lint'), ['acme-lint']);
  for (const text of ['npm test', 'npm run lint', 'pnpm dlx cowsay', 'npx ./tools/x.js', 'node tools/check.js', 'PATH=/opt/bin:$PATH acme-lint']) t.deepEqual(nodeBinRuns(text), [], text);
  t.true(putsNodeBinOnPath('export PATH="node_modules/.bin:$PATH"'));
  t.false(putsNodeBinOnPath('echo node_modules/.bin'));
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
] as const)
  test(`a workspace bin a hook runs through node_modules/.bin is read where its link leads: ${name}`, (t) => {
    const { unresolved, protects } = monorepo(t, hook, husky);
    t.deepEqual(unresolved, []);
    for (const file of ['packages/lint/bin/lint.js', 'packages/lint/lib/rules.js', 'node_modules/.bin/acme-lint']) t.true(protects(file), `${name}: ${file}`);
    // Over-denial: the rest of the workspace package and ordinary files stay the agent's.
    for (const file of ['packages/lint/README.md', 'src/app.js']) t.false(protects(file), `${name}: ${file}`);
  });

test('over-denial: a name no node_modules/.bin holds (npx downloads it) and a plain name without node_modules/.bin on PATH name nothing in the project', (t) => {
  for (const hook of ['npx not-installed', 'acme-lint', 'npm test']) {
    const { unresolved, protects } = monorepo(t, hook);
    t.deepEqual(unresolved, [], hook);
    for (const file of ['packages/lint/bin/lint.js', 'src/app.js', 'node_modules/.bin/not-installed']) t.false(protects(file), `${hook}: ${file}`);
  }
});
