// Review s61j, unconfined (git-inventory.ts readSmallFile `toString('utf8')` / readLinkText, pointerNamesNow). The fix
// for s60i moves aside names that are not UTF-8 found IN THE WRITE SCOPES, but still reads a pointer's text lossily:
// `gitdir: ../../\xFF/r/.git` is read as `../../\uFFFD/r/.git`, which names nothing, and a user's moved pointer that
// names nothing is kept. An unconfined command can write outside the write scopes (a script's writes are not the
// gate's to see), so the repository it names need not lie where the walk looks. s60i 1 with the repository one level
// up: `mv lib lib2` (folderStands false: no put-back), a repository with a hook in `<root>/\xFF/r`, and the user's
// gitfile rewritten in place (`>` keeps its inode). Driven directly (beginGitStateCheck → effects → finish), as
// `unconfinedCall` does. The same with a UTF-8 folder name is caught (the pointer names another directory).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

test("a gitfile naming a folder outside the write scopes whose name is not UTF-8 hands the user's git the agent's hooks", (t) => {
  const root = tempDir(t, 'zb-s61j-');
  const ws = path.join(root, 'ws');
  const marker = path.join(root, 'PWNED');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'lib'), path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib', '.git'), 'gitdir: ../gitstore/lib\n');
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  // The unconfined command: an ordinary rename of the folder, a repository with a hook outside the write scope in a
  // folder named 0xFF, and the user's gitfile rewritten in place to name it.
  renameSync(path.join(ws, 'lib'), path.join(ws, 'lib2'));
  const command = [
    `cd '${root}'`,
    `d=$'\\xff'`,
    'git init -q "$d/r"',
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > "$d/r/.git/hooks/pre-commit"`,
    'chmod +x "$d/r/.git/hooks/pre-commit"',
    "printf 'gitdir: ../../\\377/r/.git\\n' > ws/lib2/.git",
  ].join(' && ');
  t.is(spawnSync('bash', ['-c', command]).status, 0);
  let stopped = false;
  try {
    check.finish();
    t.log('zotbox: no stop');
  } catch (error) {
    stopped = true;
    t.log(String(error).slice(0, 900));
  }
  if (existsSync(path.join(ws, 'lib2', '.git'))) {
    const commit = spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: path.join(ws, 'lib2'), encoding: 'utf8' });
    t.log('user commit:', commit.status, commit.stderr.trim());
  }
  // SAFE: the agent's hook never ran, and the run stopped.
  t.false(existsSync(marker), "the user's git commit ran the agent's hook");
  t.true(stopped, 'zotbox finished the call without a word');
});
