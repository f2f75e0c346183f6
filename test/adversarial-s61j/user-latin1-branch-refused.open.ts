// Review s61j, over-broad (git-state-check.ts beginGitStateCheck, sandbox-plan.ts protectGitMetadata). The walk enters
// .git directories, and every entry whose name is not UTF-8 refuses the call, a plain file as much as a directory. A
// user's repository with a branch whose name is Latin-1 (`git branch caf$'\xe9'`: git takes any bytes; its loose ref
// and reflog are files named by those bytes) refuses every call in that workspace, although a file hides nothing and
// docs/security.md says nothing below `.git` is checked as a name. The fix is "rename it": a ref file inside .git.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

test("a user's repository with a Latin-1 branch name is not refused on every call", (t) => {
  const ws = path.join(tempDir(t, 'zb-s61j-'), 'ws');
  mkdirSync(ws);
  git(ws, 'init', '-q');
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'x');
  t.is(spawnSync('bash', ['-c', `git branch caf$'\\xe9'`], { cwd: ws }).status, 0);
  let refused: string | undefined;
  try {
    beginGitStateCheck({ readRoots: [], writeRoots: [ws] }).finish();
  } catch (error) {
    refused = String(error).slice(0, 600);
    t.log(refused);
  }
  // SAFE (and usable): a file inside git's own data, whose name hides nothing, does not refuse the user's workspace.
  t.is(refused, undefined);
});
