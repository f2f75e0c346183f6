// Review s58g (git-aftercare.ts restoreControlFiles, unconfined calls only): the put-back of gitfiles is one loop with
// no guard per file. A snapshotted gitfile whose folder the command moved away (`mv lib lib2`, ordinary refactoring)
// reads as missing, and `writeFileSync(lib/.git, ..., 'wx')` throws ENOENT (lib/ is gone; linkOnTheWay takes a missing
// directory as fine): the whole step fails, so every gitfile after it in the snapshot is never put back, and
// `restored` is empty. The command's rewrite of another user gitfile stays, and is judged on the command's text:
// one that still names the same directory, or nothing, is kept. docs/security.md: "a gitfile an unconfined command
// rewrote is put back before anything is judged". Driven directly (beginGitStateCheck → the command's effects →
// finish), as command-isolation.ts `unconfinedCall` does.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

test('a gitfile the command rewrote is put back even when another one cannot be', (t) => {
  const ws = path.join(tempDir(t, 'zb-s58g-'), 'ws');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  for (const name of ['lib', 'zlib']) {
    git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore', name), path.join(ws, name));
    writeFileSync(path.join(ws, name, '.git'), `gitdir: ../gitstore/${name}\n`);
  }
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  // The first gitfile in the snapshot (the scan's order) has its folder moved; the other is rewritten in place.
  const [first, second] = [...check.before.gitEntries.keys()].filter((e) => e.endsWith('.git')) as [string, string];
  t.log('snapshot order:', path.relative(ws, first), path.relative(ws, second));
  renameSync(path.dirname(first), `${path.dirname(first)}2`);
  const agentText = `gitdir: \n../gitstore/${path.basename(path.dirname(second))}\n`;
  writeFileSync(second, agentText);
  try {
    check.finish();
    t.log('no stop');
  } catch (error) {
    t.log(String(error).slice(0, 700));
  }
  // SAFE: the user's text is back in the rewritten gitfile.
  t.is(readFileSync(second, 'utf8'), `gitdir: ../gitstore/${path.basename(path.dirname(second))}\n`);
});
