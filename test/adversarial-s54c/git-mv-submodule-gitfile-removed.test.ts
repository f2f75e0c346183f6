// Review s54c, data loss by zotbox (git-moved-entries.ts `movedPointers`), through ordinary `git mv` of a
// submodule. The submodule's gitfile is relative (`gitdir: ../.git/modules/sub`); moved one level down it names
// `libs/.git/modules/sub` (nothing), so it is "a pointer whose meaning changed" and zotbox removes it. git mv itself
// cannot rewrite the gitfile (bound read-only) and stops there; the user is left with libs/sub that is no longer a
// checkout (its files stay; `git submodule absorbgitdirs`/re-init needed), and the line git wrote is gone.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { tempDir } from '../fixtures/temp.js';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

test('git mv of a submodule never makes zotbox remove its gitfile', async (t) => {
  const upstream = path.join(tempDir(t, 'zb-s54c-up-'), 'up');
  git(path.dirname(upstream), 'init', '-q', upstream);
  git(upstream, 'commit', '-q', '--allow-empty', '-m', 'up');
  const ws = project(t, { 'one.sh': 'mkdir -p libs && git mv sub libs/sub; echo "git mv: $?"\n' });
  git(ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'sub');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'sub');
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(0, 1500));
  t.log('index:', git(ws, 'ls-files', '--stage').trim());
  const where = ['sub/.git', 'libs/sub/.git'].filter((p) => existsSync(path.join(ws, p)));
  t.log('gitfile at:', where);
  // SAFE: the submodule's gitfile still exists somewhere (git mv done, or undone, or set aside), never deleted.
  t.true(where.length > 0);
});
