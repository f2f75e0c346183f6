// Review s58g, fail-open (git-aftercare.ts: `undo` puts back a user's replaced `.git` link, but
// `setAsideRepointedPointers` only looks at `usersEntries`, worked out from the after-scan, where that entry was the
// command's replacement, not the user's link). So the link zotbox itself puts back is never asked what it names now.
// The user has `app/.git -> ../gitstore/app` (a separate git directory). Run 1 (confined): `mv gitstore gitstore.old`
// (s52a 1), `gitstore/app -> ../evil` (evil/ holds only hooks/pre-commit: not git's, "left as it is"), and the user's
// `.git` link replaced by a gitfile that names nothing (a .git link cannot be bound read-only). The aftercare undoes
// the gitfile and puts the user's link back, which now names evil/; the last pointer check skips it. Run 2: evil/ is
// what a user pointer named before the call (pointedTo: usable, its hook the baseline); HEAD, objects/, refs/ are data.
// The user's `git commit` in app/ runs the agent's hook.
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const ONE = `set -e
mv gitstore gitstore.old
mkdir gitstore evil evil/hooks
ln -s ../evil gitstore/app
printf '#!/bin/sh\\ntouch "@WS@/PWNED"\\n' > evil/hooks/pre-commit
chmod +x evil/hooks/pre-commit
mv app/.git app/was-git-link
printf 'gitdir: ../nowhere\\n' > app/.git
`;
const TWO = `set -e
mkdir -p evil/objects evil/refs/heads
printf 'ref: refs/heads/main\\n' > evil/HEAD
`;

test('the .git link zotbox puts back is checked for what it names now', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'gitstore/.keep': '', 'one.sh': ONE, 'two.sh': TWO });
  withWorkspacePath(ws);
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'app'), path.join(ws, 'app'));
  rmSync(path.join(ws, 'app', '.git'));
  symlinkSync('../gitstore/app', path.join(ws, 'app', '.git'));
  writeFileSync(path.join(ws, 'app', 'a.txt'), 'a\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-900));
  t.log('run 2:', (await agentWrites(t, ws, 'x2.txt', 'x\n', 'sh two.sh')).slice(-500));
  try {
    git(path.join(ws, 'app'), 'add', 'a.txt');
    git(path.join(ws, 'app'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});
