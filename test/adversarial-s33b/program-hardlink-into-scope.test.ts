// adv27c: a program file outside the write scopes that is a HARD link of a file inside one.
// The location check (src/policy/program-location.ts) asks realpath where the file is; a hard
// link has no "real" path, so /tc/bin/mytool passes while the agent can rewrite its bytes through
// ws/mytool (same inode). Such links exist without the agent: pnpm's store hard-links the same
// file into global installs and into every project's node_modules; `cp -l`, `ln` by the user.
// Expected (safe): the program is denied (ZB_POLICY_SHELL_PROGRAM), like a symlink into the scope.
import { chmodSync, linkSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

function world(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'adv27c-hl-'));
  const agent = path.join(root, 'agent');
  const ws = path.join(root, 'ws');
  const bin = path.join(root, 'tc', 'bin');
  for (const d of [agent, ws, bin]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(agent, 'AGENT.md'), 'You run tools.\n');
  const manifest = {
    zotfile: 1,
    name: 'adv',
    version: '0.1.0',
    description: 'x',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 64000 },
    permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['mytool', 'cat'] } },
    entry: { greeting: 'hi' },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  return { agent, ws, bin };
}

test('a program-directory file hard-linked with a file in the workspace is denied', async (t) => {
  const { agent, ws, bin } = world(t);
  writeFileSync(path.join(bin, 'mytool'), '#!/bin/sh\necho tool\n');
  chmodSync(path.join(bin, 'mytool'), 0o755);
  linkSync(path.join(bin, 'mytool'), path.join(ws, 'mytool'));
  const r = await runCliCaptured(['check', agent, 'bash', 'mytool', '--cwd', ws, '--program-path', bin]);
  t.is(r.status, 1, r.stdout + r.stderr);
  t.regex(r.stdout + r.stderr, /ZB_POLICY_SHELL_PROGRAM/);
});

test('with --confine off, a ruled name (cat) in a program directory hard-linked into the workspace is denied', async (t) => {
  const { agent, ws, bin } = world(t);
  writeFileSync(path.join(bin, 'cat'), '#!/bin/sh\necho not-cat\n');
  chmodSync(path.join(bin, 'cat'), 0o755);
  linkSync(path.join(bin, 'cat'), path.join(ws, 'notes.txt'));
  const r = await runCliCaptured(['check', agent, 'bash', 'cat notes.txt', '--cwd', ws, '--program-path', bin, '--confine', 'off']);
  t.is(r.status, 1, r.stdout + r.stderr);
  t.regex(r.stdout + r.stderr, /ZB_POLICY_SHELL_PROGRAM|ZB_PROGRAM_PATH_UNSAFE/);
});
