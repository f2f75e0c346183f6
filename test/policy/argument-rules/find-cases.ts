// Hand-written decisions for find (find-expression.ts), never derived from its parser.
import type { GateCase } from './gate-cases.js';

const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';
const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';
const NOT_ALLOWED = 'ZB_POLICY_SHELL_NOT_ALLOWED';

export const FIND_CASES: readonly GateCase[] = [
  { command: 'find . -name x', expect: 'allow' },
  { command: 'find', expect: 'allow', why: 'the working directory' },
  { command: 'find src dir -type f', expect: 'allow' },
  { command: 'find $S', expect: OUTSIDE },
  { command: 'find . $S -name x', expect: OUTSIDE },
  { command: 'find $R -name x', expect: 'allow' },
  // Leading options.
  { command: 'find -L src -name x', expect: 'allow' },
  { command: 'find -L .', expect: OUTSIDE, why: 'follows links/to-s-dir' },
  { command: 'find -L', expect: OUTSIDE, why: 'the working directory, walked' },
  { command: 'find -L box -name x', expect: OUTSIDE },
  { command: 'find box -name x', expect: 'allow', why: 'without -L the link is not followed' },
  { command: 'find -H . -name x', expect: 'allow' },
  { command: 'find -P . -name x', expect: 'allow' },
  { command: 'find -D tree . -name x', expect: ARGUMENT },
  { command: 'find -O3 . -name x', expect: ARGUMENT },
  { command: 'find . -L -name x', expect: ARGUMENT, why: 'options come before the starting points' },
  // -delete turns the starting points into writes.
  { command: "find . -name '*.o' -delete", expect: ARGUMENT, why: 'find never deletes (no -delete)' },
  { command: 'find $R -delete', expect: ARGUMENT, why: 'find never deletes (no -delete)' },
  { command: 'find $R -name x -o -delete', expect: ARGUMENT, why: 'find never deletes (no -delete)' },
  { command: 'cd $R && find -name x -delete', expect: ARGUMENT, why: 'the working directory R is read-only' },
  { command: 'cd $R && find -name x', expect: 'allow' },
  { command: 'find $R -name -delete', expect: 'allow', why: '-delete is the pattern of -name here' },
  // Path-valued primaries.
  { command: 'find . -newer a.txt', expect: 'allow' },
  { command: 'find . -newer $S/secret.txt', expect: OUTSIDE },
  { command: 'find . -samefile a.txt', expect: 'allow' },
  { command: 'find . -samefile $S/secret.txt', expect: OUTSIDE },
  // Every other primary and operator.
  {
    command: "find . '(' -name '*.ts' -o -iname '*.TS' ')' -a -path './src/*' -and -ipath './SRC/*' -or -regex '.*ts' , -iregex '.*TS' -not -empty '!' -readable",
    expect: 'allow',
  },
  {
    command: 'find . -type f -xtype f,d -maxdepth 2 -mindepth 1 -size +1k -mtime -7 -mmin -60 -atime +1 -ctime 0 -perm -u+r -user root -group 0 -links 1 -writable -executable -true -false',
    expect: 'allow',
  },
  { command: "find . -depth -mount -xdev -print -print0 -ls -prune -quit -printf '%p %s'", expect: 'allow' },
  { command: 'find . -type q', expect: ARGUMENT },
  { command: 'find . -xtype x', expect: ARGUMENT },
  { command: 'find . -maxdepth deep', expect: ARGUMENT },
  { command: 'find . -mindepth -1', expect: ARGUMENT },
  { command: 'find . -size 10X', expect: ARGUMENT },
  { command: 'find . -mtime week', expect: ARGUMENT },
  { command: 'find . -mmin soon', expect: ARGUMENT },
  { command: 'find . -atime old', expect: ARGUMENT },
  { command: 'find . -ctime new', expect: ARGUMENT },
  { command: 'find . -perm 999', expect: ARGUMENT },
  { command: "find . -user 'a b'", expect: ARGUMENT },
  { command: "find . -group 'a;b'", expect: ARGUMENT },
  { command: 'find . -links many', expect: ARGUMENT },
  { command: 'find . -name', expect: ARGUMENT, why: 'needs a value' },
  // Not allowed: writing files, other primaries.
  { command: 'find . -fprint out', expect: ARGUMENT },
  { command: 'find . -fprint0 out', expect: ARGUMENT },
  { command: "find . -fprintf out '%p'", expect: ARGUMENT },
  { command: 'find . -fls out', expect: ARGUMENT },
  { command: 'find . -follow', expect: OUTSIDE, why: '-follow is -L: links/to-s is followed' },
  { command: 'find src -follow -name x', expect: 'allow', why: 'no link under src' },
  { command: 'find . -regextype egrep -regex x', expect: ARGUMENT },
  { command: 'find . -files0-from list', expect: ARGUMENT },
  // -exec and -ok: the command is checked on its own; its words are not find's.
  { command: "find . -exec git status ';'", expect: 'allow' },
  { command: "find . -name x -exec git log -1 ';' -print", expect: 'allow' },
  { command: "find . -ok git status ';'", expect: 'allow' },
  { command: "find $R -exec git status ';' -name x", expect: 'allow' },
  { command: "find . -exec cat $S/secret.txt ';'", expect: OUTSIDE },
  { command: "find . -exec sed -n '1w out' a.txt ';'", expect: ARGUMENT, why: "the command's own rule denies it" },
  { command: "find . -exec sudo id ';'", expect: NOT_ALLOWED },
  { command: "find . -exec cat '{}' ';'", expect: ARGUMENT },
  { command: "find . -exec cat '{}' +", expect: ARGUMENT },
  { command: "find . -execdir git status ';'", expect: ARGUMENT },
  { command: 'find . -exec git status', expect: ARGUMENT },
  { command: "find . -exec ';'", expect: ARGUMENT },
];
