// Review s56e, fail-open (git-state-check.ts order, with git-aftercare.ts's new "names another directory" rule): for a
// writer nothing binds read-only (an unconfined command; beginGitStateCheck's snapshot), the gitfiles' text is put
// back (restoreControlFiles) AFTER the after-scan, and removeUnsafeGitChanges judges what the user's pointer names
// from that scan: from the text the COMMAND wrote. The command re-points the link on the user's path (`mv gitstore
// gitstore.old && ln -s ../evil gitstore/lib`, evil/ holding only hooks/pre-commit) and rewrites lib/.git in place to
// `gitdir: ../gitstore.old/lib`: the pointer "names the same directory as before" and is kept; then zotbox puts the
// user's text back, which now names evil/ — never judged (no HEAD: no record). The run stops ("its content was
// restored"). Next call: evil/ is what a user's pointer named before the call (a usable record, its hook the
// baseline); HEAD, objects/, refs/ are data: no stop. The user's `git commit` in lib/ runs the agent's hook.
// Driven directly (beginGitStateCheck → the command's effects → finish), as command-isolation.ts `unconfinedCall` does.
import { chmodSync, existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

function call(ws: string, effects: () => void): string {
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  effects();
  try {
    check.finish();
    return 'no stop';
  } catch (error) {
    return String(error).slice(0, 600);
  }
}

function attack(t: import('ava').ExecutionContext, rewrite: boolean): string {
  const ws = path.join(tempDir(t, 'zb-s56e-'), 'ws');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  writeFileSync(path.join(ws, 'lib/a.txt'), 'a\n');
  git(path.join(ws, 'lib'), 'add', 'a.txt');
  git(path.join(ws, 'lib'), 'commit', '-q', '-m', 'one');
  const pwned = path.join(ws, 'PWNED');
  t.log(
    'call 1:',
    call(ws, () => {
      renameSync(path.join(ws, 'gitstore'), path.join(ws, 'gitstore.old'));
      mkdirSync(path.join(ws, 'evil/hooks'), { recursive: true });
      writeFileSync(path.join(ws, 'evil/hooks/pre-commit'), `#!/bin/sh\ntouch ${pwned}\n`);
      chmodSync(path.join(ws, 'evil/hooks/pre-commit'), 0o755);
      mkdirSync(path.join(ws, 'gitstore'));
      symlinkSync('../evil', path.join(ws, 'gitstore/lib'));
      if (rewrite) writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore.old/lib\n'); // in place: the same inode
    }),
  );
  t.log(
    'call 2:',
    call(ws, () => {
      mkdirSync(path.join(ws, 'evil/objects'));
      mkdirSync(path.join(ws, 'evil/refs/heads'), { recursive: true });
      writeFileSync(path.join(ws, 'evil/HEAD'), 'ref: refs/heads/main\n');
    }),
  );
  t.log('hook kept:', existsSync(path.join(ws, 'evil/hooks/pre-commit')));
  try {
    git(path.join(ws, 'lib'), 'commit', '-q', '--allow-empty', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  return pwned;
}

test('the gitfile text zotbox puts back never names a directory the aftercare did not judge', (t) => {
  // SAFE: the agent's hook never ran.
  t.false(existsSync(attack(t, true)));
});

// Control: without the rewrite the user's pointer names evil/ after the call: moved aside, the hook never runs.
test("control: a user's pointer a re-pointed link makes name another directory is moved aside", (t) => {
  t.false(existsSync(attack(t, false)));
});
