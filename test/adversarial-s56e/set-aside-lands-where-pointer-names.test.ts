// Review s56e, fail-open (git-aftercare.ts: a user's pointer "naming nothing now is kept"; what it names is judged
// from the after-scan, BEFORE the aftercare's own set-asides). The command renames the user's separate git directory's
// parent away (s52a 1), makes `gitstore/lib -> zotbox-renamed-1` (dangling: the user's `gitdir: ../gitstore/lib` names
// nothing, kept), and `git init gitstore` with a pre-commit hook: the new gitstore/.git is set aside whole to the first
// free name, gitstore/zotbox-renamed-1, which the user's pointer now names. Its HEAD is renamed, so git does not open it
// yet. Next call: it is what a user's pointer named before the call (a usable record; its hook and config the
// baseline); putting HEAD back is data: no stop. The user's `git commit` in lib/ runs the agent's hook. With
// `mkdir .git/HEAD.zotbox-set-aside` (set-aside-head-name-taken) the first call alone arms it.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const ONE = `set -e
mv gitstore gitstore.old
mkdir gitstore
ln -s zotbox-renamed-1 gitstore/lib
git init -q gitstore
printf '#!/bin/sh\\ntouch "@WS@/PWNED"\\n' > gitstore/.git/hooks/pre-commit
chmod +x gitstore/.git/hooks/pre-commit
`;
// The set-aside HEAD's name has a random part now; the agent reads it (ls) and renames it back.
const TWO = 'for f in gitstore/zotbox-renamed-1/HEAD.zotbox-set-aside*; do mv "$f" gitstore/zotbox-renamed-1/HEAD; done\n';

async function twoRuns(t: import('ava').ExecutionContext, one: string, two: string): Promise<string> {
  const ws = project(t, { 'src/app.js': '1;\n', 'gitstore/.keep': '', 'one.sh': one, 'two.sh': two });
  withWorkspacePath(ws);
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  writeFileSync(path.join(ws, 'lib/a.txt'), 'a\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-700));
  t.log('run 2:', (await agentWrites(t, ws, 'x2.txt', 'x\n', 'sh two.sh')).slice(-500));
  t.log('hook there:', existsSync(path.join(ws, 'gitstore/zotbox-renamed-1/hooks/pre-commit')));
  try {
    git(path.join(ws, 'lib'), 'add', 'a.txt');
    git(path.join(ws, 'lib'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  return ws;
}

test("the aftercare's set-aside never becomes the directory a user's pointer names", async (t) => {
  const ws = await twoRuns(t, ONE, TWO);
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});

// One call: the HEAD's set-aside name taken first, so that the rename fails and git opens the set-aside at once.
test("the aftercare's set-aside never becomes the directory a user's pointer names (one call)", async (t) => {
  const ws = await twoRuns(t, `${ONE}mkdir gitstore/.git/HEAD.zotbox-set-aside\n`, 'true\n');
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});
