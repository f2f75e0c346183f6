// Review s60i (git-inventory.ts readSmallFile / gitfileTarget, scope-walk.ts readdir): zotbox reads a gitfile's text
// as UTF-8 (`toString('utf8')`), so a byte that is not UTF-8 (0xFF) becomes U+FFFD, and the path zotbox stats
// (`../\uFFFD/r/.git`, bytes EF BF BD) is not the one git opens (`../\xFF/r/.git`): zotbox finds nothing there, and a
// user's pointer that "names nothing" is kept. The scan cannot see the directory git opens either: readdir hands the
// walker the name lossily decoded, the walker's stat of `\uFFFD` finds nothing (ENOENT: "gone"), so nothing below a
// folder whose name is not UTF-8 is ever listed, judged or set aside (a repository with hooks included). Unconfined:
// `mv lib lib2` (folderStands false: no put-back), then the user's gitfile rewritten in place (same inode: the user's
// moved pointer). Driven directly (beginGitStateCheck → the command's effects → finish), as `unconfinedCall` does.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

test("a gitfile naming a folder whose name is not UTF-8 hands the user's git the agent's hooks", (t) => {
  const root = tempDir(t, 'zb-s60i-');
  const ws = path.join(root, 'ws');
  const marker = path.join(root, 'PWNED');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'lib'), path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib', '.git'), 'gitdir: ../gitstore/lib\n');
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  // The unconfined command: an ordinary rename of the folder, a repository with a hook in a folder named 0xFF, and the
  // user's gitfile rewritten in place (`>` keeps its inode) to name it.
  renameSync(path.join(ws, 'lib'), path.join(ws, 'lib2'));
  const command = [
    `cd '${ws}'`,
    `d=$'\\xff'`,
    'git init -q "$d/r"',
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > "$d/r/.git/hooks/pre-commit"`,
    'chmod +x "$d/r/.git/hooks/pre-commit"',
    "printf 'gitdir: ../\\377/r/.git\\n' > lib2/.git",
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
  // The user's later commit in the moved checkout (if zotbox left its gitfile there).
  if (existsSync(path.join(ws, 'lib2', '.git'))) {
    const commit = spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: path.join(ws, 'lib2'), encoding: 'utf8' });
    t.log('user commit:', commit.status, commit.stderr.trim());
  }
  // SAFE: the agent's hook never ran, and the run stopped.
  t.false(existsSync(marker), "the user's git commit ran the agent's hook");
  t.true(stopped, 'zotbox finished the call without a word');
});
