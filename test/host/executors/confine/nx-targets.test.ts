// The tasks an nx command runs and the environment files Nx loads for each (nx-targets.ts), and that a hook running
// nx protects them in the workspace root and each project root (nx-project-roots.ts). Expected sets by hand, from
// nx.dev's "Define Environment Variables" list.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nxEnvironmentNames, nxTasks } from '../../../../src/host/executors/confine/nx-targets.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

test('the tasks nx run, nx TARGET, nx PROJECT:TARGET, run-many and affected run, with their configurations', (t) => {
  t.deepEqual(nxTasks('npx nx run web:lint:ci').tasks, [{ target: 'lint', configuration: 'ci' }]);
  t.deepEqual(nxTasks('nx run web:build --configuration=production').tasks, [{ target: 'build', configuration: 'production' }]);
  t.deepEqual(nxTasks('nx lint web').tasks, [{ target: 'lint' }]);
  t.deepEqual(nxTasks('pnpm exec nx web:test -c ci').tasks, [{ target: 'test', configuration: 'ci' }]);
  t.deepEqual(nxTasks('nx affected -t lint test --parallel=3').tasks, [{ target: 'lint' }, { target: 'test' }]);
  t.deepEqual(nxTasks('nx run-many --targets=lint,build').tasks, [{ target: 'lint' }, { target: 'build' }]);
  t.deepEqual(nxTasks('nx graph\nnx format:write\nnx g lib x').tasks, []);
});

test('a target or configuration zotbox cannot spell out is unresolved', (t) => {
  for (const text of ['nx run web:$TARGET', 'nx affected -t "$T"', 'nx run web:lint -c "$CONF"', 'nx run-many -t']) t.is(nxTasks(text).unresolved.length, 1, text);
});

test('the per-task names: target, target.configuration and configuration, each with .local, in both spellings', (t) => {
  t.deepEqual(nxEnvironmentNames([{ target: 'lint' }]).sort(), ['.env.lint', '.env.lint.local', '.lint.env', '.lint.local.env']);
  t.deepEqual(nxEnvironmentNames([{ target: 'lint', configuration: 'ci' }]).sort(), [
    '.ci.env',
    '.ci.local.env',
    '.env.ci',
    '.env.ci.local',
    '.env.lint',
    '.env.lint.ci',
    '.env.lint.ci.local',
    '.env.lint.local',
    '.lint.ci.env',
    '.lint.ci.local.env',
    '.lint.env',
    '.lint.local.env',
  ]);
});

test("a hook that runs nx protects the task's env files in the workspace root and every project root, and nothing else", (t) => {
  const ws = path.join(realpathSync(tempDir(t, 'zb-nx-')), 'ws');
  for (const [name, text] of Object.entries({
    '.git/hooks/pre-commit': '#!/bin/sh\nnpx nx affected -t lint -c ci\n',
    'nx.json': '{}',
    'apps/web/project.json': '{}',
    'libs/ui/package.json': '{}',
    'node_modules/x/package.json': '{}',
    'src/app.js': '',
  })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const paths = new Set(found.locations.map((location) => path.relative(ws, location.path)));
  t.deepEqual(found.unresolved, []);
  for (const expected of ['.env.lint.ci', '.ci.env', 'apps/web/.env.lint', 'apps/web/.lint.ci.local.env', 'apps/web/.env', 'libs/ui/.env.ci']) t.true(paths.has(expected), expected);
  for (const free of ['src/app.js', 'node_modules/x/.env.lint', 'apps/web/.env.build']) t.false(paths.has(free), free);
});
