// Review s54c, raw error out of the aftercare, and with it a fail-open (git-inventory.ts, new in 5e9a1b5: a .git
// link's inode by `lstatSync(entry, { throwIfNoEntry: false })`). The walk lists a directory whose own path is 4093
// bytes; its `.git` symlink's path is past PATH_MAX. `stateOf` catches readlink's ENAMETOOLONG (link ''), but the new
// lstat for the link's inode throws it, uncaught (throwIfNoEntry covers ENOENT only): scanGitMetadata throws out of
// the aftercare before anything is undone, as s53b 1 (a HEAD entry there), now by a `.git` link alone (no HEAD, no
// directory record). One command that also makes `src/.git` with a hook keeps the hook.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const PLANT =
  "mkdir -p src/.git/hooks src/.git/objects src/.git/refs/heads && printf 'ref: refs/heads/main\\n' > src/.git/HEAD && printf '#!/bin/sh\\ntouch ../PWNED\\n' > src/.git/hooks/pre-commit && chmod +x src/.git/hooks/pre-commit\n";
// A directory whose own path is 4093 bytes long, holding a `.git` symlink: `dir/.git` is past PATH_MAX.
const DEEP = [
  'mkdir deep && cd deep',
  `s=${'a'.repeat(200)}`,
  'while [ $(( ${#PWD} + 201 )) -lt 4040 ]; do mkdir $s && cd $s; done',
  'n=$(( 4093 - ${#PWD} - 1 ))',
  'b=$(printf "%${n}s" "" | tr " " b)',
  'mkdir $b && cd $b && ln -s nowhere .git',
  '',
].join('\n');

test('a .git link too deep to look at never stops the aftercare from undoing a planted hook', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': PLANT + DEEP });
  // Node's recursive rm cannot remove a tree past PATH_MAX; rm(1) walks it relative to each directory (LIFO: before the temp dir's own teardown).
  t.teardown(() => execFileSync('rm', ['-rf', path.join(ws, 'deep')]));
  const out = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.log('run:', out.slice(-800));
  t.log('hook kept:', existsSync(path.join(ws, 'src/.git/hooks/pre-commit')));
  try {
    git(path.join(ws, 'src'), 'add', 'app.js');
    git(path.join(ws, 'src'), 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the aftercare undid the hook (or refused in a typed way after undoing it); the user's commit runs nothing.
  t.false(existsSync(path.join(ws, 'PWNED')));
  t.false(/ENAMETOOLONG/u.test(out) && !/ZB_/u.test(out), 'a raw ENAMETOOLONG out of the aftercare');
});
