// adv27c: the location check (src/policy/program-location.ts) judges the name the command writes, not the
// programs that program looks up on the same PATH. npm is `#!/usr/bin/env node`: with /usr/local/bin/node a link
// into the workspace (a node built in the project and linked there), `node` is denied, but `npm ls` (allowlisted,
// argument-ruled, so allowed with --confine off) runs the agent's file as its interpreter, on the host.
// /usr/local/bin is replaced for this test alone by a real bubblewrap bind; zotbox is started by absolute path.
// Expected (safe): npm ls is denied like node (ZB_POLICY_SHELL_PROGRAM): a script's interpreter found on the
// search path (env NAME) is checked as the program is.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { tempDir } from '../fixtures/temp.js';

const zotbox = fileURLToPath(new URL('../../../bin/zotbox.js', import.meta.url));

test('npm whose env-found interpreter node links into the write scope is denied', (t) => {
  const root = realpathSync(tempDir(t, 'adv27c-she-'));
  const agent = path.join(root, 'agent');
  const ws = path.join(root, 'ws');
  const localBin = path.join(root, 'usr-local-bin');
  for (const d of [agent, ws, localBin]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(agent, 'AGENT.md'), 'You run tools.\n');
  const manifest = {
    zotfile: 1,
    name: 'adv',
    version: '0.1.0',
    description: 'x',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 64000 },
    permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['npm', 'node'] } },
    entry: { greeting: 'hi' },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(ws, 'node'), '#!/bin/sh\necho agent code\n');
  chmodSync(path.join(ws, 'node'), 0o755);
  symlinkSync(path.join(ws, 'node'), path.join(localBin, 'node'));
  const check = (command: string) =>
    spawnSync('bwrap', ['--dev-bind', '/', '/', '--bind', localBin, '/usr/local/bin', process.execPath, zotbox, 'check', agent, 'bash', command, '--cwd', ws, '--confine', 'off'], {
      encoding: 'utf8',
    });
  const node = check('node --version');
  t.is(node.status, 1, node.stdout + node.stderr); // the fix of adv27b holds for the name itself
  const npm = check('npm ls');
  t.is(npm.status, 1, npm.stdout + npm.stderr);
  t.regex(npm.stdout + npm.stderr, /ZB_POLICY_SHELL_PROGRAM/);
});
