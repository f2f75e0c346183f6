// The examples of issue 10, each with the decision the closed-world principles
// give. SECRET is the secret file {S}; the wrapper examples are decided with the
// issue's allowlist (git, timeout) and with every program allowlisted.
import { ARGUMENT, ASSIGNMENT, CONSTRUCT, HARDLINK, no, NOT_ALLOWED, ok, OUTSIDE, type GoldenGroup } from './golden-case.js';

const ISSUE = { allow: 'issue' } as const;
const BUILD = { allow: 'build' } as const;
const NOT_LISTED = 'what the wrapper runs is not in the allowlist (git, timeout)';
const SHELL_C = 'sh -c is always denied, wrapped or not';

export const ISSUE_EXAMPLES: readonly GoldenGroup[] = [
  {
    program: 'tar',
    cases: [
      no(ARGUMENT, 'tar cPf /tmp/out.tar a.txt', 'old-style key P (absolute names) is not allowed'),
      no(ARGUMENT, 'tar xPf evil.tar', 'extraction is denied'),
      no(ARGUMENT, `tar cIf 'sh -c "id"' x.tar a.txt`, 'old-style key I takes the next word as a compress program'),
    ],
  },
  {
    program: 'awk',
    cases: [no(ARGUMENT, `awk -F , 'BEGIN{system("id")}'`, 'system() runs a command'), no(ARGUMENT, 'awk -W exec p.awk', '-W exec runs a program file')],
  },
  { program: 'less', cases: [no(ARGUMENT, 'less --lesskey-src=k.txt', 'a lesskey source can bind keys to shell commands')] },
  { program: 'wget', cases: [no(ARGUMENT, 'wget --use-askpass=./script', '--use-askpass runs a program')] },
  { program: 'make', cases: [no(ARGUMENT, "make SHELL=/bin/sh 'X:=$(shell id)' -q nothing", 'make takes targets only: no VAR=value arguments')] },
  { program: 'perl', cases: [no(ARGUMENT, "perl '-M5;`id`' a.txt", '-M5;CODE runs CODE')] },
  {
    program: 'curl',
    cases: [no(ARGUMENT, 'curl File:///secret', 'only http:// and https://, lower-case'), no(ARGUMENT, "curl 'fil[e-e]:///secret'", 'curl globbing turns fil[e-e] into file')],
  },
  { program: 'file', cases: [no(ARGUMENT, 'file -f {S}', 'the names in the list would be opened without a check')] },
  { program: 'wc', cases: [no(ARGUMENT, 'wc --files0-from={S}', 'the names in the list would be opened without a check')] },
  { program: 'du', cases: [no(ARGUMENT, 'du --files0-from={S}', 'the names in the list would be opened without a check')] },
  { program: 'cp', cases: [no(HARDLINK, 'cp -l {R}/f.txt y && cp payload y', 'a hard link from the read-only scope; the line stops at its first command')] },
  {
    program: 'cargo',
    cases: [ok('RUST_BACKTRACE=1 cargo test', BUILD), ok('RUST_BACKTRACE=1 cargo test')],
  },
  {
    program: 'npm',
    cases: [ok('NODE_ENV=test npm test', BUILD), ok('A=1 B=2 npm run build', BUILD), ok('NODE_ENV=test npm test'), ok('A=1 B=2 npm run build')],
  },
  {
    program: 'timeout',
    cases: [
      no(NOT_ALLOWED, 'timeout 5 sh -c id', NOT_LISTED, ISSUE),
      no(NOT_ALLOWED, 'timeout 5 rm -rf /', NOT_LISTED, ISSUE),
      ok('timeout 5 git status', ISSUE),
      no(ARGUMENT, 'timeout 5 sh -c id', SHELL_C),
      no(OUTSIDE, 'timeout 5 rm -rf /', 'rm -rf / writes outside the write scopes'),
    ],
  },
  {
    program: 'env',
    cases: [
      no(NOT_ALLOWED, 'env sh -c id', NOT_LISTED, ISSUE),
      no(NOT_ALLOWED, "env -S 'sh -c id' git", NOT_LISTED, ISSUE),
      no(ASSIGNMENT, 'env LD_PRELOAD=/x.so cat a.txt', 'LD_PRELOAD is in the dangerous set', ISSUE),
      no(ARGUMENT, 'env sh -c id', SHELL_C),
      no(ARGUMENT, "env -S 'sh -c id' git", `-S splits into sh -c id: ${SHELL_C}`),
      no(ASSIGNMENT, 'env LD_PRELOAD=/x.so cat a.txt', 'LD_PRELOAD is in the dangerous set'),
    ],
  },
  { program: 'nohup', cases: [no(NOT_ALLOWED, 'nohup sh -c id', NOT_LISTED, ISSUE), no(ARGUMENT, 'nohup sh -c id', SHELL_C)] },
  { program: 'nice', cases: [no(NOT_ALLOWED, 'nice -n 5 sh -c id', NOT_LISTED, ISSUE), no(ARGUMENT, 'nice -n 5 sh -c id', SHELL_C)] },
  { program: 'stdbuf', cases: [no(NOT_ALLOWED, 'stdbuf -o0 sh -c id', NOT_LISTED, ISSUE), no(ARGUMENT, 'stdbuf -o0 sh -c id', SHELL_C)] },
  // Issue 21 item 7: the two gaps the published-bypass corpus found, and four forms developers expect (also issue 24).
  {
    program: 'python3 -m',
    cases: [
      no(ARGUMENT, "python3 -m timeit 'import os'", 'timeit runs the statements on its command line'),
      no(ARGUMENT, "python3 -m pdb -c 'import os' script.py", 'pdb -c runs debugger commands, which are Python'),
      no(ARGUMENT, 'python3 -m cProfile -m timeit pass', 'cProfile runs another module of its choosing'),
      ok('python3 -m unittest discover -s emptydir'),
    ],
  },
  {
    program: 'git -C',
    cases: [
      ok('git -C emptydir log'),
      ok('git -C {W} status'),
      no(OUTSIDE, 'git -C {O} log', 'DIR outside the read scopes'),
      no(OUTSIDE, 'git -C .. log', 'DIR outside the read scopes'),
      no(ARGUMENT, 'git -C emptydir -c core.pager=sh log', 'the rest of the git rule still applies'),
    ],
  },
  {
    program: 'find -exec',
    cases: [
      ok("find emptydir -name '*.txt' -exec grep -l PATTERN {} ';'"),
      ok('find emptydir -exec grep -l PATTERN {} +'),
      no(OUTSIDE, "find . -exec grep -l PATTERN {} ';'", 'grep would read toS, a link to the secret'),
      no(ARGUMENT, "find emptydir -exec sh -c id ';'", SHELL_C),
      no(ARGUMENT, "find emptydir -exec grep -l x {} ';' -delete", '-delete removes what find matches'),
      no(ARGUMENT, "find emptydir -execdir grep -l x {} ';'", '-execdir runs in directories known only at run time'),
      no(ARGUMENT, "find emptydir -ok grep -l x {} ';'", '-ok asks on a terminal'),
      no(ARGUMENT, "find emptydir -exec rm {} ';'", 'rm would remove what find finds'),
    ],
  },
  {
    program: 'command -v',
    cases: [
      ok('command -v git'),
      ok('command -V git', ISSUE),
      ok('type git', ISSUE),
      no(NOT_ALLOWED, 'command sh -c id', NOT_LISTED, ISSUE),
      no(ARGUMENT, 'command sh -c id', SHELL_C),
      no(ARGUMENT, 'command -p git status', '-p looks the command up in another PATH'),
      no(ARGUMENT, 'command -v git sh', 'one name per lookup'),
    ],
  },
  {
    program: 'quoting',
    cases: [ok("git commit -m 'it'\\''s done'"), ok('git log --grep=a\\ b'), no(CONSTRUCT, 'echo a\\nb', 'a backslash before a letter')],
  },
];
