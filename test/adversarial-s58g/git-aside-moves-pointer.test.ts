// Review s58g, fail-open: finding 2 through the git aftercare's own set-aside of a `.git` directory (git-aftercare.ts
// removeUnsafeGitChanges, which runs before the last pointer check). The user has a relative `lib/.git ->
// ../gitstore/lib`. Run 1 (confined): the command moves the checkout into a `.git` directory it makes, `x/.git/lib`,
// beside `x/.git/gitstore -> ../zotbox-renamed-1/evil` (dangling at the scan: the moved pointer names nothing, and
// evil/, holding only hooks/pre-commit, is judged by no one). The new `x/.git` holds what git does not write: it is
// moved aside whole to `x/zotbox-renamed-1`, where the link resolves and the user's pointer now names
// `x/zotbox-renamed-1/evil/lib`; the last check reads `x/.git/lib/.git`, gone: kept. Run 2: HEAD, objects/, refs/
// there (pointedTo before the call: the hook is its baseline). The user's `git commit` in the checkout runs the hook.
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const ONE = `set -e
mkdir -p x/.git/evil/lib/hooks
mv lib x/.git/lib
ln -s ../zotbox-renamed-1/evil x/.git/gitstore
printf '#!/bin/sh\\ntouch "@WS@/PWNED"\\n' > x/.git/evil/lib/hooks/pre-commit
chmod +x x/.git/evil/lib/hooks/pre-commit
`;
const TWO = `set -e
mkdir -p x/zotbox-renamed-1/evil/lib/objects x/zotbox-renamed-1/evil/lib/refs/heads
printf 'ref: refs/heads/main\\n' > x/zotbox-renamed-1/evil/lib/HEAD
`;

test("a user pointer carried away by the git aftercare's own set-aside is checked where it lies", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'gitstore/.keep': '', 'one.sh': ONE, 'two.sh': TWO });
  withWorkspacePath(ws);
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'lib'), path.join(ws, 'lib'));
  rmSync(path.join(ws, 'lib', '.git'));
  symlinkSync('../gitstore/lib', path.join(ws, 'lib', '.git'));
  writeFileSync(path.join(ws, 'lib', 'a.txt'), 'a\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-900));
  t.log('run 2:', (await agentWrites(t, ws, 'x2.txt', 'x\n', 'sh two.sh')).slice(-500));
  const checkout = path.join(ws, 'x', 'zotbox-renamed-1', 'lib');
  try {
    git(checkout, 'add', 'a.txt');
    git(checkout, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'x', 'zotbox-renamed-1', 'PWNED')) || existsSync(path.join(ws, 'PWNED')));
});
