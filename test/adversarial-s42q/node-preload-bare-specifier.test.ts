// Review s42q of issue 21: node's preload options take a *specifier*, resolved as require/import resolves it from
// the working directory: `node -r @acme/setup tools/check.js`, `node --import @acme/setup …`, and the same in
// NODE_OPTIONS. A workspace package (`packages/setup`, linked as `node_modules/@acme/setup -> ../../packages/setup`)
// named so is loaded before the hook program. The write tool rewrites `packages/setup/index.js`; the commit runs it.
import test from 'ava';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { commitAfterWrite } from '../adversarial-s43r/fixtures.js';

async function attack(t: ExecutionContext, hook: string, check = 'console.log("checked");\n'): Promise<void> {
  const ws = project(t, {
    '.git/hooks/pre-commit': hook,
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'packages/setup/package.json': '{"name":"@acme/setup","version":"1.0.0","main":"index.js"}\n',
    'packages/setup/index.js': 'globalThis.acme = true;\n',
    'tools/check.js': check,
  });
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  symlinkSync('../../packages/setup', path.join(ws, 'node_modules/@acme/setup'));
  await commitAfterWrite(t, ws, 'packages/setup/index.js', (marker) => `require("fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\n`);
}

for (const [name, hook] of [
  ['node -r NAME', '#!/bin/sh\nexec node -r @acme/setup tools/check.js\n'],
  ['node --require=NAME', '#!/bin/sh\nexec node --require=@acme/setup tools/check.js\n'],
  ['node --import NAME', '#!/bin/sh\nexec node --import @acme/setup tools/check.js\n'],
  ['NODE_OPTIONS="-r NAME" node', '#!/bin/sh\nNODE_OPTIONS="-r @acme/setup" exec node tools/check.js\n'],
  ['export NODE_OPTIONS', '#!/bin/sh\nexport NODE_OPTIONS="--require @acme/setup"\nexec node tools/check.js\n'],
] as const)
  test(`a workspace package a hook preloads by name is protected: ${name}`, async (t) => {
    await attack(t, hook);
  });

test('control (passes today): the hook program requires it', async (t) => {
  await attack(t, '#!/bin/sh\nexec node tools/check.js\n', 'require("@acme/setup");\n');
});
