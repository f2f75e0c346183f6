// Review s58g, fail-open (git-state-check.ts order; git-aftercare.ts setAsideRepointedPointers). The last pointer
// check reads each user pointer at the path the after-scan found it, but an earlier step of the same aftercare,
// setAsideNewUnsafeNames, may have moved it away with its folder (a new name read as an option, `-lib`, goes to
// `zotbox-renamed-N` beside it, a name the command can predict). The path read is gone, so the pointer "names
// nothing" and is kept, and where it now lies it is never looked at. The user has `lib/.git -> ../gitstore/lib`.
// Run 1: `mv gitstore gitstore.old` (s52a 1), `gitstore/lib -> ../zotbox-renamed-1/evil` (dangling at the scan: the
// moved pointer names nothing), `mv lib ./-lib` with `-lib/evil/hooks/pre-commit` (not git's: no HEAD, named by no
// pointer at the scan). zotbox sets `-lib` aside to `zotbox-renamed-1`: the user's pointer there now names
// zotbox-renamed-1/evil. Run 2: evil/ is what a user pointer named before the call (pointedTo: usable, the hook its
// baseline); HEAD, objects/, refs/ are data. The user's `git commit` in the set-aside checkout runs the agent's hook.
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const ONE = `set -e
mv gitstore gitstore.old
mkdir gitstore
ln -s ../zotbox-renamed-1/evil gitstore/lib
mv lib ./-lib
mkdir -p ./-lib/evil/hooks
printf '#!/bin/sh\\ntouch "@WS@/PWNED"\\n' > ./-lib/evil/hooks/pre-commit
chmod +x ./-lib/evil/hooks/pre-commit
`;
const TWO = `set -e
mkdir -p zotbox-renamed-1/evil/objects zotbox-renamed-1/evil/refs/heads
printf 'ref: refs/heads/main\\n' > zotbox-renamed-1/evil/HEAD
`;

test('a user pointer moved away by the unsafe-name set-aside is still checked where it lies', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'gitstore/.keep': '', 'one.sh': ONE, 'two.sh': TWO });
  withWorkspacePath(ws);
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'lib'), path.join(ws, 'lib'));
  rmSync(path.join(ws, 'lib', '.git'));
  symlinkSync('../gitstore/lib', path.join(ws, 'lib', '.git'));
  writeFileSync(path.join(ws, 'lib', 'a.txt'), 'a\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-900));
  t.log('run 2:', (await agentWrites(t, ws, 'x2.txt', 'x\n', 'sh two.sh')).slice(-500));
  const checkout = path.join(ws, 'zotbox-renamed-1');
  try {
    git(checkout, 'add', 'a.txt');
    git(checkout, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});
