import test from 'ava';
import { checkEntryName, compareUtf8, findGitMetadataComponent, isGitDirectoryName } from '../../src/archive/entry-name.js';
import * as gitControl from '../../src/policy/git-control.js';

const accepted = test.macro({
  exec(t, raw: string, name: string, isDirectory: boolean) {
    t.deepEqual(checkEntryName(raw), { ok: true, skip: false, name, isDirectory });
  },
  title: (_title, raw: string) => `${JSON.stringify(raw)} is accepted`,
});

const rejected = test.macro({
  exec(t, raw: string, reason: RegExp) {
    const result = checkEntryName(raw);
    t.false(result.ok);
    if (!result.ok) t.regex(result.reason, reason);
  },
  title: (_title, raw: string) => `${JSON.stringify(raw)} is rejected`,
});

test(accepted, 'AGENT.md', 'AGENT.md', false);
test(accepted, 'skills/review/SKILL.md', 'skills/review/SKILL.md', false);
test(accepted, 'assets/', 'assets', true);
test(accepted, './manifest.json', 'manifest.json', false);
test(accepted, '././a/b/', 'a/b', true);
test(accepted, '..foo', '..foo', false);
test(accepted, 'a/...', 'a/...', false);
test(accepted, 'café.md', 'café.md', false);
test(accepted, '.hidden', '.hidden', false);

test(rejected, '', /empty/);
test(rejected, '../escape', /\.\./);
test(rejected, 'a/../../b', /\.\./);
test(rejected, 'a/..', /\.\./);
test(rejected, '/etc/passwd', /absolute/);
test(rejected, '//etc/passwd', /absolute/);
test(rejected, 'a\\..\\b', /backslash/);
test(rejected, 'C:\\x', /backslash/);
test(rejected, 'a\u0000b', /NUL/);
test(rejected, 'a\nb', /control/);
test(rejected, 'a\rb', /control/);
test(rejected, 'a\u001bb', /control/);
test(rejected, 'a\u0085b', /control/);
test(rejected, 'a//b', /empty path component/);
test(rejected, 'a/./b', /"\." component/);
test(rejected, 'bad\ufffdname', /UTF-8/);
test(rejected, 'x'.repeat(256), /longer than 255/);
test(rejected, `${'a/'.repeat(2100)}x`, /longer than 4096/);

test('bare "." and "./" entries are skipped, as GNU tar writes them for -C dir .', (t) => {
  for (const raw of ['.', './', '././']) t.deepEqual(checkEntryName(raw), { ok: true, skip: true });
});

test('canonical order compares UTF-8 bytes, not UTF-16 code units', (t) => {
  // U+FF5E (EF BD 9E) sorts before U+1F600 (F0 9F 98 80) by bytes, after it by UTF-16 units.
  // Typed as string so the UTF-16 comparison below is a runtime check, not a constant.
  const fullwidthTilde: string = '\uff5e';
  const grinningFace: string = '\u{1f600}';
  t.true(compareUtf8(fullwidthTilde, grinningFace) < 0);
  t.true(fullwidthTilde > grinningFace);
  t.true(compareUtf8('docs', 'docs-extra.md') < 0);
  t.true(compareUtf8('docs.txt', 'docs/guides') < 0);
  t.true(compareUtf8('Zebra.txt', 'data') < 0);
});

// Git metadata names (issue 9): ".git" and every spelling git itself treats as one
// on case-insensitive, HFS+ or NTFS volumes (git's is_hfs_dotgit, is_ntfs_dotgit).
for (const name of [
  '.git',
  '.GIT',
  '.Git',
  '.gIT',
  '.git.',
  '.git..',
  '.git ',
  '.git . ',
  '.GIT.',
  'git~1',
  'git~2', // Windows hands out git~2 and on after a name collision
  'GIT~10',
  'GIT~1',
  'Git~1 ',
  '.git::$INDEX_ALLOCATION',
  '.git:stream',
  '.g\u200cit',
  '.\u200dgit',
  '\ufeff.git',
  '.gi\u200et',
  '.git\u206a',
  '.G\u202aIT',
]) {
  test(`${JSON.stringify(name)} names git metadata`, (t) => {
    t.true(isGitDirectoryName(name));
  });
}

for (const name of ['git', '.gitignore', '.gitattributes', '.gitmodules', '.github', '.git-blame-ignore-revs', 'x.git', '.git~1', '..git', '.gi', 'g.it', '.git_', '.git-x', '.g\u200bit']) {
  test(`${JSON.stringify(name)} is not git metadata`, (t) => {
    t.false(isGitDirectoryName(name));
  });
}

test('every component of an entry name is checked for git metadata, the first is reported', (t) => {
  t.is(findGitMetadataComponent('.git'), '.git');
  t.is(findGitMetadataComponent('.git/config'), '.git');
  t.is(findGitMetadataComponent('a/.git/config'), '.git');
  t.is(findGitMetadataComponent('a/b/c/.GIT'), '.GIT');
  t.is(findGitMetadataComponent('sub/.git'), '.git');
  t.is(findGitMetadataComponent('git~1/x/.git'), 'git~1');
  t.is(findGitMetadataComponent('skills/.github/workflows/ci.yml'), undefined);
  t.is(findGitMetadataComponent('docs/.gitignore'), undefined);
  t.is(findGitMetadataComponent('manifest.json'), undefined);
});

test('policy/git-control re-exports the one implementation', (t) => {
  t.is(gitControl.isGitDirectoryName, isGitDirectoryName);
});
