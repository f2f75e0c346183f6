// Review s54c, raw error out of the aftercare, and with it a fail-open (git-inventory.ts, new in 5e9a1b5: a .git
// link's inode by `lstatSync(entry, { throwIfNoEntry: false })`). The walk lists a directory whose own path is 4093
// bytes; its `.git` symlink's path is past PATH_MAX. `stateOf` catches readlink's ENAMETOOLONG (link ''), but the new
// lstat for the link's inode throws it, uncaught (throwIfNoEntry covers ENOENT only): scanGitMetadata throws out of
// the aftercare before anything is undone, as s53b 1 (a HEAD entry there), now by a `.git` link alone (no HEAD, no
// directory record). One command that also makes `src/.git` with a hook keeps the hook.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, deepProject, deepTree, PLANT, userCommitsInSrc } from '../adversarial-s53b/deep-tree.js';

// `dir/.git` is past PATH_MAX.
const DEEP = deepTree('ln -s nowhere .git');

test('a .git link too deep to look at never stops the aftercare from undoing a planted hook', async (t) => {
  const ws = deepProject(t, { 'src/app.js': '1;\n', 'one.sh': PLANT + DEEP });
  const out = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.log('run:', out.slice(-800));
  t.log('hook kept:', existsSync(path.join(ws, 'src/.git/hooks/pre-commit')));
  userCommitsInSrc(t, ws);
  // SAFE: the aftercare undid the hook (or refused in a typed way after undoing it); the user's commit runs nothing.
  t.false(existsSync(path.join(ws, 'PWNED')));
  t.false(/ENAMETOOLONG/u.test(out) && !/ZB_/u.test(out), 'a raw ENAMETOOLONG out of the aftercare');
});
