// Golden cases for shells and interpreters: bash, sh, python3, node, perl, ruby.
// Running a script file inside the read scopes is allowed (what it does is then
// bounded only by the sandbox: a documented limit); code on the command line,
// code on stdin, and options that load code from elsewhere are denied.
import { ARGUMENT, no, ok, OUTSIDE, type GoldenGroup } from './golden-case.js';

const CODE = 'code on the command line';
const STDIN = 'with no script it reads code from stdin, which the gate never sees';
const SECRET = 'runs (and prints in its errors) the secret';

export const INTERPRETERS: readonly GoldenGroup[] = [
  {
    program: 'bash',
    cases: [
      ok('bash script.sh'),
      ok('bash script.sh arg1 arg2'),
      ok('bash -n script.sh'),
      ok('bash -x script.sh'),
      no(ARGUMENT, 'bash -c id', CODE),
      no(ARGUMENT, 'bash -lc id', '-c bundled after -l'),
      no(ARGUMENT, "bash -c 'cat a.txt'", CODE),
      no(ARGUMENT, 'bash', STDIN),
      no(ARGUMENT, 'bash -i', 'an interactive shell reading stdin'),
      no(ARGUMENT, 'bash -s', STDIN),
      no(ARGUMENT, 'cat script.sh | bash', STDIN),
      no(ARGUMENT, 'bash --rcfile k.txt -i', 'runs a startup file of its choosing'),
      no(ARGUMENT, 'bash --init-file k.txt script.sh', 'runs a startup file of its choosing'),
      no(OUTSIDE, 'bash {S}', SECRET),
      no(OUTSIDE, 'bash toS', 'toS is a link to the secret'),
    ],
  },
  {
    program: 'sh',
    cases: [
      ok('sh script.sh'),
      ok('sh script.sh a b'),
      ok('sh -n script.sh'),
      no(ARGUMENT, 'sh -c id', CODE),
      no(ARGUMENT, "sh -c 'cat a.txt'", CODE),
      no(ARGUMENT, 'sh -ec id', '-c bundled after -e'),
      no(ARGUMENT, 'sh', STDIN),
      no(ARGUMENT, 'sh -s', STDIN),
      no(ARGUMENT, 'cat script.sh | sh', STDIN),
      no(OUTSIDE, 'sh ../secret/key.txt', SECRET),
    ],
  },
  {
    program: 'python3',
    cases: [
      ok('python3 script.py'),
      ok('python3 script.py arg'),
      ok('python3 {R}/tool.py'),
      ok('python3 -u script.py'),
      ok('python3 -B script.py'),
      no(ARGUMENT, "python3 -c 'import os'", CODE),
      no(ARGUMENT, "python3 '-cprint(1)'", '-c with its code attached'),
      no(ARGUMENT, "python3 -Bc 'print(1)'", '-c bundled after -B'),
      no(ARGUMENT, 'python3', STDIN),
      no(ARGUMENT, 'python3 -', STDIN),
      no(ARGUMENT, 'python3 -i script.py', '-i then reads code from stdin'),
      no(ARGUMENT, 'cat script.py | python3', STDIN),
      no(OUTSIDE, 'python3 {S}', SECRET),
      no(OUTSIDE, 'python3 toS', 'toS is a link to the secret'),
    ],
  },
  {
    program: 'node',
    cases: [
      ok('node script.js'),
      ok('node script.js a b'),
      no(ARGUMENT, `node -e 'require("child_process")'`, CODE),
      no(ARGUMENT, 'node -p 1+1', CODE),
      no(ARGUMENT, 'node -pe 1', CODE),
      no(ARGUMENT, 'node --eval=1', CODE),
      no(ARGUMENT, 'node --eva=1', 'an abbreviated long option (--eval)'),
      no(ARGUMENT, "node --import 'data:text/javascript,1' script.js", 'a module given as code on the command line'),
      no(ARGUMENT, 'node', STDIN),
      no(OUTSIDE, 'node {S}', SECRET),
    ],
  },
  {
    program: 'perl',
    cases: [
      ok('perl script.pl'),
      ok('perl -w script.pl'),
      ok('perl script.pl arg'),
      ok('perl -c script.pl'),
      no(ARGUMENT, "perl -e 'print 1'", CODE),
      no(ARGUMENT, "perl -E 'say 1'", CODE),
      no(ARGUMENT, 'perl -we 1', '-e bundled after -w'),
      no(ARGUMENT, 'perl -ne print a.txt', CODE),
      no(ARGUMENT, "perl -i -pe 's/a/b/' a.txt", CODE),
      no(ARGUMENT, 'perl -MPOSIX script.pl', '-M loads a module, and runs code: -M5;CODE'),
      no(ARGUMENT, 'perl -I{O} script.pl', '-I loads modules from a directory of its choosing'),
      no(ARGUMENT, 'perl', STDIN),
      no(OUTSIDE, 'perl {S}', SECRET),
    ],
  },
  {
    program: 'ruby',
    cases: [
      ok('ruby script.rb'),
      ok('ruby -w script.rb'),
      no(ARGUMENT, "ruby -e 'puts 1'", CODE),
      no(ARGUMENT, "ruby -ne 'print' a.txt", CODE),
      no(ARGUMENT, 'ruby -rsocket script.rb', '-r loads a library'),
      no(ARGUMENT, 'ruby -I{O} script.rb', '-I loads libraries from a directory of its choosing'),
      no(ARGUMENT, 'ruby', STDIN),
      no(OUTSIDE, 'ruby {S}', SECRET),
    ],
  },
];
