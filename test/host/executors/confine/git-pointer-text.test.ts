// zotbox reads a gitfile and a commondir file exactly as git does: a directory zotbox reads another name from than
// git is one it never judges. Each case states by hand what git reads, and real git confirms it: it opens the
// directory named, or refuses the gitfile.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commondirDirectory, gitfileDirectory, linkTargetOf, linkTextOf, worktreeLocation } from '../../../../src/host/executors/confine/git-pointer-text.js';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { tempDir } from '../../../fixtures/temp.js';

/** Each gitfile text, and the directory (relative to the gitfile's folder) git reads from it; undefined: git refuses it. */
const GITFILES: readonly [string, string, string | undefined][] = [
  ['plain', 'gitdir: store/a\n', 'store/a'],
  ['carriage returns and blank lines at the end', 'gitdir: store/a\r\n\n\r\n', 'store/a'],
  ['two spaces: the second is part of the name', 'gitdir:  store/a\n', ' store/a'],
  ['a space at the end is part of the name', 'gitdir: store/a \n', 'store/a '],
  ['a later line is part of the name', 'gitdir: \nstore/a\n', '\nstore/a'],
  ['no space after the colon', 'gitdir:store/a\n', undefined],
  ['not at the start', '\ngitdir: store/a\n', undefined],
  ['a NUL ends it', 'gitdir: store/a\0store/b\n', 'store/a'],
  ['line ends come off the end of the whole file, before a NUL ends it', 'gitdir: store/a\n\0', 'store/a\n'],
  ['nothing after it', 'gitdir: \n', undefined],
];

for (const [what, text, expected] of GITFILES) {
  test(`a gitfile, ${what}: read as git reads it`, (t) => {
    t.is(gitfileDirectory(text), expected);
    const ws = realpathSync(tempDir(t, 'zb-pointer-text-'));
    const work = path.join(ws, 'work');
    mkdirSync(work);
    // Every directory either reading could name is a repository, so git's choice shows in what it opens.
    for (const name of ['store/a', ' store/a', 'store/a ', '\nstore/a', 'store/a\n', 'store/b']) {
      const made = spawnSync('git', ['init', '-q', '--bare', path.join(work, name)], { encoding: 'utf8' });
      t.is(made.status, 0, made.stderr);
    }
    writeFileSync(path.join(work, '.git'), text);
    const opened = spawnSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: work, encoding: 'utf8' });
    t.is(opened.status === 0 ? opened.stdout.replace(/\n$/u, '') : undefined, expected === undefined ? undefined : path.join(work, expected));
    // The scan names the same directory (what the aftercare judges), or none.
    const state = scanGitMetadata([ws]).gitEntries.get(path.join(work, '.git'));
    t.is(state?.target, expected === undefined ? undefined : path.join(work, expected));
  });
}

test('a commondir file: only line ends are taken off its end, and a NUL ends it', (t) => {
  t.is(commondirDirectory('../..\n'), '../..');
  t.is(commondirDirectory('../..\r\n\n'), '../..');
  t.is(commondirDirectory(' ../.. \n'), ' ../.. ');
  t.is(commondirDirectory('../..\0/elsewhere\n'), '../..');
  t.is(commondirDirectory('\n'), undefined);
  t.is(commondirDirectory('../..\n\0'), '../..\n');
});

test("a linked worktree's gitdir file: trailing whitespace off, a NUL ends it, then its /.git", (t) => {
  t.is(worktreeLocation('/w/tree/.git\n'), '/w/tree');
  t.is(worktreeLocation(' /w/tree/.git \t\n'), ' /w/tree');
  t.is(worktreeLocation('/w/tree/.git\0/elsewhere/.git\n'), '/w/tree');
  t.is(worktreeLocation('/w/tree\n'), '/w/tree');
  t.is(worktreeLocation(' \n'), undefined);
});

test('link texts are read by bytes: two targets that read alike as UTF-8 differ, and one put back gets its own bytes', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-pointer-text-'));
  const target = (byte: number) => Buffer.concat([Buffer.from('tools/caf'), Buffer.from([byte]), Buffer.from('.sh')]);
  symlinkSync(target(0xe9), path.join(ws, 'a'));
  symlinkSync(target(0xe8), path.join(ws, 'b'));
  symlinkSync('tools/café.sh', path.join(ws, 'c'));
  t.not(linkTextOf(path.join(ws, 'a')), linkTextOf(path.join(ws, 'b')));
  t.is(linkTextOf(path.join(ws, 'c')), 'tools/café.sh');
  symlinkSync(linkTargetOf(linkTextOf(path.join(ws, 'a'))), path.join(ws, 'a-again'));
  t.deepEqual(readlinkSync(path.join(ws, 'a-again'), { encoding: 'buffer' }), target(0xe9));
  symlinkSync(linkTargetOf(linkTextOf(path.join(ws, 'c'))), path.join(ws, 'c-again'));
  t.is(readlinkSync(path.join(ws, 'c-again')), 'tools/café.sh');
});
