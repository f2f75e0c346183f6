// Over-denial: where a hook runs yarn under Plug'n'Play, yarn's cache folder is protected whole, and every protected
// file was recorded byte for byte before each call up to 64 MiB, past which the call was refused. A zero-install
// project commits a cache of 50-500 MiB, so EVERY writer (the write tool and bash) was refused. Now what lies past the
// budget is recorded by identity (protected-locations.ts, file-identity.ts). Expected by hand, through the real CLI: a
// 70 MiB cache (sparse zips, committed) no longer refuses an ordinary write and `git status`; a write into the cache
// is still refused, and the user's commit afterwards runs nothing of the agent's.
import test, { type ExecutionContext } from 'ava';
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { attack, nodePayload } from '../adversarial-s43r/fixtures.js';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const MIB = 1024 * 1024;

/** A zero-install project: a pre-commit hook runs eslint through yarn, its cache (70 MiB of zips) committed. */
function zeroInstall(t: ExecutionContext): string {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec yarn eslint .\n',
    '.yarnrc.yml': 'nodeLinker: pnp\nenableGlobalCache: false\n',
    '.pnp.cjs': '#!/usr/bin/env node\n"use strict";\n',
    'package.json': JSON.stringify({ name: 'app', private: true, scripts: { lint: 'eslint .' }, devDependencies: { eslint: '^9.0.0' } }),
    'yarn.lock': '# yarn lockfile v8\n',
    '.yarn/cache/eslint-npm-9.0.0-abc-123.zip': 'PK stand-in\n',
    'src/app.js': 'console.log(1);\n',
  });
  for (let i = 0; i < 10; i++) {
    // A hole of 7 MiB after "PK": cheap on disk; zotbox never reads the ones past its byte budget.
    const fd = openSync(path.join(ws, '.yarn/cache', `dep${i}-npm-1.0.0-abc-${i}.zip`), 'w');
    writeFileSync(fd, 'PK');
    ftruncateSync(fd, 7 * MIB);
    closeSync(fd);
  }
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'zero-install cache');
  return ws;
}

test('an ordinary write and a command running `git status` are accepted beside a 70 MiB zero-install cache', async (t) => {
  const ws = zeroInstall(t);
  // The write tool writes the script, then the agent runs it (confined): both were refused before.
  t.log(await agentWrites(t, ws, 'tools/status.sh', 'git status --short > status.txt\n', 'sh tools/status.sh'));
  t.true(existsSync(path.join(ws, 'tools/status.sh')), 'the ordinary write was refused');
  t.is(readFileSync(path.join(ws, 'status.txt'), 'utf8'), '?? status.txt\n?? tools/\n');
});

test('a write into the 70 MiB zero-install cache is still refused, and the commit runs nothing of it', async (t) => {
  await attack(t, zeroInstall(t), '.yarn/cache/eslint-npm-9.0.0-abc-123.zip', nodePayload);
});
