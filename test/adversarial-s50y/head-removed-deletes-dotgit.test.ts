// Review s50y, data loss by zotbox (a regression of 89cac03). One command removes the workspace repository's
// .git/HEAD. Before the call .git was a git directory: its control entries (config, hooks/, info/, modules/,
// worktrees/) are the git aftercare's, so protected-locations.ts records none of them (`inGitDirectory`). After it,
// .git has no HEAD, so it is no git directory any more (git-inventory.ts addGitDirectory), and control-locations.ts
// still names its control entries (the repository around the write root): now protected paths with no record, "it
// was created", which zotbox "puts back" by removing them. The user's config (remotes, branches), every hook,
// info/exclude and the submodules' repositories under .git/modules (unpushed commits) are deleted; HEAD stays gone.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const HOOK = '#!/bin/sh\nsh scripts/check.sh\n';

test("removing the user's .git/HEAD never makes zotbox delete the repository's config, hooks, info and modules", async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'scripts/check.sh': 'echo checked\n', 'src/app.js': '1;\n', 'one.sh': 'rm .git/HEAD\n' });
  git(ws, 'remote', 'add', 'origin', 'https://example.com/u/p.git');
  const config = readFileSync(path.join(ws, '.git/config'), 'utf8');
  // A submodule's repository, as git submodule add keeps it (its own objects: commits not pushed anywhere).
  mkdirSync(path.join(ws, '.git/modules/lib/objects/ab'), { recursive: true });
  writeFileSync(path.join(ws, '.git/modules/lib/objects/ab/cdef'), 'an unpushed commit\n');
  const transcript = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.log(transcript);
  // SAFE: whatever zotbox does about the missing HEAD, the user's own files in .git stay as they were.
  t.true(existsSync(path.join(ws, '.git/config')) && readFileSync(path.join(ws, '.git/config'), 'utf8') === config, 'config');
  t.true(existsSync(path.join(ws, '.git/hooks/pre-commit')) && readFileSync(path.join(ws, '.git/hooks/pre-commit'), 'utf8') === HOOK, 'hook');
  t.true(existsSync(path.join(ws, '.git/info/exclude')), 'info/exclude');
  t.true(existsSync(path.join(ws, '.git/modules/lib/objects/ab/cdef')), 'submodule repository');
});

test('control: a command that leaves HEAD in place changes nothing in .git', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'src/app.js': '1;\n', 'one.sh': 'echo 2 > src/app.js\n' });
  await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.is(readFileSync(path.join(ws, '.git/hooks/pre-commit'), 'utf8'), HOOK);
  t.true(existsSync(path.join(ws, '.git/config')));
});
