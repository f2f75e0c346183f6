// Review s62k, unconfined. Link texts inside a git directory are still read as UTF-8 (git-directory-state.ts
// `recordGitDirectory`: `readlinkSync(childFull)`; protected-locations.ts `recordProtected`/`restoreProtected`:
// `readlinkSync(p)`), and "unchanged" is same kind + same inode + same (decoded) text. Two different texts that are not
// UTF-8 decode to the same string (each bad byte is U+FFFD), and ext4 hands a freed inode to the next new file (s60i 2).
// User: a hook that is a link to their own script, outside the write scope, named in Latin-1
// (`.git/hooks/pre-commit -> <root>/tools/caf\xE9.sh`, a common way to keep hooks in a tools folder). One unconfined
// command: `rm` the link and make a new one (same inode) to `caf\xE8.sh`, the agent's script next to it. zotbox sees
// the same inode and the same text (`caf\uFFFD.sh`): unchanged. The user's `git commit` runs the agent's script.
// Driven directly (beginGitStateCheck → effects → finish), as `unconfinedCall` does.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

const latin1 = (text: string, byte: number, rest: string) => Buffer.concat([Buffer.from(text), Buffer.from([byte]), Buffer.from(rest)]);

test("a user's hook link whose text is not UTF-8, re-pointed on the same inode, reads as unchanged", (t) => {
  const root = tempDir(t, 'zb-s62k-');
  const ws = path.join(root, 'ws');
  const marker = path.join(root, 'PWNED');
  git(root, 'init', '-q', ws);
  mkdirSync(path.join(root, 'tools'));
  writeFileSync(latin1(`${root}/tools/caf`, 0xe9, '.sh'), '#!/bin/sh\ntrue\n', { mode: 0o755 });
  const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
  symlinkSync(latin1(`${root}/tools/caf`, 0xe9, '.sh'), hook);
  const inodeBefore = lstatSync(hook).ino;
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  const command = [
    `cd '${root}'`,
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > tools/caf$'\\xe8'.sh`,
    `chmod +x tools/caf$'\\xe8'.sh`,
    `rm '${hook}'`,
    `ln -s "${root}/tools/caf"$'\\xe8'.sh '${hook}'`,
  ].join(' && ');
  t.is(spawnSync('bash', ['-c', command]).status, 0);
  t.log('same inode:', lstatSync(hook).ino === inodeBefore);
  let stopped = false;
  try {
    check.finish();
    t.log('zotbox: no stop');
  } catch (error) {
    stopped = true;
    t.log(String(error).slice(0, 900));
  }
  const commit = spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: ws, encoding: 'utf8' });
  t.log('user commit:', commit.status, commit.stderr.trim());
  // SAFE: the agent's script never ran, and the run stopped.
  t.false(existsSync(marker), "the user's git commit ran the agent's script");
  t.true(stopped, 'zotbox finished the call without a word');
});
