// Review s60i, confined (git-moved-entries.ts movedPointers by inode alone, git-inventory.ts readLinkText / scope-walk.ts
// readdir reading names as UTF-8). The user has `lib/.git -> ../gitstore/lib` (a .git link: nothing binds it read-only).
// One confined call: a repository with a hook in a folder named 0xFF (not UTF-8: the scan's readdir hands the walker
// U+FFFD, whose stat finds nothing, so nothing below it is listed or judged); `mv lib lib2`; `rm lib2/.git` and a new
// link `lib2/.git -> ../<0xFF>/r`, which ext4 gives the freed inode at once (seen). movedPointers matches by inode only,
// so the new link is "the user's .git link moved with its folder"; zotbox reads its text as `../\uFFFD/r`, which names
// nothing, so it is kept. The user's `git commit` in lib2/ opens `../<0xFF>/r` and runs the agent's hook.
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const ONE = `set -e
d=$(printf '\\377')
mkdir -p "$d/r/objects" "$d/r/refs/heads" "$d/r/hooks"
printf 'ref: refs/heads/main\\n' > "$d/r/HEAD"
printf '#!/bin/sh\\ntouch "@WS@/PWNED"\\n' > "$d/r/hooks/pre-commit"
chmod +x "$d/r/hooks/pre-commit"
mv lib lib2
rm lib2/.git
ln -s "../$d/r" lib2/.git
`;

test("a .git link made anew on a freed inode, naming a folder that is not UTF-8, never hands the user's git the agent's hook", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'gitstore/.keep': '', 'one.sh': ONE });
  withWorkspacePath(ws);
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'lib'), path.join(ws, 'lib'));
  rmSync(path.join(ws, 'lib', '.git'));
  symlinkSync('../gitstore/lib', path.join(ws, 'lib', '.git'));
  writeFileSync(path.join(ws, 'lib', 'a.txt'), 'a\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-900));
  try {
    git(path.join(ws, 'lib2'), 'add', 'a.txt');
    git(path.join(ws, 'lib2'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')));
});
