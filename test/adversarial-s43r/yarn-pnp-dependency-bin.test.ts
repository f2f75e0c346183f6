// Review s43r of issue 21, over-denial: under Plug'n'Play a hook's `yarn eslint` (a registry dependency's bin, whose
// code lies in yarn's cache zips) refused every writer, so an ordinary Yarn Berry project with a hook could not be
// worked on. Fixed (yarn-pnp-dependencies.ts): the cache and unplugged folders are protected whole where every
// dependency spec is a registry's or a workspace's. Expected by hand: an ordinary write is accepted; a write into the
// cache or an unplugged copy is refused; with a `link:` dependency (its code lies outside the cache) every writer is
// still refused. yarn is not installed here: the project is as committed (zotbox's reading does not need .pnp.cjs).
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';
import { attack, nodePayload, ordinaryWriteAccepted } from './fixtures.js';

function yarnProject(t: ExecutionContext, eslint: string): string {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec yarn eslint .\n',
    '.yarnrc.yml': 'nodeLinker: pnp\nenableGlobalCache: false\n',
    '.pnp.cjs': '#!/usr/bin/env node\n"use strict";\n',
    'package.json': JSON.stringify({ name: 'app', private: true, devDependencies: { eslint } }),
    'yarn.lock': '# yarn lockfile v8\n',
    '.yarn/cache/eslint-npm-9.0.0-abc-123.zip': 'PK stand-in\n',
    '.yarn/unplugged/esbuild-npm-0.20.0-x/node_modules/esbuild/bin/esbuild': '#!/usr/bin/env node\n',
    'src/app.js': 'console.log(1);\n',
  });
  return ws;
}

test("an ordinary write is accepted where a hook runs a registry dependency's bin through yarn's Plug'n'Play", async (t) => {
  await ordinaryWriteAccepted(t, yarnProject(t, '^9.0.0'));
});

for (const target of ['.yarn/cache/eslint-npm-9.0.0-abc-123.zip', '.yarn/unplugged/esbuild-npm-0.20.0-x/node_modules/esbuild/bin/esbuild'])
  test(`yarn's installed code a dependency's bin runs from is protected: ${target}`, async (t) => {
    await attack(t, yarnProject(t, '^9.0.0'), target, nodePayload);
  });

test('with a link: dependency (its code outside the cache) every writer is still refused', async (t) => {
  const ws = yarnProject(t, 'link:./tools/eslint');
  t.log(await agentWrites(t, ws, 'src/other.js', 'console.log(3);\n'));
  t.false(existsSync(path.join(ws, 'src/other.js')));
  t.is(readFileSync(path.join(ws, 'src/app.js'), 'utf8'), 'console.log(1);\n');
});
