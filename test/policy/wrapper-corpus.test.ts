// The hand-written corpus for wrappers and leading assignments (issue 10 items 2
// and 5, gate-rules §4-§5): each command with the decision and error code expected
// of it, written by hand and never derived from the tables under test. Programs
// are stubs on a temporary PATH, so the corpus means the same on every machine.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../src/errors.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { tempDir } from '../fixtures/temp.js';

const STUBS = [
  'git',
  'timeout',
  'nice',
  'nohup',
  'stdbuf',
  'ionice',
  'env',
  'sh',
  'bash',
  'rm',
  'cat',
  'ls',
  'grep',
  'find',
  'cargo',
  'npm',
  'xargs',
  'chrt',
  'busybox',
  'setsid',
  'strace',
  'sudo',
  'printf',
  'false',
];

/** The issue's allowlist, and one with every stub and shell builtin on it: allowlisting a wrapper or runner grants nothing. */
const ALLOWLISTS = {
  issue: ['git', 'timeout'],
  all: [
    ...STUBS,
    'command',
    'export',
    'typeset',
    'declare',
    'readonly',
    'alias',
    'hash',
    'shopt',
    'set',
    'unset',
    'watch',
    'parallel',
    'script',
    'flock',
    'doas',
    'su',
    'exec',
    'eval',
    'builtin',
    'source',
    '.',
  ],
} as const;

type Expected = 'allow' | ErrorCode;
type Case = readonly [command: string, expected: Expected, allowlist?: keyof typeof ALLOWLISTS];

const NOT_ALLOWED = 'ZB_POLICY_SHELL_NOT_ALLOWED';
const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';
const ASSIGNMENT = 'ZB_POLICY_SHELL_ASSIGNMENT';
const CONSTRUCT = 'ZB_POLICY_SHELL_CONSTRUCT';
const PROGRAM = 'ZB_POLICY_SHELL_PROGRAM';
const CD = 'ZB_POLICY_SHELL_CD';
const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';

const CORPUS: readonly (readonly [group: string, cases: readonly Case[]])[] = [
  [
    "the issue's examples, allow: git, timeout",
    [
      ["timeout 5 sh -c 'id'", NOT_ALLOWED, 'issue'],
      ['env sh -c id', NOT_ALLOWED, 'issue'],
      ["env -S 'sh -c id' git", NOT_ALLOWED, 'issue'],
      ['nohup sh -c id', NOT_ALLOWED, 'issue'],
      ['nice -n 5 sh -c id', NOT_ALLOWED, 'issue'],
      ['stdbuf -o0 sh -c id', NOT_ALLOWED, 'issue'],
      ['timeout --signal=KILL 5 sh', NOT_ALLOWED, 'issue'],
      ['env LD_PRELOAD=/x.so cat a.txt', ASSIGNMENT, 'issue'],
      ['timeout 5 rm -rf /', NOT_ALLOWED, 'issue'],
      ['timeout 5 git status', 'allow', 'issue'],
    ],
  ],
  [
    "the issue's examples with everything allowlisted",
    [
      ["timeout 5 sh -c 'id'", ARGUMENT],
      ['env sh -c id', ARGUMENT],
      ["env -S 'sh -c id' git", ARGUMENT],
      ['nohup sh -c id', ARGUMENT],
      ['nice -n 5 sh -c id', ARGUMENT],
      ['stdbuf -o0 sh -c id', ARGUMENT],
      ['timeout --signal=KILL 5 sh -c id', ARGUMENT],
      ['env LD_PRELOAD=/x.so cat a.txt', ASSIGNMENT],
      ['timeout 5 rm -rf /', OUTSIDE],
      ['timeout 5 cat /etc/passwd', OUTSIDE],
      ['timeout 5 git -c core.pager=sh log', ARGUMENT],
      ["timeout 5 bash -c 'id'", ARGUMENT],
    ],
  ],
  [
    'timeout',
    [
      ['timeout 5 git status', 'allow'],
      ['timeout -s KILL 5 git status', 'allow'],
      ['timeout -sKILL 5 git status', 'allow'],
      ['timeout -vs KILL 5 git status', 'allow'],
      ['timeout --sig=KILL 5 git status', 'allow'],
      ['timeout --kill-after 1 5 git status', 'allow'],
      ['timeout -k1 --preserve-status 5 git status', 'allow'],
      ['timeout -- 5 git status', 'allow'],
      ['timeout 1.5m git status', 'allow'],
      ['timeout 5 -s KILL sh', NOT_ALLOWED], // options end at DURATION: "-s" is the command
      ['timeout --foreground 5 git status', ARGUMENT],
      ['timeout --f 5 git status', ARGUMENT],
      ['timeout --ver 5 git status', ARGUMENT], // ambiguous: --verbose, --version
      ['timeout --help', ARGUMENT],
      ['timeout -x 5 git status', ARGUMENT],
      ['timeout sh -c id', ARGUMENT], // "sh" is no duration
      ['timeout --signal 5 git status', ARGUMENT], // 5 is the signal, "git" no duration
      ['timeout -k 5 sh -c id', ARGUMENT],
      ['timeout 5', ARGUMENT],
      ['timeout -s', ARGUMENT],
      ['timeout 5 timeout 5 git status', NOT_ALLOWED],
      ['timeout 5 nice timeout 5 git status', NOT_ALLOWED],
      ["find . -exec timeout 5 git status ';'", NOT_ALLOWED], // find forks too
      ['nice env timeout 5 git status', 'allow'], // nice and env exec: timeout still leads the group
      ['./timeout 5 git status', PROGRAM],
      ['/usr/bin/timeout 5 git status', PROGRAM], // not a trusted directory here
      ['timeout 5 ./git status', PROGRAM],
      ['timeout 5 /tmp/git status', PROGRAM],
      ['timeout 5 cd sub', CD],
      ['timeout 5 sudo git status', NOT_ALLOWED],
      ['timeout 5 xargs sh', NOT_ALLOWED],
      ['timeout 5 export A=1', NOT_ALLOWED],
      ['timeout 5 GIT_PAGER=sh git log', NOT_ALLOWED], // timeout sets no variables: "GIT_PAGER=sh" would be its command
      ['timeout 5 command git status', NOT_ALLOWED], // timeout would run a program named "command"
    ],
  ],
  [
    'nice',
    [
      ['nice git status', 'allow'],
      ['nice -n 5 git status', 'allow'],
      ['nice -n5 git status', 'allow'],
      ['nice --adjustment=5 git status', 'allow'],
      ['nice --adj 5 git status', 'allow'],
      ['nice -10 git status', 'allow'],
      ['nice --10 git status', 'allow'],
      ['nice -+3 git status', 'allow'],
      ['nice -5 -n 3 git status', 'allow'],
      ['nice -n sh -c id', ARGUMENT],
      ['nice -n 5 -- sh -c id', ARGUMENT],
      ['nice -- -n 5 git status', NOT_ALLOWED],
      ['nice -5x git status', ARGUMENT],
      ['nice -q git status', ARGUMENT],
      ['nice --adjustment git status', ARGUMENT],
      ['nice', 'allow'], // no command: the program itself, allowlisted here
      ['nice', NOT_ALLOWED, 'issue'],
      ['nice env sh -c id', ARGUMENT],
    ],
  ],
  [
    'nohup',
    [
      ['nohup git status', 'allow'],
      ['nohup -- git status', 'allow'],
      ['nohup --help', ARGUMENT],
      ['nohup', ARGUMENT],
      ['nohup -p git status', ARGUMENT],
      ['nohup nohup sh -c id', ARGUMENT],
      ['nohup rm -rf /', OUTSIDE],
    ],
  ],
  [
    'stdbuf',
    [
      ['stdbuf -oL git log', 'allow'],
      ['stdbuf -o L -e 0 git log', 'allow'],
      ['stdbuf --output=L git log', 'allow'],
      ['stdbuf --out=0 -i 4K git log', 'allow'],
      ['stdbuf -oX git log', ARGUMENT],
      ['stdbuf -o', ARGUMENT],
      ['stdbuf -oL', ARGUMENT],
      ['stdbuf -o0 sh -c id', ARGUMENT],
      ['stdbuf -o0 env LD_PRELOAD=/x.so git log', ASSIGNMENT],
    ],
  ],
  [
    'ionice',
    [
      ['ionice -c 3 git status', 'allow'],
      ['ionice -c3 -t git status', 'allow'],
      ['ionice --class=idle git status', 'allow'],
      ['ionice -c 2 -n 7 git log', 'allow'],
      ['ionice -p 1', ARGUMENT],
      ['ionice', 'allow'],
      ['ionice', NOT_ALLOWED, 'issue'],
      ['ionice -c 3 -p 1', ARGUMENT],
      ['ionice -c 9 git status', ARGUMENT],
      ['ionice -c 3 sh -c id', ARGUMENT],
    ],
  ],
  [
    'env: assignments, -i, -u',
    [
      ['env git status', 'allow'],
      ['env LANG=C git status', 'allow'],
      ['env NODE_ENV=test npm test', 'allow'],
      ['env A=1 B=2 git status', 'allow'],
      ['env -- A=1 git status', 'allow'],
      ['env -v git status', 'allow'],
      ['env LANG=C nice -n 1 git status', 'allow'],
      ['env LD_PRELOAD=/x.so git status', ASSIGNMENT],
      ['env ld_preload=/x.so git status', ASSIGNMENT],
      ['env GIT_CONFIG_COUNT=0 git log', ASSIGNMENT],
      ['env PATH=/tmp git status', ASSIGNMENT],
      ['env -- LD_PRELOAD=/x.so git status', ASSIGNMENT],
      ["env 'a-b=1' git status", ASSIGNMENT], // env takes any word with "=" as an assignment
      ['env A=1 sh -c id', ARGUMENT],
      ['env -i git status', ARGUMENT],
      ['env - git status', ARGUMENT],
      ['env --ignore-environment git status', ARGUMENT],
      ['env --ign git status', ARGUMENT],
      ['env -vi git status', ARGUMENT],
      ['env -0 git status', ARGUMENT],
      ['env --block-signal git status', ARGUMENT],
      ['env -a x git status', ARGUMENT],
      ['env', 'allow'], // no command: env prints the environment, and is allowlisted here
      ['env', NOT_ALLOWED, 'issue'],
      ['env LANG=C', 'allow'],
      ['env -u LANG', 'allow'],
      ['env LD_PRELOAD=/x.so', ASSIGNMENT],
      ['env -u PATH', ASSIGNMENT],
      ['env -i', ARGUMENT],
      ['env -u LANG git status', 'allow'],
      ['env -uLANG git status', 'allow'],
      ['env --unset=LANG git status', 'allow'],
      ['env -u PATH git status', ASSIGNMENT],
      ['env -u GIT_CONFIG_GLOBAL git log', ASSIGNMENT],
      ['env -u git_config_global git log', ASSIGNMENT],
      ['env --unset=PAGER git log', ASSIGNMENT],
      ['env -u HOME git log', ASSIGNMENT],
      ['env -u', ARGUMENT],
      ["env -u 'A=B' git status", ARGUMENT],
    ],
  ],
  [
    'env -S',
    [
      ["env -S 'git status'", 'allow'],
      ["env -S'git status'", 'allow'],
      ["env --split-string='git status'", 'allow'],
      ["env --split 'git status'", 'allow'],
      ["env -vS 'git status' --short", 'allow'],
      ["env -S 'A=1 git status'", 'allow'],
      ["env -S 'sh -c id'", ARGUMENT],
      ["env -S 'LD_PRELOAD=/x.so git status'", ASSIGNMENT],
      ["env -S '-i git status'", ARGUMENT],
      ["env -S '-u PATH git status'", ASSIGNMENT],
      ["env -S 'git status; sh'", ARGUMENT],
      ["env -S 'git status && sh'", ARGUMENT],
      ["env -S 'git log | sh'", ARGUMENT],
      ["env -S 'git $HOME'", ARGUMENT],
      ["env -S 'git status #x'", ARGUMENT],
      ["env -S 'git a\\b'", ARGUMENT],
      ['env -S \'-S "sh -c id"\' git', ARGUMENT],
      ["env -S 'timeout 5 sh -c id'", ARGUMENT],
      ["env -S 'A=1' git status", ARGUMENT], // an assignment-only string is refused, as on a command line
      ["env -S ''", ARGUMENT],
      ['env -S', ARGUMENT],
    ],
  ],
  [
    'env -C is a cd',
    [
      ['env -C sub ls', 'allow'],
      ['env --chdir=sub cat ../a.txt', 'allow'],
      ['env -C /etc ls', CD],
      ['env --chdir=.. ls', CD],
      ['env -C a.txt ls', CD],
      ['env -C missing ls', CD],
      ['env -C sub -C . ls', ARGUMENT],
      ['env -C sub', ARGUMENT],
      ['env -C sub cat ../../outside.txt', OUTSIDE],
      ["env -S '-C /etc ls'", CD],
    ],
  ],
  [
    'command (the builtin)',
    [
      ['command git status', 'allow'],
      ['command -- git status', 'allow'],
      // The lookups run nothing: the gate answers them from the fixed PATH (shell-decision.test.ts shows the plan).
      ['command -v git', 'allow'],
      ['command -V git', 'allow'],
      ['command -v no-such-program', 'allow', 'issue'],
      ['type git', 'allow', 'issue'],
      ['type -P git', 'allow'],
      ['type -p git', 'allow'],
      ['type -t git', 'allow'],
      ['command -v git ls', ARGUMENT],
      ['command -v ./git', ARGUMENT],
      ['command -v /usr/bin/git', ARGUMENT],
      ['command -v -- git', ARGUMENT],
      ['command -v', ARGUMENT],
      ['command -v -p git', ARGUMENT],
      ['command -vp git', ARGUMENT],
      ['type -a git', ARGUMENT],
      ['type -f git', ARGUMENT],
      ['type', ARGUMENT],
      ['nice command -v git', NOT_ALLOWED],
      ['env type git', NOT_ALLOWED],
      ['command command -v git', NOT_ALLOWED],
      ['LD_PRELOAD=/x.so command -v git', ASSIGNMENT],
      ['command -p git status', ARGUMENT],
      ['command -pv git', ARGUMENT],
      ['command sh -c id', ARGUMENT],
      ['command command git status', NOT_ALLOWED],
      ['LD_PRELOAD=/x.so command git status', ASSIGNMENT],
    ],
  ],
  [
    'nesting and depth',
    [
      ['nice nice nice nice git status', 'allow'],
      ['nice nice nice nice nice git status', NOT_ALLOWED],
      ['nice nohup stdbuf -oL timeout 5 git status', 'allow'],
      ['env nice nohup stdbuf -oL timeout 5 git status', NOT_ALLOWED],
      ['env A=1 timeout 5 sh -c id', ARGUMENT],
      ['env A=1 timeout 5 env LD_PRELOAD=/x.so git status', ASSIGNMENT],
      ['env env sh -c id', ARGUMENT],
      ['nohup env -S "nice sh -c id"', ARGUMENT],
      ['LANG=C timeout 5 env B=2 git status', 'allow'],
      ['PAGER=sh timeout 5 git log', ASSIGNMENT],
    ],
  ],
  [
    'programs that run commands the gate cannot check, allowlisted or not',
    [
      ['xargs git', NOT_ALLOWED],
      ['timeout 5 xargs -0 cat', NOT_ALLOWED],
      ['chrt 1 git status', NOT_ALLOWED],
      ['busybox sh -c id', NOT_ALLOWED],
      ['busybox env sh', NOT_ALLOWED],
      ['setsid git status', NOT_ALLOWED],
      ['strace git status', NOT_ALLOWED],
      ['/usr/bin/time git status', NOT_ALLOWED],
      ['nice taskset 1 git status', NOT_ALLOWED],
      ['sudo git status', NOT_ALLOWED],
      ['doas git status', NOT_ALLOWED],
      ['su -c id', NOT_ALLOWED],
      ['exec git status', NOT_ALLOWED],
      ['eval git status', NOT_ALLOWED],
      ['builtin cd sub', NOT_ALLOWED],
      ['source x.sh', NOT_ALLOWED],
      ['. x.sh', NOT_ALLOWED],
      ['watch git status', NOT_ALLOWED],
      ['parallel git', NOT_ALLOWED],
      ['script -c id', NOT_ALLOWED],
      ['flock x git status', NOT_ALLOWED],
      ['sh -c id', ARGUMENT],
      ["bash -c 'git status'", ARGUMENT],
    ],
  ],
  [
    'find -exec and the like',
    [
      ['find . -name x', 'allow'],
      ["find . -exec sh -c id ';'", ARGUMENT],
      ["find . -exec cat '{}' ';'", 'allow'], // {}: the files under ., read by cat
      ["find . -exec cat '{}' +", 'allow'],
      ["find . -exec cat 'x{}' ';'", ARGUMENT],
      ["find . -exec cat {} ';'", 'allow'], // a lone unquoted {} is a plain word
      ['find . -exec cat {} \\;', 'allow'],
      ["find . -exec cat {}x ';'", CONSTRUCT], // other unquoted braces never reach the rules
      ["find . -exec rm '{}' ';'", ARGUMENT],
      ["find . -execdir git status ';'", ARGUMENT],
      ["find . -okdir ls ';'", ARGUMENT],
      ["find . -ok rm -rf / ';'", ARGUMENT],
      ["find . -exec sudo id ';'", NOT_ALLOWED],
      ["find . -exec nice sh -c id ';'", ARGUMENT],
      ['find . -exec git status', ARGUMENT],
      ["find . -exec git status ';'", 'allow'], // the command it runs is checked as if it stood alone, and passes
      ["timeout 5 find . -exec sh -c id ';'", ARGUMENT],
    ],
  ],
  [
    'leading assignments (item 5)',
    [
      ['RUST_BACKTRACE=1 cargo test', 'allow'],
      ['NODE_ENV=test npm test', 'allow'],
      ['A=1 B=2 npm run build', 'allow'],
      ['RUST_LOG=debug cargo run', 'allow'],
      ["FOO='a b/c' git log", 'allow'],
      ['CI=true npm test', 'allow'],
      ['GOOS=linux GOARCH=arm64 git status', 'allow'],
      ['LANG=C.UTF-8 LC_ALL=C git log', 'allow'],
      ['TZ=Europe/Paris git log', 'allow'],
      ['TZ=UTC0 git log', 'allow'],
      ['LD_PRELOAD=/x.so git log', ASSIGNMENT],
      ['ld_preload=/x.so git log', ASSIGNMENT],
      ['Path=/tmp git log', ASSIGNMENT],
      ['GIT_DIR=/tmp/x git log', ASSIGNMENT],
      ["NODE_OPTIONS='--require ./x.js' npm test", ASSIGNMENT],
      ['npm_config_script_shell=sh npm test', ASSIGNMENT],
      ['NPM_CONFIG_SCRIPT_SHELL=sh npm test', ASSIGNMENT],
      ['RUSTC_WRAPPER=./x cargo build', ASSIGNMENT],
      ['CARGO_TARGET_DIR=/tmp cargo build', ASSIGNMENT],
      ['CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=sh cargo test', ASSIGNMENT],
      ['JAVA_TOOL_OPTIONS=-javaagent:x.jar git log', ASSIGNMENT],
      ['PYTHONPATH=. npm test', ASSIGNMENT],
      ["LESSOPEN='|sh x' git log", ASSIGNMENT],
      ['PAGER=sh git log', ASSIGNMENT],
      ['BASH_ENV=x.sh git log', ASSIGNMENT],
      ['HOME=/tmp git log', ASSIGNMENT],
      ['XDG_CONFIG_HOME=x git log', ASSIGNMENT],
      ['POSIXLY_CORRECT=1 cat a.txt', ASSIGNMENT],
      ['HTTPS_PROXY=http://127.0.0.1:1 npm test', ASSIGNMENT],
      ['https_proxy=http://127.0.0.1:1 npm test', ASSIGNMENT],
      ['TMPDIR=/tmp npm test', ASSIGNMENT],
      ['DOTNET_STARTUP_HOOKS=x.dll git log', ASSIGNMENT],
      ['LANG=../../tmp/x git log', ASSIGNMENT],
      ['LC_ALL=/tmp/x git log', ASSIGNMENT],
      ['LANGUAGE=../x git log', ASSIGNMENT],
      ['TERM=../x git log', ASSIGNMENT],
      ['TZ=/etc/localtime git log', ASSIGNMENT],
      ['TZ=:/etc/localtime git log', ASSIGNMENT],
      ['TZ=../../tmp/zone git log', ASSIGNMENT],
      ['A=1 LD_PRELOAD=/x.so git log', ASSIGNMENT],
    ],
  ],
  [
    'assignment-only parts and shell-state builtins stay denied',
    [
      ['A=1', CONSTRUCT],
      ['A=1 && git status', CONSTRUCT],
      ['git status; B=2', CONSTRUCT],
      ['A=1 B=2', CONSTRUCT],
      ['export A=1', NOT_ALLOWED],
      ['typeset A=1', NOT_ALLOWED],
      ['declare A=1', NOT_ALLOWED],
      ['readonly A=1', NOT_ALLOWED],
      ['alias ls=rm', NOT_ALLOWED],
      ['hash -p /tmp/x git', NOT_ALLOWED],
      ['shopt -s extglob', NOT_ALLOWED],
      ['set -x', NOT_ALLOWED],
      ['unset PATH', NOT_ALLOWED],
      ['A=1 export B=2', NOT_ALLOWED],
    ],
  ],
];

function contextFor(t: ExecutionContext, allow: readonly string[]): ShellContext {
  const root = realpathSync(tempDir(t, 'zb-corpus-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  for (const dir of [bin, path.join(ws, 'sub')]) mkdirSync(dir, { recursive: true });
  for (const name of STUBS) {
    writeFileSync(path.join(bin, name), '#!/bin/sh\n');
    chmodSync(path.join(bin, name), 0o755);
  }
  writeFileSync(path.join(ws, 'a.txt'), 'a');
  writeFileSync(path.join(root, 'outside.txt'), 'secret');
  return {
    mode: 'allowlist',
    allow,
    scopes: compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') }),
    searchPath: [bin],
    trustedDirectories: [bin],
    confined: true,
  };
}

for (const [group, cases] of CORPUS) {
  test(`corpus: ${group}`, (t) => {
    const contexts = { issue: contextFor(t, ALLOWLISTS.issue), all: contextFor(t, ALLOWLISTS.all) };
    for (const [command, expected, allowlist = 'all'] of cases) {
      const decision = decideShellCommand(command, contexts[allowlist]);
      if (expected === 'allow') {
        t.true(decision.allow, `${command} should be allowed: ${decision.allow ? '' : `${decision.code} ${decision.reason}`}`);
      } else {
        t.false(decision.allow, `${command} should be denied with ${expected}`);
        if (!decision.allow) t.is(decision.code, expected, `${command}: ${decision.reason}`);
      }
    }
  });
}
