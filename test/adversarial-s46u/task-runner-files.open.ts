// Review s46u of issue 21: the closed world follows what a hook runs through shells, interpreters and package runners
// (package.json scripts), but a task runner's own file is read by nothing: `make lint` runs the recipes of the
// `Makefile` where it runs (`make -C frontend lint`: `frontend/Makefile`), each a shell command, unconfined. Neither is
// protected nor unresolved: the write tool rewrites the Makefile, the user's commit runs it (end to end, GNU make).
// Same class by the manuals (not installed here): just's `justfile`, go-task's `Taskfile.yml`, rake's `Rakefile`
// (ruby code), invoke's `tasks.py`, nox's `noxfile.py`, tox's `tox.ini` commands. Control: an ordinary write.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { ordinaryWriteAccepted, writeThenCommit } from '../adversarial-s45t/fixtures.js';

const MAKEFILE = 'lint:\n\t@echo lint ok\n';
const makeProject = (t: ExecutionContext, hook: string) => project(t, { '.git/hooks/pre-commit': hook, Makefile: MAKEFILE, 'frontend/Makefile': MAKEFILE, 'src/app.js': '1;\n' });
const payload = (marker: string) => `lint:\n\t@touch ${marker}\n`;

test('the Makefile a hook runs `make lint` with is protected', async (t) => {
  await writeThenCommit(t, makeProject(t, '#!/bin/sh\nmake lint\n'), 'Makefile', payload);
});

test('the Makefile a hook runs `make -C frontend lint` with is protected', async (t) => {
  await writeThenCommit(t, makeProject(t, '#!/bin/sh\nmake -C frontend lint\n'), 'frontend/Makefile', payload);
});

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, makeProject(t, '#!/bin/sh\nmake lint\n'));
});
