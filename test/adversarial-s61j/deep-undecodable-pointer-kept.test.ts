// Review s61j, confined (git-state-check.ts UNDECODABLE_ROUNDS, git-inventory.ts readLinkText / readSmallFile still
// reading pointer texts as UTF-8). The fix for s60i moves each name that is not UTF-8 aside, eight rounds deep, and
// reports what lies deeper ("review it by hand"); but a pointer's text is still read lossily (readlinkSync as utf8), so a
// pointer naming what lies deeper still "names nothing" and is kept. The user has `lib/.git -> ../gitstore/lib` (a .git
// link: nothing binds it read-only). One confined call: a repository with a hook nine folders named 0xFF deep; `mv lib
// lib2`; `rm lib2/.git` and a new link on the freed inode (s60i 2: movedPointers matches by inode alone) naming where the
// repository will lie once the aftercare has moved eight of the nine folders to `zotbox-renamed-1` (predictable).
// zotbox reads the link as `.../\uFFFD/r`: names nothing, kept. The run stops naming the ninth folder, never the link;
// the user's `git commit` in lib2/ runs the agent's hook.
import { existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project, withWorkspacePath } from '../adversarial-s36i/harness.js';

const ONE = `set -e
d=$(printf '\\377')
p="$d/$d/$d/$d/$d/$d/$d/$d/$d"
mkdir -p "$p/r/objects" "$p/r/refs/heads" "$p/r/hooks"
printf 'ref: refs/heads/main\\n' > "$p/r/HEAD"
printf '#!/bin/sh\\ntouch "@WS@/PWNED"\\n' > "$p/r/hooks/pre-commit"
chmod +x "$p/r/hooks/pre-commit"
mv lib lib2
rm lib2/.git
z=zotbox-renamed-1
ln -s "../$z/$z/$z/$z/$z/$z/$z/$z/$d/r" lib2/.git
`;

test("a pointer naming a folder that is not UTF-8, deeper than the rounds, never hands the user's git the agent's hook", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'gitstore/.keep': '', 'one.sh': ONE });
  withWorkspacePath(ws);
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', 'lib'), path.join(ws, 'lib'));
  rmSync(path.join(ws, 'lib', '.git'));
  symlinkSync('../gitstore/lib', path.join(ws, 'lib', '.git'));
  writeFileSync(path.join(ws, 'lib', 'a.txt'), 'a\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1200));
  try {
    git(path.join(ws, 'lib2'), 'add', 'a.txt');
    git(path.join(ws, 'lib2'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')), "the user's git commit ran the agent's hook");
});
