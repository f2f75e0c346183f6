// Review s59h (git-pointer-text.ts asGitReadsIt): zotbox cuts a gitfile's or commondir's text at its first NUL and
// then takes the line ends off; git 2.39 (setup.c read_gitfile_gently, get_common_dir_noenv) takes the line ends off
// the end of the whole file first and only then reads it as a C string. So `gitdir: store/a\n\0` is `store/a` to
// zotbox and `store/a\n` (a newline in the name) to git: a directory zotbox never judges. Real git confirms it below.
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { commondirDirectory, gitfileDirectory } from '../../src/host/executors/confine/git-pointer-text.js';
import { tempDir } from '../fixtures/temp.js';

test('a line end before a NUL is part of the name git reads, in a gitfile and in commondir', (t) => {
  const root = tempDir(t, 'zb-s59h-');
  mkdirSync(path.join(root, 'store'));
  const made = spawnSync('git', ['init', '-q', '--bare', path.join(root, 'store', 'a\n')]);
  t.is(made.status, 0);
  mkdirSync(path.join(root, 'w'));
  writeFileSync(path.join(root, 'w', '.git'), 'gitdir: ../store/a\n\0');
  const opened = spawnSync('git', ['rev-parse', '--git-dir'], { cwd: path.join(root, 'w'), encoding: 'utf8' });
  // Git opens the directory with the newline in its name (its output ends with that name's newline, then its own).
  t.is(opened.stdout, `${realpathSync(path.join(root, 'store', 'a\n'))}\n`);
  // SAFE: zotbox reads the same name as git.
  t.is(gitfileDirectory('gitdir: ../store/a\n\0'), '../store/a\n');
  t.is(commondirDirectory('../..\n\0'), '../..\n');
});
