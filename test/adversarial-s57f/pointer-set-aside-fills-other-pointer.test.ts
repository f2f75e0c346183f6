// Review s57f, fail-open (git-aftercare.ts setAsideRepointedPointers: one pass over the user's pointers; a pointer
// that names nothing is kept, and the same pass then moves another pointer aside to the first free name beside it).
// The user has two `.git` links to a separate git store: app/.git -> ../gitstore/app, zlib/.git -> ../gitstore/zlib.
// Run 1: `mv gitstore gitstore.old` (s52a 1), `gitstore/zlib -> ../app/zotbox-renamed-1` (dangling: zlib's pointer
// names nothing, kept), `gitstore/app -> ../evil` (app's pointer names evil/: moved aside to app/zotbox-renamed-1,
// a link that still reads `../gitstore/app`). The pass met zlib/.git first (the scan's order, seen; the agent can
// read it with `ls -U` and pick the roles). After the pass zlib/.git names evil/, which holds the agent's hook (not
// removed: evil/ is not git's place and had no HEAD, so "left as it is"). Run 2: evil/ is what a user's pointer named
// before the call (pointedTo: a usable record, its hook the baseline); HEAD, objects/, refs/ written there are data:
// no stop. The user's `git commit` in zlib/ runs the agent's hook.
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const ONE = `set -e
mv gitstore gitstore.old
mkdir gitstore evil evil/hooks
ln -s ../app/zotbox-renamed-1 gitstore/zlib
ln -s ../evil gitstore/app
printf '#!/bin/sh\\ntouch "@WS@/PWNED"\\n' > evil/hooks/pre-commit
chmod +x evil/hooks/pre-commit
`;
const TWO = `set -e
mkdir -p evil/objects evil/refs/heads
printf 'ref: refs/heads/main\\n' > evil/HEAD
`;

test("zotbox's pointer set-aside never fills the path another user pointer names", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'gitstore/.keep': '', 'one.sh': ONE, 'two.sh': TWO });
  withWorkspacePath(ws);
  for (const name of ['app', 'zlib']) {
    git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', name), path.join(ws, name));
    // The user's .git is a relative link to the separate git directory (instead of git's absolute gitfile).
    rmSync(path.join(ws, name, '.git'));
    symlinkSync(`../gitstore/${name}`, path.join(ws, name, '.git'));
    writeFileSync(path.join(ws, name, 'a.txt'), 'a\n');
  }
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-900));
  t.log('run 2:', (await agentWrites(t, ws, 'x2.txt', 'x\n', 'sh two.sh')).slice(-500));
  try {
    git(path.join(ws, 'zlib'), 'add', 'a.txt');
    git(path.join(ws, 'zlib'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});
