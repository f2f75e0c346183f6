// Review s46k of issue 21: ts-node's `--compiler X` (and `--transpiler X`) in the space form. interpreter-operands.ts
// read the module name X as the program operand, so the module ts-node requires (a workspace package linked into
// node_modules) was never looked up, and the real program was never read. The write tool rewrites the compiler's
// code; the user's commit runs the hook, and ts-node requires it. Fixed: ts-node-options.ts' option table (every
// ts-node 10.9 option, both spellings; one it lacks is unresolved).
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { attack, nodePayload, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';

/** A stand-in for ts-node's bin that does what ts-node does with its module options: require them from where it runs. */
const TS_NODE_BIN = `#!/usr/bin/env node
const args = process.argv.slice(2);
for (const [i, word] of args.entries())
  if (word === "--compiler" || word === "--transpiler") require(require.resolve(args[i + 1], { paths: [process.cwd()] }));
`;

function tsNodeProject(t: Parameters<typeof project>[0], hook: string): string {
  const ws = project(t, {
    '.gitignore': 'node_modules/\n',
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    'packages/acme-ts/package.json': '{"name":"acme-ts","version":"1.0.0","main":"index.js"}\n',
    'packages/acme-ts/index.js': 'module.exports = {};\n',
    'tools/check.ts': 'console.log("ok");\n',
    'src/app.js': 'console.log(1);\n',
  });
  mkdirSync(path.join(ws, 'node_modules/ts-node/dist'), { recursive: true });
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  writeFileSync(path.join(ws, 'node_modules/ts-node/package.json'), '{"name":"ts-node","version":"10.9.2","bin":{"ts-node":"dist/bin.js"}}\n');
  writeFileSync(path.join(ws, 'node_modules/ts-node/dist/bin.js'), TS_NODE_BIN);
  chmodSync(path.join(ws, 'node_modules/ts-node/dist/bin.js'), 0o755);
  symlinkSync('../ts-node/dist/bin.js', path.join(ws, 'node_modules/.bin/ts-node'));
  symlinkSync('../packages/acme-ts', path.join(ws, 'node_modules/acme-ts'));
  return ws;
}

for (const option of ['--compiler', '--transpiler'])
  test(`the module ts-node's ${option} X names (space form) is protected`, async (t) => {
    await attack(t, tsNodeProject(t, `npx ts-node ${option} acme-ts tools/check.ts`), 'packages/acme-ts/index.js', nodePayload);
  });

test('control: the joined form --compiler=X', async (t) => {
  await attack(t, tsNodeProject(t, 'npx ts-node --compiler=acme-ts tools/check.ts'), 'packages/acme-ts/index.js', nodePayload);
});

test('over-denial: with ts-node --compiler X in the hook, an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, tsNodeProject(t, 'npx ts-node --compiler acme-ts tools/check.ts'));
});
