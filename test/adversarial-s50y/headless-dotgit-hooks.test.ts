// Review s50y, fail-open (issue 21's threat; needs the user's `git init`). A `.git` directory with no HEAD is no git
// directory (git-inventory.ts addGitDirectory: only one git opens), and the git aftercare checks only records that
// are usable before or after (undoGitDirectoryChanges returns nothing otherwise). A nested one is not around the write
// root either (control-locations.ts repositoriesAround), so nothing lists, binds or checks its hooks. One command makes
// `sub/.git/hooks/pre-commit` (and the subproject beside it); exit 0, no stop. The user's `git init sub` (documented
// as safe on an existing repository: it writes the missing HEAD and keeps every existing hook) and first commit run
// the agent's hook unconfined. The same holds for the user's own nested repository once a command removed its HEAD
// (its hooks are no longer bound read-only from the next call on).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const MAKE_HOOK = "mkdir -p sub/.git/hooks && printf '#!/bin/sh\\ntouch PWNED\\n' > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit";

/** The user starts (or restarts) version control in the subproject: git init, a first file, a commit. */
async function userStartsGit(t: import('ava').ExecutionContext, sub: string): Promise<void> {
  git(sub, 'init', '-q');
  writeFileSync(path.join(sub, 'a.txt'), '1\n');
  git(sub, 'add', 'a.txt');
  try {
    git(sub, 'commit', '-q', '-m', 'first');
  } catch (error) {
    t.log('commit failed:', String(error).slice(0, 300));
  }
}

test('a hook a command puts in a new .git with no HEAD never runs on the commit after the user git-inits it', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  t.log((await agentWrites(t, ws, 'mk.sh', `${MAKE_HOOK}\n`, 'sh mk.sh')).slice(-400));
  const sub = path.join(ws, 'sub');
  t.log('hook left:', existsSync(path.join(sub, '.git/hooks/pre-commit')));
  await userStartsGit(t, sub);
  t.log('PWNED after the commit:', existsSync(path.join(sub, 'PWNED')));
  // SAFE: the agent's hook is gone (the run stopped with it undone), and it never ran.
  t.false(existsSync(path.join(sub, '.git/hooks/pre-commit')));
  t.false(existsSync(path.join(sub, 'PWNED')));
});

test("a hook written into the user's nested repository after a command removed its HEAD never runs after git init", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const sub = path.join(ws, 'sub');
  git(ws, 'init', '-q', 'sub');
  git(sub, 'commit', '-q', '--allow-empty', '-m', 'nested');
  t.log((await agentWrites(t, ws, 'one.sh', 'rm sub/.git/HEAD\n', 'sh one.sh')).slice(-300));
  t.log((await agentWrites(t, ws, 'mk.sh', `${MAKE_HOOK}\n`, 'sh mk.sh')).slice(-400));
  await userStartsGit(t, sub);
  t.log('PWNED after the commit:', existsSync(path.join(sub, 'PWNED')));
  t.false(existsSync(path.join(sub, 'PWNED')));
});

test('control: the same hook in a .git that has a HEAD is undone and the run stopped', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const transcript = await agentWrites(t, ws, 'mk.sh', `git init -q sub && ${MAKE_HOOK}\n`, 'sh mk.sh');
  t.regex(transcript, /ZB_CONFINEMENT_GIT_PROGRAM|git metadata that would make git run programs/);
  t.false(existsSync(path.join(ws, 'sub/.git/hooks/pre-commit')));
});
