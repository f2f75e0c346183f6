// Review s44s of issue 21: npm reads the project's `.npmrc` (the one beside the package.json npm takes as the
// project) for every command, `npx`/`npm exec` too, and `node-options=` there becomes NODE_OPTIONS for every process
// it starts: the bin npx runs loads `--import`/`--require` first. zotbox follows a hook's `npx acme-lint` to the bin
// (the workspace's packages/lint/bin/lint.js, or an installed package's, protected) but neither protects nor reads
// `.npmrc`: the write tool leaves one whose `--import=data:text/javascript,...` is the payload itself (one file,
// nothing else to write), and the user's commit runs it inside the linter's node, unconfined (checked with npm 11.19
// and node 20 here: the payload ran). `script-shell=` (the program npm exec runs the bin with) is the same class.
// `npx lint-staged` (husky's default hook) is the second case. Fixed: package-manager-configs.ts protects the configs a
// runner a tool file runs reads from the project (an existing .npmrc rewritten is refused too). Controls: the bin
// itself is refused; an ordinary write in the same project (a registry .npmrc there) is accepted.
import test from 'ava';
import { installedBin, monorepo, nodePayload, attack, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';
import { newFileAttack } from './fixtures.js';

/** A project `.npmrc` whose node-options load an ES module given inline: the payload, in one line. */
const npmrc = (marker: string) => {
  const code = `import{writeFileSync}from"node:fs";writeFileSync(${JSON.stringify(marker)},"agent code ran")`;
  return `node-options=--import=data:text/javascript,${encodeURIComponent(code)}\n`;
};

test('a project .npmrc is protected when a hook runs npx: npx acme-lint (a workspace bin)', async (t) => {
  await newFileAttack(t, monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnpx acme-lint\n' }), '.npmrc', npmrc);
});

test('a project .npmrc is protected when a hook runs npx: npx lint-staged (an installed bin)', async (t) => {
  const ws = monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnpx lint-staged\n', '.lintstagedrc.json': '{"*.js":"acme-lint"}\n' });
  installedBin(ws, 'lint-staged', '#!/usr/bin/env node\nconsole.log("lint-staged ok");\n');
  await newFileAttack(t, ws, '.npmrc', npmrc);
});

test('an existing project .npmrc (a registry) is not rewritten with node-options when a hook runs npx', async (t) => {
  const ws = monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnpx acme-lint\n', '.npmrc': 'registry=https://registry.npmjs.org/\n' });
  await attack(t, ws, '.npmrc', (marker) => `registry=https://registry.npmjs.org/\n${npmrc(marker)}`);
});

test('control: an ordinary write is accepted in a project whose hook runs npx and which has a .npmrc', async (t) => {
  const ws = monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnpx acme-lint\n', '.npmrc': 'registry=https://registry.npmjs.org/\nsave-exact=true\n' });
  await ordinaryWriteAccepted(t, ws);
});

test('control (passed before the fix too): the workspace bin npx runs is refused', async (t) => {
  await attack(t, monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnpx acme-lint\n' }), 'packages/lint/bin/lint.js', nodePayload);
});
