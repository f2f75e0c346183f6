// Review s63l, finding 1 (unconfined, driven directly as `unconfinedCall` does). A user's `.git` that is a link to a
// gitfile: git follows it (setup.c read_gitfile_gently stats THROUGH the link, reads the file, follows its `gitdir:`),
// zotbox does not. git-inventory.ts `namedDirectory` statSyncs the link's target, finds a file, and says the link names
// nothing, before and after the call; git-aftercare.ts `snapshotControlFiles` snapshots only gitfiles that ARE `.git`
// entries; `setAsideRepointedPointers` keeps a pointer that "names nothing". One unconfined command makes a repository
// with a hook outside the scopes and rewrites the user's gitfile (in the write scope) to name it: `finish()` returns,
// and the user's `git commit` runs the agent's hook. Control: the same rewrite of a gitfile that is the `.git` entry
// itself is put back and stops the run (restoreControlFiles; existing tests).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

test("a user's .git link to a gitfile, the gitfile re-pointed by an unconfined command", (t) => {
  const root = tempDir(t, 'zb-s63l-');
  const outside = tempDir(t, 'zb-s63l-out-');
  const ws = path.join(root, 'ws');
  const marker = path.join(root, 'PWNED');
  git(root, 'init', '-q', ws);
  mkdirSync(path.join(root, 'store'));
  renameSync(path.join(ws, '.git'), path.join(root, 'store', 'ws.git'));
  writeFileSync(path.join(root, 'store', 'ws.gitfile'), `gitdir: ${path.join(root, 'store', 'ws.git')}\n`);
  symlinkSync('../store/ws.gitfile', path.join(ws, '.git'));
  t.log('user git before:', spawnSync('git', ['rev-parse', '--git-dir'], { cwd: ws, encoding: 'utf8' }).stdout.trim());
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [root] });
  const evil = path.join(outside, 'evil', '.git');
  const agent = [
    `git init -q '${path.dirname(evil)}'`,
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > '${evil}/hooks/pre-commit'`,
    `chmod +x '${evil}/hooks/pre-commit'`,
    `printf 'gitdir: ${evil}\\n' > '${root}/store/ws.gitfile'`,
  ].join(' && ');
  t.is(spawnSync('bash', ['-c', agent]).status, 0);
  let stopped = false;
  try {
    check.finish();
    t.log('zotbox: no stop');
  } catch (error) {
    stopped = true;
    t.log(String(error).slice(0, 900));
  }
  const commit = spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: ws, encoding: 'utf8' });
  t.log('user commit:', commit.status, commit.stderr.trim());
  t.false(existsSync(marker), "the user's git commit ran the agent's hook");
  t.true(stopped, 'zotbox finished the call without a word');
});
