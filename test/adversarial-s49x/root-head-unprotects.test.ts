// Review s49x, fail-open (issue 21's threat, high). git-inventory.ts takes every directory holding an entry named `head`
// (any case) for a git directory, the write root itself included. One command makes an empty `HEAD` at the workspace's
// top (nothing refuses or undoes it). From then on the whole workspace is "a git directory": protected-locations.ts
// leaves out every location inside one (`inGitDirectory`), so the files the user's tool files run (here
// `scripts/check.sh`, run by the pre-commit hook, and `scripts/t.sh`, npm test) are no longer protected: the next
// call (a later run, or the next call of the same run) appends to them, nothing puts them back and the run is not
// stopped; the user's `git commit` then runs the agent's code unconfined. The same exemption keeps every unsafe name
// (agent-name-checks.ts skips what lies in a git directory), and the write tool is refused everywhere ("inside the git
// directory"). A cold or warm sandbox alike.
// Fixed: only a directory git opens is a git directory (git-inventory.ts addGitDirectory); one that merely holds a HEAD
// entry is ordinary, its files protected like any other, and one a command makes into a repository git opens is
// defused by the git aftercare (its HEAD removed, the run stopped). `scripts/t.sh` (npm test) is the project's code by
// design (docs/security.md: `package.json` scripts are run as `npm test` runs them), so only what the hook runs is asserted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

test('an empty HEAD file a command makes at the top never unprotects the files the hooks run', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nsh scripts/check.sh\n',
    'scripts/check.sh': 'echo checked\n',
    'package.json': '{"scripts":{"test":"sh scripts/t.sh"}}\n',
    'scripts/t.sh': 'echo tested\n',
    'src/app.js': '1;\n',
    'one.sh': ': > HEAD\n',
  });
  // Call 1 writes the second script (an ordinary file) and makes HEAD; call 2 (a later run) runs it.
  const payload = 'echo "touch PWNED" >> scripts/check.sh; echo "touch PWNED2" >> scripts/t.sh\n';
  t.log((await agentWrites(t, ws, 'two.sh', payload, 'sh one.sh')).slice(-400));
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh two.sh')).slice(-700));
  t.log(readFileSync(path.join(ws, 'scripts/check.sh'), 'utf8'));
  // The user commits their own change: the pre-commit hook runs scripts/check.sh, unconfined.
  writeFileSync(path.join(ws, 'src/app.js'), '2;\n');
  git(ws, 'add', 'src/app.js');
  git(ws, 'commit', '-q', '-m', 'user change');
  t.log('PWNED after the commit:', existsSync(path.join(ws, 'PWNED')));
  // SAFE: what the hooks run is as the user had it, and the agent's code never ran.
  t.is(readFileSync(path.join(ws, 'scripts/check.sh'), 'utf8'), 'echo checked\n');
  t.false(existsSync(path.join(ws, 'PWNED')));
});

test('a HEAD holding a ref a command makes beside a protected script is undone, and the script stays protected', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nsh scripts/check.sh\n',
    'scripts/check.sh': 'echo checked\n',
    'src/app.js': '1;\n',
    'one.sh': "printf 'ref: refs/heads/main\\n' > scripts/HEAD\n",
  });
  const first = await agentWrites(t, ws, 'two.sh', 'echo "touch PWNED" >> scripts/check.sh\n', 'sh one.sh');
  // scripts/ became a directory git opens, holding files git does not make: its HEAD is removed and the run stopped.
  t.regex(first, /ZB_CONFINEMENT_GIT_PROGRAM/);
  t.false(existsSync(path.join(ws, 'scripts/HEAD')));
  await agentWrites(t, ws, 'x.txt', 'x\n', 'sh two.sh');
  t.is(readFileSync(path.join(ws, 'scripts/check.sh'), 'utf8'), 'echo checked\n');
});

test('a lower-case head with objects/ and refs/ (git does not open it here) leaves the script protected', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nsh scripts/check.sh\n',
    'scripts/check.sh': 'echo checked\n',
    'src/app.js': '1;\n',
    'one.sh': "mkdir scripts/objects scripts/refs && printf 'ref: refs/heads/main\\n' > scripts/head\n",
  });
  await agentWrites(t, ws, 'two.sh', 'echo "touch PWNED" >> scripts/check.sh\n', 'sh one.sh');
  t.true(existsSync(path.join(ws, 'scripts/head')));
  await agentWrites(t, ws, 'x.txt', 'x\n', 'sh two.sh');
  t.is(readFileSync(path.join(ws, 'scripts/check.sh'), 'utf8'), 'echo checked\n');
});

test('control: without the Head directory the script is put back and the run stopped', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\nsh scripts/check.sh\n', 'scripts/check.sh': 'echo checked\n', 'src/app.js': '1;\n' });
  t.log((await agentWrites(t, ws, 'two.sh', 'echo "touch PWNED" >> scripts/check.sh\n', 'sh two.sh')).slice(-300));
  t.is(readFileSync(path.join(ws, 'scripts/check.sh'), 'utf8'), 'echo checked\n');
});
