// Review s51z, data loss by zotbox (git-directory-state.ts `undoGitDirectoryChanges`, git-aftercare.ts). A nested
// repository's .git is bound over itself and its hooks/, modules/, config are bound read-only, so an agent cannot
// remove them; but the directory holding it is an ordinary one and can be renamed (the kernel refuses only to rename
// a mount point itself). `mv lib lib2` moves the user's `.git` to a path with no record: the aftercare sees a NEW
// directory named like .git, which it judges against nothing and "undoes" by removing every path that is not git data
// (the s50y 1 fix, "nothing is removed in a directory that was not a git directory before", spares only directories
// not named like .git). The user's own hook, the submodules' repositories in .git/modules (unpushed commits) and a
// config holding any key outside the closed list are deleted by zotbox, on the host.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const HOOK = '#!/bin/sh\necho checked\n';

function nestedRepository(ws: string): void {
  execFileSync('git', ['init', '-q', 'lib'], { cwd: ws });
  execFileSync('git', ['-C', 'lib', 'config', 'pull.rebase', 'true'], { cwd: ws });
  writeFileSync(path.join(ws, 'lib/.git/hooks/pre-commit'), HOOK);
  chmodSync(path.join(ws, 'lib/.git/hooks/pre-commit'), 0o755);
  // A submodule's repository, as git submodule add keeps it (its own objects: commits not pushed anywhere).
  mkdirSync(path.join(ws, 'lib/.git/modules/m/objects/ab'), { recursive: true });
  writeFileSync(path.join(ws, 'lib/.git/modules/m/objects/ab/cdef'), 'an unpushed commit\n');
  writeFileSync(path.join(ws, 'lib/a.txt'), 'uncommitted\n');
}

/** The file at `relative` inside the repository, wherever the command left it (lib/ or lib2/). */
function kept(ws: string, relative: string): string | undefined {
  for (const top of ['lib', 'lib2']) {
    const file = path.join(ws, top, relative);
    if (existsSync(file)) return readFileSync(file, 'utf8');
  }
  return undefined;
}

test("renaming the directory that holds a nested repository never makes zotbox delete that repository's hooks, modules or config", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': 'mv lib lib2\n' });
  nestedRepository(ws);
  const config = readFileSync(path.join(ws, 'lib/.git/config'), 'utf8');
  const transcript = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.log(transcript.slice(-1500));
  // SAFE: wherever the repository ended up, the user's own files in its .git are as they were.
  t.is(kept(ws, '.git/hooks/pre-commit'), HOOK, 'hook');
  t.is(kept(ws, '.git/modules/m/objects/ab/cdef'), 'an unpushed commit\n', 'submodule repository');
  t.is(kept(ws, '.git/config'), config, 'config');
  t.is(kept(ws, 'a.txt'), 'uncommitted\n', 'worktree file');
});

test('control: inside the sandbox the hook and modules cannot be removed directly', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': 'rm -rf lib/.git/modules lib/.git/hooks/pre-commit; true\n' });
  nestedRepository(ws);
  await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.is(kept(ws, '.git/hooks/pre-commit'), HOOK, 'hook');
  t.is(kept(ws, '.git/modules/m/objects/ab/cdef'), 'an unpushed commit\n', 'submodule repository');
});
