// Review s43r of issue 21: Yarn Berry's default linker (Plug'n'Play) leaves no node_modules: `yarn NAME` / `yarn run
// NAME` find the bin through `.pnp.cjs`, and a workspace dependency (`"@acme/lint": "workspace:*"`) runs the workspace
// package's own `bin/lint.js`. node-bin-runs.ts looks the name up in node_modules/.bin only; found nowhere, it is
// "left to the shell's reading" (nothing named, nothing unresolved). The write tool rewrites
// `packages/lint/bin/lint.js`; the user's commit runs it (checked by hand with yarn 4.5 from npm's
// `@yarnpkg/cli-dist` on PATH: the payload ran). yarn is not installed here: where it is on PATH the fixture runs
// `yarn install` (workspace-only, no network) to write `.pnp.cjs`; the assertion (the write refused or put back) does
// not depend on it. Control: the same project with `nodeLinker: node-modules` (the .bin link): refused today.
// Fixed: yarn-pnp-bins.ts looks a name yarn runs under Plug'n'Play up in the workspace packages' bin maps (found: read
// as run; found nowhere: unresolved). Control: an ordinary file of the same project stays writable.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';
import { attack, nodePayload } from './fixtures.js';

function yarnProject(t: ExecutionContext, linker: 'pnp' | 'node-modules', hook: string): string {
  const ws = project(t, {
    '.git/hooks/pre-commit': hook,
    '.gitignore': 'node_modules/\n.yarn/\n.pnp.*\n',
    '.yarnrc.yml': `nodeLinker: ${linker}\nenableGlobalCache: false\nenableTelemetry: false\n`,
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"],"devDependencies":{"@acme/lint":"workspace:*"}}\n',
    'packages/lint/package.json': '{"name":"@acme/lint","version":"1.0.0","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nconsole.log("lint ok");\n',
  });
  let installed = false;
  try {
    execFileSync('yarn', ['install'], { cwd: ws, stdio: 'ignore', env: { ...process.env, COREPACK_ENABLE_STRICT: '0' } });
    installed = true;
  } catch {
    // yarn not on PATH: the project as committed (zotbox's reading does not depend on .pnp.cjs)
  }
  if (linker === 'node-modules' && !installed) {
    mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
    mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
    symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
    symlinkSync('../@acme/lint/bin/lint.js', path.join(ws, 'node_modules/.bin/acme-lint'));
  }
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '--allow-empty', '-m', 'install');
  return ws;
}

for (const hook of ['#!/bin/sh\nexec yarn acme-lint\n', '#!/bin/sh\nexec yarn run acme-lint\n'])
  test(`a workspace bin a hook runs through yarn with Plug'n'Play is protected: ${hook.slice(10).trim()}`, async (t) => {
    await attack(t, yarnProject(t, 'pnp', hook), 'packages/lint/bin/lint.js', nodePayload);
  });

test('control (passes today): the same with the node-modules linker', async (t) => {
  await attack(t, yarnProject(t, 'node-modules', '#!/bin/sh\nexec yarn acme-lint\n'), 'packages/lint/bin/lint.js', nodePayload);
});

test("control: an ordinary file of the same Plug'n'Play project stays writable", async (t) => {
  const ws = yarnProject(t, 'pnp', '#!/bin/sh\nexec yarn acme-lint\n');
  t.log(await agentWrites(t, ws, 'src/app.js', 'console.log(2);\n'));
  t.is(readFileSync(path.join(ws, 'src/app.js'), 'utf8'), 'console.log(2);\n');
});
