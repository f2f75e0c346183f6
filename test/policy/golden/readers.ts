// Golden cases for the programs that read and print: cat, head, tail, wc, ls,
// stat, file, du, nl, od, strings, md5sum, sha256sum, cmp, diff, and the pagers
// and editor (man, less, more, vim). Every path is a read of what it resolves
// to; option values that name files are read paths too.
import { ARGUMENT, FORBIDDEN, no, ok, OUTSIDE, type GoldenGroup } from './golden-case.js';

const SECRET = 'reads the secret';
const LINK = 'toS is a link to the secret';
const PROC = '/proc, /sys and /dev are never readable';
const TREE_LINK = 'follows links inside the tree: linkdir/toS and toS resolve to the secret';

export const READERS: readonly GoldenGroup[] = [
  {
    program: 'cat',
    cases: [
      ok('cat a.txt'),
      ok('cat -n a.txt README.md'),
      ok('cat {R}/f.txt'),
      ok('cat -A a.txt'),
      ok('cat hl.txt'), // its name is in the workspace; only writing it is refused
      ok('cat .git/HEAD'), // reading git metadata is allowed
      ok('cat -- -n'), // after --, a file name
      no(OUTSIDE, 'cat {S}', SECRET),
      no(OUTSIDE, 'cat ../secret/key.txt', SECRET),
      no(OUTSIDE, 'cat toS', LINK),
      no(OUTSIDE, 'cat linkdir/toS', 'linkdir/toS is a relative link to the secret'),
      no(OUTSIDE, 'cat a.txt {S}', SECRET),
      no(OUTSIDE, 'cat -n -- {S}', SECRET),
      no(OUTSIDE, 'cat /etc/shadow', 'outside the read scopes'),
      no(FORBIDDEN, 'cat /proc/self/environ', PROC),
      no(FORBIDDEN, 'cat /dev/sda', PROC),
    ],
  },
  {
    program: 'head',
    cases: [
      ok('head a.txt'),
      ok('head -n 5 a.txt'),
      ok('head -n5 a.txt'),
      ok('head -c 10 a.txt'),
      ok('head --lines=3 a.txt {R}/doc.md'),
      no(OUTSIDE, 'head {S}', SECRET),
      no(OUTSIDE, 'head -n 1 toS', LINK),
      no(OUTSIDE, 'head a.txt -n 1 {S}', 'a positional after an option (GNU permutation)'),
      no(FORBIDDEN, 'head -c 100 /dev/urandom', PROC),
      no(ARGUMENT, 'head --lin=3 a.txt', 'an abbreviated long option (--lines)'),
    ],
  },
  {
    program: 'tail',
    cases: [
      ok('tail a.txt'),
      ok('tail -n 20 a.txt'),
      ok('tail -n +2 data.csv'),
      ok('tail -c 5 {R}/f.txt'),
      no(OUTSIDE, 'tail {S}', SECRET),
      no(OUTSIDE, 'tail -n1 ../secret/key.txt', SECRET),
      no(OUTSIDE, 'tail -n 1 linkdir/toS', 'a relative link to the secret'),
      no(FORBIDDEN, 'tail /proc/1/environ', PROC),
    ],
  },
  {
    program: 'wc',
    cases: [
      ok('wc -l a.txt'),
      ok('wc a.txt README.md'),
      ok('wc -c {R}/f.txt'),
      ok('wc -w a.txt'),
      no(ARGUMENT, 'wc --files0-from {S}', 'the names in the list would be opened without a check'),
      no(ARGUMENT, 'wc a.txt --files0-from={S}', 'the names in the list would be opened without a check'),
      no(OUTSIDE, 'wc {S}', SECRET),
      no(OUTSIDE, 'wc -l toS', LINK),
      no(ARGUMENT, 'wc --files0={S}', 'an abbreviated long option (--files0-from)'),
    ],
  },
  {
    program: 'ls',
    cases: [
      ok('ls'),
      ok('ls -la'),
      ok('ls -R src'),
      ok('ls {R}'),
      ok('ls -1 src sub'),
      ok('ls -l --color=never'),
      ok('ls -- -la'), // after --, a file name
      no(OUTSIDE, 'ls {ROOT}/secret', 'lists the secret directory'),
      no(OUTSIDE, 'ls -la /root', 'outside the read scopes'),
      no(OUTSIDE, 'ls ..', 'the world root is outside the read scopes'),
      no(FORBIDDEN, 'ls /proc', PROC),
      no(OUTSIDE, 'ls -RL .', TREE_LINK),
    ],
  },
  {
    program: 'stat',
    cases: [
      ok('stat a.txt'),
      ok('stat -c %s a.txt'),
      ok('stat --format=%n a.txt {R}/f.txt'),
      ok('stat -L a.txt'),
      no(OUTSIDE, 'stat {S}', SECRET),
      no(OUTSIDE, 'stat -L toS', '-L reads the status of the link target, the secret'),
      no(FORBIDDEN, 'stat -c %s /proc/self/environ', PROC),
    ],
  },
  {
    program: 'file',
    cases: [
      ok('file a.txt'),
      ok('file -b a.txt'),
      ok('file --mime-type a.txt src/main.c'),
      ok('file {R}/f.txt'),
      no(ARGUMENT, 'file -f{S}', 'the names in the list would be opened without a check'),
      no(ARGUMENT, 'file --files-from={S}', 'the names in the list would be opened without a check'),
      no(OUTSIDE, 'file {S}', SECRET),
      no(OUTSIDE, 'file -L toS', LINK),
      no(ARGUMENT, 'file -m {S} a.txt', '-m loads another magic file'),
    ],
  },
  {
    program: 'du',
    cases: [
      ok('du -sh .'),
      ok('du -sh src'),
      ok('du -a src'),
      ok('du -h {R}'),
      no(OUTSIDE, 'du -sh {ROOT}/secret', SECRET),
      no(OUTSIDE, 'du -sh /', 'outside the read scopes'),
      no(OUTSIDE, 'du -L .', TREE_LINK),
      no(OUTSIDE, 'du --dereference -s .', TREE_LINK),
      no(OUTSIDE, 'du --exclude-from={S} .', '--exclude-from reads the secret'),
    ],
  },
  {
    program: 'nl',
    cases: [ok('nl a.txt'), ok('nl -ba a.txt'), ok('nl -w 3 {R}/f.txt'), no(OUTSIDE, 'nl {S}', SECRET), no(OUTSIDE, 'nl toS', LINK), no(OUTSIDE, 'nl -- {S}', SECRET)],
  },
  {
    program: 'od',
    cases: [ok('od -c a.txt'), ok('od -An -tx1 a.txt'), ok('od -N 16 -x {R}/f.txt'), no(OUTSIDE, 'od {S}', SECRET), no(OUTSIDE, 'od -j 0 toS', LINK), no(FORBIDDEN, 'od -c /dev/mem', PROC)],
  },
  {
    program: 'strings',
    cases: [
      ok('strings a.txt'),
      ok('strings -n 8 a.txt'),
      ok('strings -a {R}/f.txt'),
      no(OUTSIDE, 'strings {S}', SECRET),
      no(OUTSIDE, 'strings toS', LINK),
      no(ARGUMENT, 'strings @args.txt a.txt', '@FILE reads options from a file the gate does not check'),
    ],
  },
  {
    program: 'md5sum',
    cases: [
      ok('md5sum a.txt'),
      ok('md5sum a.txt README.md'),
      ok('md5sum --tag {R}/f.txt'),
      no(OUTSIDE, 'md5sum {S}', SECRET),
      no(OUTSIDE, 'md5sum toS', LINK),
      no(ARGUMENT, 'md5sum -c {S}', 'the names in the list would be opened without a check'),
    ],
  },
  {
    program: 'sha256sum',
    cases: [
      ok('sha256sum a.txt'),
      ok('sha256sum -b a.txt'),
      ok('sha256sum {R}/f.txt'),
      no(OUTSIDE, 'sha256sum {S}', SECRET),
      no(ARGUMENT, 'sha256sum --check {S}', 'the names in the list would be opened without a check'),
      no(OUTSIDE, 'sha256sum linkdir/toS', 'a relative link to the secret'),
    ],
  },
  {
    program: 'cmp',
    cases: [
      ok('cmp a.txt README.md'),
      ok('cmp -l a.txt b.txt'),
      ok('cmp a.txt {R}/f.txt'),
      no(OUTSIDE, 'cmp a.txt {S}', 'reads the secret (and prints the differing bytes with -l)'),
      no(OUTSIDE, 'cmp -l toS a.txt', LINK),
    ],
  },
  {
    program: 'diff',
    cases: [
      ok('diff a.txt README.md'),
      ok('diff -u a.txt b.txt'),
      ok('diff -r src {R}'),
      ok('diff -q a.txt {R}/f.txt'),
      no(OUTSIDE, 'diff a.txt {S}', SECRET),
      no(OUTSIDE, 'diff -r . {ROOT}/secret', SECRET),
      no(OUTSIDE, 'diff --from-file={S} a.txt', '--from-file reads the secret'),
      no(OUTSIDE, 'diff -u toS a.txt', LINK),
      no(OUTSIDE, 'diff -r linkdir cmpdir', 'diff -r follows links in trees: linkdir/toS is compared with cmpdir/toS'),
    ],
  },
  {
    program: 'man',
    cases: [
      ok('man ls'),
      ok('man 1 ls'),
      ok('man 5 passwd'),
      no(ARGUMENT, "man -P 'sh -c id' ls", '-P names the pager program'),
      no(ARGUMENT, 'man -Pcat ls', '-P names a program, whatever it is'),
      no(ARGUMENT, 'man --pager=sh ls', '--pager names a program'),
      no(ARGUMENT, 'man --pager sh ls', '--pager with a separate value'),
      no(ARGUMENT, 'man --pag=sh ls', 'an abbreviated long option (--pager)'),
      no(ARGUMENT, 'man --html=sh ls', '--html names a browser program'),
      no(ARGUMENT, 'man -C k.txt ls', '-C reads a configuration that names programs'),
    ],
  },
  {
    program: 'less',
    cases: [
      ok('less a.txt'),
      ok('less -N a.txt'),
      ok('less -i README.md'),
      ok('less {R}/doc.md'),
      no(ARGUMENT, 'less --lesskey-src k.txt a.txt', 'a lesskey source can bind keys to shell commands'),
      no(ARGUMENT, 'less --lesskey-s=k.txt a.txt', 'an abbreviated long option (--lesskey-src)'),
      no(ARGUMENT, 'less -k k.txt a.txt', '-k reads a lesskey file'),
      no(ARGUMENT, 'less --lesskey-file=k.txt a.txt', 'reads a lesskey file'),
      no(ARGUMENT, "less --lesskey-content='x shell id' a.txt", 'lesskey text on the command line'),
      no(ARGUMENT, "less '+!id' a.txt", '+ runs a less command at start (! runs a shell command)'),
      no(ARGUMENT, 'less +G a.txt', 'any +command is denied'),
      no(OUTSIDE, 'less {S}', SECRET),
      no(OUTSIDE, 'less toS', LINK),
    ],
  },
  {
    program: 'more',
    cases: [ok('more a.txt'), ok('more a.txt README.md'), ok('more {R}/f.txt'), no(OUTSIDE, 'more {S}', SECRET), no(OUTSIDE, 'more toS', LINK), no(FORBIDDEN, 'more /proc/self/environ', PROC)],
  },
  {
    program: 'vim',
    cases: [
      ok('vim --version'),
      no(ARGUMENT, 'vim a.txt', 'vim needs a terminal and runs modelines: only vim --version'),
      no(ARGUMENT, "vim -c ':!id' a.txt", '-c runs an Ex command'),
      no(ARGUMENT, "vim '+!id' a.txt", '+ runs an Ex command'),
      no(ARGUMENT, "vim '+:!id' a.txt", '+ runs an Ex command'),
      no(ARGUMENT, "vim --cmd 'set shell=sh' a.txt", '--cmd runs an Ex command'),
      no(ARGUMENT, 'vim -S k.txt', '-S sources a script'),
      no(ARGUMENT, 'vim -u k.txt a.txt', '-u reads a vimrc of its choosing'),
      no(ARGUMENT, 'vim -s k.txt a.txt', '-s replays keystrokes from a file'),
      no(ARGUMENT, 'vim -es a.txt', 'Ex mode reads commands from stdin'),
      no(ARGUMENT, 'vim -W {O}/keys a.txt', '-W writes a file'),
      no(ARGUMENT, 'vim {S}', 'vim needs a terminal and runs modelines: only vim --version'),
      no(ARGUMENT, 'vim toS', 'vim needs a terminal and runs modelines: only vim --version'),
      no(ARGUMENT, 'vim {R}/f.txt', 'vim needs a terminal and runs modelines: only vim --version'),
    ],
  },
];
