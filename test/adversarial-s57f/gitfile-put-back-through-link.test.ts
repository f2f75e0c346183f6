// Review s57f, data loss by zotbox (git-aftercare.ts restoreControlFiles, unconfined calls only): each snapshotted
// gitfile is compared and put back BY PATH; readSmallFile's O_NOFOLLOW guards the last component only, and the put-back
// `rmSync(file, { recursive: true })` follows a link on the way. Ordinary work: the command replaces the folder that
// held the user's gitfile by a link to another checkout of the user's (`rm -rf lib && ln -s ../other lib`, e.g. to
// develop a dependency in place). `lib/.git` now reads as other/.git, a directory: "changed", so zotbox removes it
// recursively, through the link (the other repository's whole history, outside the write scope here), and writes the
// gitfile text there. Driven directly (beginGitStateCheck → the command's effects → finish), as command-isolation.ts
// `unconfinedCall` does.
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

test("putting back a gitfile never deletes through a link the command made (the user's other repository)", (t) => {
  const top = tempDir(t, 'zb-s57f-');
  const ws = path.join(top, 'ws');
  const other = path.join(top, 'other');
  mkdirSync(path.join(ws, 'gitstore'), { recursive: true });
  git(ws, 'init', '-q', '--separate-git-dir', path.join(ws, 'gitstore/lib'), path.join(ws, 'lib'));
  writeFileSync(path.join(ws, 'lib/.git'), 'gitdir: ../gitstore/lib\n');
  mkdirSync(other);
  git(other, 'init', '-q');
  writeFileSync(path.join(other, 'a.txt'), 'a\n');
  git(other, 'add', 'a.txt');
  git(other, 'commit', '-q', '-m', 'the other project');
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  rmSync(path.join(ws, 'lib'), { recursive: true });
  symlinkSync(other, path.join(ws, 'lib'));
  try {
    check.finish();
    t.log('no stop');
  } catch (error) {
    t.log(String(error).slice(0, 600));
  }
  // SAFE: the other repository (outside the write scope) keeps its .git directory and history.
  t.true(lstatSync(path.join(other, '.git')).isDirectory());
  t.true(existsSync(path.join(other, '.git/HEAD')));
});
