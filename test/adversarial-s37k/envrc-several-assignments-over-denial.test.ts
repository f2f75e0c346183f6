// Review s37k of issue 21, an OVER-DENIAL: the .envrc reader reads one assignment per line. A line with several
// (`export NODE_ENV=development PORT=3000`, `export A=1; export B=2`, valid shell, each value spelled out) is read
// as "a value zotbox cannot read (a command substitution, or a variable set outside the file)": every write and
// command of the run is refused. The same with git configuration (`export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=...`).
// Safe-and-usable outcome asserted: an unrelated file is written; the hooks directory git configuration gives is refused.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const envrc of [
  'export NODE_ENV=development PORT=3000\n',
  'export NODE_ENV=development; export PORT=3000\n',
  'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=tools/githooks\n',
])
  test(`${JSON.stringify(envrc)}: an ordinary edit is written`, async (t) => {
    const ws = project(t, { '.envrc': envrc, 'tools/githooks/pre-commit': '#!/bin/sh\necho ok\n', 'README.md': 'project\n' });
    t.log(await agentWrites(t, ws, 'README.md', 'project, edited\n'));
    t.is(readFileSync(path.join(ws, 'README.md'), 'utf8'), 'project, edited\n', 'every write was refused');
  });

test('one export of several git configuration assignments: the hooks directory it gives is refused', async (t) => {
  const files = { '.envrc': 'export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=tools/githooks\n', 'tools/githooks/pre-commit': '#!/bin/sh\necho ok\n' };
  const ws = project(t, files);
  t.log(await agentWrites(t, ws, 'tools/githooks/pre-commit', '#!/bin/sh\ntouch /tmp/PWNED-s37k\n'));
  t.is(readFileSync(path.join(ws, 'tools/githooks/pre-commit'), 'utf8'), files['tools/githooks/pre-commit']);
});
