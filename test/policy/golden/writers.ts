// Golden cases for the programs that write: tee, touch, mkdir, rm, rmdir,
// truncate, chmod, cp, mv, ln, and the link cases of issue 10 (links cannot
// widen permissions: hard links only from a write scope, symbolic links only to
// targets inside the scopes, resolved from the link's own directory).
import { ARGUMENT, FORBIDDEN, HARDLINK, no, ok, OUTSIDE, PROTECTED, type GoldenGroup } from './golden-case.js';

const OUT = 'writes outside the write scopes';
const RO = 'R is read-only';
const GIT = 'writes git metadata';
const TWO_NAMES = 'hl.txt has a second name outside the scopes';
const HARD_FROM = 'a hard link to a file outside the write scopes would make it writable';
const SYM_OUT = "the link target, resolved from the link's directory, is outside the scopes";

export const WRITERS: readonly GoldenGroup[] = [
  {
    program: 'tee',
    cases: [
      ok('tee out.txt'),
      ok('tee -a notes.txt'),
      ok('tee a.txt b.txt'),
      no(OUTSIDE, 'tee {O}/x', OUT),
      no(OUTSIDE, 'tee out.txt {O}/x', OUT),
      no(OUTSIDE, 'tee -- {O}/x', OUT),
      no(OUTSIDE, 'tee -a /etc/passwd', OUT),
      no(OUTSIDE, 'tee {R}/f.txt', RO),
      no(OUTSIDE, 'tee toS', 'writes through the link to the secret'),
      no(OUTSIDE, 'tee linkdir/toS', 'writes through a relative link to the secret'),
      no(HARDLINK, 'tee hl.txt', TWO_NAMES),
      no(PROTECTED, 'tee .git/hooks/pre-commit', GIT),
      no(FORBIDDEN, 'tee /proc/self/mem', '/proc is never writable'),
    ],
  },
  {
    program: 'touch',
    cases: [
      ok('touch new.txt'),
      ok('touch a.txt'),
      ok('touch -d 2020-01-01 a.txt'),
      ok('touch -c missing.txt'),
      ok('touch -r {R}/f.txt a.txt'),
      no(OUTSIDE, 'touch {O}/x', OUT),
      no(OUTSIDE, 'touch {R}/f.txt', RO),
      no(OUTSIDE, 'touch toS', 'touches the secret through the link'),
      no(OUTSIDE, 'touch -r {S} a.txt', '-r reads the status of the secret'),
      no(HARDLINK, 'touch hl.txt', TWO_NAMES),
      no(PROTECTED, 'touch .git/hooks/pre-commit', GIT),
    ],
  },
  {
    program: 'mkdir',
    cases: [
      ok('mkdir newdir'),
      ok('mkdir -p a/b/c'),
      ok('mkdir -m 755 d'),
      no(OUTSIDE, 'mkdir {O}/x', OUT),
      no(OUTSIDE, 'mkdir -p {ROOT}/secret/x', OUT),
      no(OUTSIDE, 'mkdir {R}/x', RO),
      no(PROTECTED, 'mkdir .git/hooks2', GIT),
    ],
  },
  {
    program: 'rm',
    cases: [
      ok('rm a.txt'),
      ok('rm -f missing.txt'),
      ok('rm -r src'),
      ok('rm -rf sub'),
      ok('rm -- -rf'), // after --, a file name
      no(OUTSIDE, 'rm {S}', OUT),
      no(OUTSIDE, 'rm -rf /', OUT),
      no(OUTSIDE, 'rm -rf ..', 'the world root is outside the write scopes'),
      no(OUTSIDE, 'rm -r ../secret', OUT),
      no(OUTSIDE, 'rm {R}/f.txt', RO),
      no(OUTSIDE, 'rm a.txt -rf {O}', 'options after a positional (GNU permutation)'),
      no(PROTECTED, 'rm -rf .git', GIT),
      no(PROTECTED, 'rm .git/index', GIT),
    ],
  },
  {
    program: 'rmdir',
    cases: [ok('rmdir emptydir'), ok('rmdir --ignore-fail-on-non-empty emptydir'), no(OUTSIDE, 'rmdir {R}/emptydir', RO), no(OUTSIDE, 'rmdir {O}', OUT), no(PROTECTED, 'rmdir .git/refs/tags', GIT)],
  },
  {
    program: 'truncate',
    cases: [
      ok('truncate -s 0 a.txt'),
      ok('truncate -s 1K new.bin'),
      ok('truncate -r {R}/f.txt a.txt'),
      no(OUTSIDE, 'truncate -s 0 {S}', OUT),
      no(OUTSIDE, 'truncate -s 0 {R}/f.txt', RO),
      no(OUTSIDE, 'truncate -s 0 toS', 'truncates the secret through the link'),
      no(OUTSIDE, 'truncate -r {S} a.txt', '-r reads the size of the secret'),
      no(HARDLINK, 'truncate -s 0 hl.txt', TWO_NAMES),
      no(PROTECTED, 'truncate -s 0 .git/index', GIT),
    ],
  },
  {
    program: 'chmod',
    cases: [
      ok('chmod +x script.sh'),
      ok('chmod 644 a.txt'),
      ok('chmod -R u+w src'),
      ok('chmod --reference={R}/f.txt a.txt'),
      no(OUTSIDE, 'chmod 777 {S}', OUT),
      no(OUTSIDE, 'chmod +x {R}/f.txt', RO),
      no(OUTSIDE, 'chmod 000 toS', 'chmod follows the link to the secret'),
      no(OUTSIDE, 'chmod -R 777 ..', OUT),
      no(OUTSIDE, 'chmod --reference={S} a.txt', '--reference reads the status of the secret'),
      no(HARDLINK, 'chmod 644 hl.txt', "a mode is the file's, so it changes the other name outside the scopes too"),
      no(PROTECTED, 'chmod +x .git/hooks/pre-commit', GIT),
    ],
  },
  {
    program: 'cp',
    cases: [
      ok('cp a.txt c.txt'),
      ok('cp -r src src2'),
      ok('cp {R}/f.txt copy.txt'),
      ok('cp -a src backup'),
      ok('cp -p a.txt c.txt'),
      no(ARGUMENT, 'cp -t sub a.txt b.txt', '-t is not allowed: name the destination last'),
      ok('cp -l a.txt y'), // a hard link from a write scope
      ok('cp --link a.txt y2'),
      ok('cp -s a.txt l2'), // a symbolic link to a file in scope
      no(OUTSIDE, 'cp {S} x', 'reads the secret'),
      no(OUTSIDE, 'cp toS x', 'copies the secret through the link'),
      no(OUTSIDE, 'cp linkdir/toS x', 'copies the secret through a relative link'),
      no(OUTSIDE, 'cp a.txt {O}/x', OUT),
      no(OUTSIDE, 'cp a.txt {R}/x', RO),
      no(ARGUMENT, 'cp -t {O} a.txt', '-t is not allowed: name the destination last'),
      no(ARGUMENT, 'cp --target-directory={O} a.txt', '-t is not allowed: name the destination last'),
      no(ARGUMENT, 'cp a.txt -t {O}', '-t is not allowed: name the destination last'),
      no(HARDLINK, 'cp a.txt hl.txt', TWO_NAMES),
      no(PROTECTED, 'cp a.txt .git/hooks/pre-commit', GIT),
      no(HARDLINK, 'cp -l {R}/f.txt y', HARD_FROM),
      no(HARDLINK, 'cp --link {R}/f.txt y', HARD_FROM),
      no(OUTSIDE, 'cp -s {S} l', SYM_OUT),
      no(OUTSIDE, 'cp -rL linkdir copy', 'follows linkdir/toS to the secret'),
      no(OUTSIDE, 'cp -RL linkdir copy', 'follows linkdir/toS to the secret'),
      no(OUTSIDE, 'cp -r --dereference linkdir copy', 'follows linkdir/toS to the secret'),
      no(ARGUMENT, 'cp --tar={O} a.txt', 'an abbreviated long option (--target-directory)'),
    ],
  },
  {
    program: 'mv',
    cases: [
      ok('mv a.txt moved.txt'),
      ok('mv src lib'),
      ok('mv -n a.txt sub/'),
      no(OUTSIDE, 'mv a.txt {O}/', OUT),
      no(OUTSIDE, 'mv {R}/f.txt x', 'moving removes the source: R is read-only'),
      no(OUTSIDE, 'mv {S} x', 'moves the secret'),
      no(OUTSIDE, 'mv -t {O} a.txt', '-t names the destination directory'),
      no(PROTECTED, 'mv a.txt .git/hooks/pre-commit', GIT),
      no(PROTECTED, 'mv .git x', 'moves the git directory'),
    ],
  },
  {
    program: 'ln',
    cases: [
      ok('ln -s a.txt l'),
      ok('ln -s ../ro/f.txt rolink'), // a target in a read scope
      ok('ln -s ../secret/key.txt sub/l'), // from sub/ that is W/secret/key.txt, inside W
      ok('ln a.txt hard.txt'),
      ok('ln -sf a.txt l2'),
      ok('ln {R}/f.txt y -s'), // -s after the positionals: a symbolic link, to a target in scope
      no(HARDLINK, 'ln {R}/f.txt y', HARD_FROM),
      no(HARDLINK, 'ln {S} y', HARD_FROM),
      no(HARDLINK, 'ln ../outside/victim.txt y', HARD_FROM),
      no(OUTSIDE, 'ln -s {S} l', SYM_OUT),
      no(OUTSIDE, 'ln --symbolic {S} l', SYM_OUT),
      no(OUTSIDE, 'ln -s ../../outside l', SYM_OUT),
      no(OUTSIDE, 'ln -s ../secret/key.txt l', SYM_OUT),
      no(OUTSIDE, 'ln -s ../../secret/key.txt sub/l', SYM_OUT),
      no(OUTSIDE, 'ln -s /etc/passwd p', SYM_OUT),
      no(OUTSIDE, 'ln -sf {S} a.txt', SYM_OUT),
      no(OUTSIDE, 'ln {S} y -s', '-s after the positionals (GNU permutation): a symbolic link to the secret'),
      no(ARGUMENT, 'ln -s -t sub {S}', '-t is not allowed: name the destination last'),
      no(ARGUMENT, 'ln --symbolic --target-directory=sub ../../secret/key.txt', '-t is not allowed: name the destination last'),
      no(OUTSIDE, 'ln -s a.txt {O}/l', 'the link itself would be outside the write scopes'),
      no(OUTSIDE, 'ln -s a.txt {R}/l', RO),
      no(PROTECTED, 'ln a.txt .git/hooks/pre-commit', GIT),
    ],
  },
];
