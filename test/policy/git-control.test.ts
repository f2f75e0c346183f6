// Which names are git metadata: every spelling under which some volume, or git
// itself, finds a ".git" entry (issue 9 §3). Expected answers are written by hand.
import test from 'ava';
import { gitMetadataComponent, isGitControlEntry, isGitDirectoryName, isInsideGitMetadata } from '../../src/policy/git-control.js';

const gitNames: readonly [string, string][] = [
  ['.git', 'the name itself'],
  ['.GIT', 'upper case (case-insensitive volumes)'],
  ['.Git', 'mixed case'],
  ['.git.', 'a trailing dot (NTFS strips it)'],
  ['.git ', 'a trailing space (NTFS strips it)'],
  ['.git . .', 'trailing dots and spaces'],
  ['.git::$INDEX_ALLOCATION', 'an NTFS stream suffix'],
  ['.git:x', 'a named NTFS stream'],
  ['.git\\hooks', 'a backslash, a separator on Windows volumes'],
  ['git~1', 'the 8.3 short name'],
  ['GIT~1', 'the 8.3 short name in upper case'],
  ['git~2', 'the 8.3 short name after a collision'],
  ['GIT~1 .', 'the 8.3 short name with trailing dots and spaces'],
  ['.\u200cgit', 'ZERO WIDTH NON-JOINER inside (HFS+ ignores it)'],
  ['.g\u200dit', 'ZERO WIDTH JOINER inside'],
  ['.gi\u200et', 'LEFT-TO-RIGHT MARK inside'],
  ['.git\u200f', 'RIGHT-TO-LEFT MARK after'],
  ['\u202a.git', 'LEFT-TO-RIGHT EMBEDDING before'],
  ['.g\u202eit', 'RIGHT-TO-LEFT OVERRIDE inside'],
  ['.gi\u206at', 'INHIBIT SYMMETRIC SWAPPING inside'],
  ['.git\u206f', 'NOMINAL DIGIT SHAPES after'],
  ['\ufeff.GIT', 'BYTE ORDER MARK before, upper case'],
];

const otherNames: readonly [string, string][] = [
  ['.gitignore', 'a file git reads, but that names no program'],
  ['.gitattributes', 'attributes name drivers only defined in config'],
  ['.gitmodules', 'submodule URLs; commands in it are refused by git'],
  ['.github', 'a CI directory'],
  ['git', 'no leading dot'],
  ['.gi', 'a prefix'],
  ['..git', 'two leading dots'],
  ['x.git', 'a bare-repository naming convention, not a .git entry'],
  ['.git-old', 'a suffix that is not a dot, space or stream'],
  ['.gitx', 'a longer name'],
  ['git~', 'no short-name number'],
  ['git~1x', 'a longer short name'],
  ['.g\u00a0it', 'NO-BREAK SPACE is not HFS-ignorable'],
  ['\uff0egit', 'FULLWIDTH FULL STOP is not a dot on any volume'],
  ['', 'the empty component'],
];

for (const [name, why] of gitNames) {
  test(`${JSON.stringify(name)} names git metadata: ${why}`, (t) => {
    t.true(isGitDirectoryName(name));
  });
}

for (const [name, why] of otherNames) {
  test(`${JSON.stringify(name)} does not name git metadata: ${why}`, (t) => {
    t.false(isGitDirectoryName(name));
  });
}

const paths: readonly [string, number][] = [
  ['/w/.git', 2],
  ['/w/.git/config', 2],
  ['/w/sub/.GIT/hooks/pre-commit', 3],
  ['/w/a/b/c/git~1/commondir', 5],
  ['/.git', 1],
  ['/w/sub/.git ', 3],
  ['/w/.gitignore', -1],
  ['/w/sub/repo.git/config', -1],
  ['/w/src/main.ts', -1],
  ['/', -1],
];

test('the first component naming git metadata is found at any depth', (t) => {
  for (const [path, index] of paths) {
    t.is(gitMetadataComponent(path), index, path);
    t.is(isInsideGitMetadata(path), index !== -1, path);
  }
});

test('control entries of a .git directory are recognised in any case', (t) => {
  for (const name of ['config', 'CONFIG', 'config.worktree', 'hooks', 'Hooks', 'info', 'commondir', 'modules', 'worktrees']) t.true(isGitControlEntry(name), name);
  for (const name of ['objects', 'refs', 'HEAD', 'index', 'description', 'config.bak']) t.false(isGitControlEntry(name), name);
});
