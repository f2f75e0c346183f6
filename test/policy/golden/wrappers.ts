// Golden cases for what stands around a command: wrappers (env, timeout, nohup,
// nice, stdbuf), which grant nothing to what they run; xargs and the other
// never-allowed programs; program identity; syntax outside the accepted subset;
// and leading assignments (a dangerous set, compared case-insensitively).
import { ARGUMENT, ASSIGNMENT, CONSTRUCT, no, NOT_ALLOWED, ok, OUTSIDE, PROGRAM, type GoldenGroup } from './golden-case.js';

const DANGEROUS = 'the variable is in the dangerous set';
const OPTIONS_VAR = 'the program reads its options (or programs) from this variable';

export const WRAPPERS: readonly GoldenGroup[] = [
  {
    program: 'env',
    cases: [
      ok('env'),
      ok('env LANG=C sort a.txt'),
      ok('env -u LANG sort a.txt'),
      ok('env TZ=UTC git log -1'),
      no(ASSIGNMENT, 'env PATH={O} cat a.txt', DANGEROUS),
      no(ASSIGNMENT, 'env GIT_SSH_COMMAND=id git status', DANGEROUS),
      no(ARGUMENT, 'env -i cat a.txt', '-i drops the fixed environment the command was checked for'),
      no(OUTSIDE, 'env cat {S}', 'the wrapped command reads the secret'),
      no(OUTSIDE, "env -S 'cat {S}'", 'the split command reads the secret'),
      no(NOT_ALLOWED, 'env xargs rm', 'xargs is never allowed'),
      no(NOT_ALLOWED, 'env sudo id', 'sudo is never allowed'),
    ],
  },
  {
    program: 'timeout',
    cases: [
      ok('timeout 5 make test'),
      ok('timeout 10 npm test'),
      ok('timeout -s KILL 5 ls'),
      ok('timeout 1m git status'),
      no(OUTSIDE, 'timeout 5 cat {S}', 'reads the secret'),
      no(ARGUMENT, 'timeout 5 bash', 'bash with no script reads code from stdin'),
      no(ARGUMENT, 'timeout 5 curl file:///etc/passwd', 'only http(s) URLs'),
      no(NOT_ALLOWED, 'timeout 5 xargs rm', 'xargs is never allowed'),
      no(NOT_ALLOWED, 'timeout 5 sudo id', 'sudo is never allowed'),
    ],
  },
  {
    program: 'nohup',
    cases: [ok('nohup make test')],
  },
  {
    program: 'nice',
    cases: [ok('nice -n 5 make test')],
  },
  {
    program: 'stdbuf',
    cases: [ok('stdbuf -oL grep foo a.txt')],
  },
  {
    program: 'xargs',
    cases: [
      // Never allowed (what it runs is built from stdin), even allowlisted: there is no everyday use to allow.
      no(NOT_ALLOWED, 'xargs grep foo', 'xargs is never allowed'),
      no(NOT_ALLOWED, 'xargs -0 rm', 'xargs is never allowed'),
      no(NOT_ALLOWED, 'xargs sh -c id', 'xargs is never allowed'),
      no(NOT_ALLOWED, 'xargs -a patterns.txt echo', 'xargs is never allowed'),
      no(NOT_ALLOWED, "find . -name '*.txt' | xargs cat", 'xargs is never allowed'),
    ],
  },
  {
    program: 'never-allowed',
    cases: [
      no(NOT_ALLOWED, 'sudo cat a.txt', 'never allowed, even allowlisted'),
      no(NOT_ALLOWED, 'doas cat a.txt', 'never allowed'),
      no(NOT_ALLOWED, 'su -c id', 'never allowed'),
      no(NOT_ALLOWED, 'exec ls', 'never allowed'),
      no(NOT_ALLOWED, 'eval ls', 'never allowed'),
      no(NOT_ALLOWED, 'source script.sh', 'never allowed'),
      no(NOT_ALLOWED, '. script.sh', 'never allowed'),
      no(NOT_ALLOWED, 'setsid ls', 'never allowed'),
      no(NOT_ALLOWED, 'id', 'not in the allowlist'),
    ],
  },
  {
    program: 'identity',
    cases: [
      ok('/usr/bin/cat a.txt'),
      ok('/bin/cat a.txt'),
      no(PROGRAM, './script.sh', 'a program written as a path outside the trusted directories'),
      no(PROGRAM, '{W}/script.sh', 'a program written as a workspace path'),
      no(PROGRAM, '{ROOT}/stub-bin/rg foo', 'the stub directory is not a trusted directory'),
    ],
  },
  {
    program: 'syntax',
    cases: [
      no(CONSTRUCT, 'cat a.txt > {O}/x', 'redirection'),
      no(CONSTRUCT, 'cat $(echo a.txt)', 'command substitution'),
      no(CONSTRUCT, 'cat `echo a.txt`', 'command substitution'),
      no(CONSTRUCT, 'cat *.txt', 'an unquoted glob'),
      no(CONSTRUCT, 'cat a.txt &', 'a background job'),
      no(CONSTRUCT, 'A=$HOME cat a.txt', 'variable expansion'),
      no(CONSTRUCT, 'cat ~/.ssh/id_rsa', 'tilde expansion'),
    ],
  },
  {
    program: 'assignments',
    cases: [
      ok('LANG=C sort a.txt'),
      ok('TZ=UTC git log -1'),
      ok('CI=1 npm test'),
      ok("FOO='a b' make test"),
      no(ASSIGNMENT, 'LD_PRELOAD=/x.so cat a.txt', DANGEROUS),
      no(ASSIGNMENT, 'ld_preload=/x.so cat a.txt', `${DANGEROUS} (compared case-insensitively)`),
      no(ASSIGNMENT, 'HOME={O} git status', DANGEROUS),
      no(ASSIGNMENT, 'GIT_DIR={O} git status', DANGEROUS),
      no(ASSIGNMENT, 'GIT_SSH_COMMAND=id git status', DANGEROUS),
      no(ASSIGNMENT, 'PAGER=sh git log', DANGEROUS),
      no(ASSIGNMENT, 'MANPAGER=sh man ls', DANGEROUS),
      no(ASSIGNMENT, "LESSOPEN='|id %s' less a.txt", DANGEROUS),
      no(ASSIGNMENT, 'LESSKEYIN=k.txt less a.txt', DANGEROUS),
      no(ASSIGNMENT, "NODE_OPTIONS='--require ./script.js' node script.js", DANGEROUS),
      no(ASSIGNMENT, 'PYTHONSTARTUP=script.py python3 script.py', DANGEROUS),
      no(ASSIGNMENT, 'PYTHONPATH={O} python3 script.py', DANGEROUS),
      no(ASSIGNMENT, 'PERL5OPT=-Mstrict perl script.pl', DANGEROUS),
      no(ASSIGNMENT, 'RUBYOPT=-rsocket ruby script.rb', DANGEROUS),
      no(ASSIGNMENT, 'BASH_ENV=script.sh bash script.sh', DANGEROUS),
      no(ASSIGNMENT, 'ENV=script.sh sh script.sh', DANGEROUS),
      no(ASSIGNMENT, 'GOFLAGS=-toolexec=id go test ./...', DANGEROUS),
      no(ASSIGNMENT, 'RUSTC_WRAPPER=id cargo test', DANGEROUS),
      no(ASSIGNMENT, 'CARGO_HOME={O} cargo test', DANGEROUS),
      no(ASSIGNMENT, 'npm_config_script_shell={O}/sh npm test', DANGEROUS),
      no(ASSIGNMENT, 'NPM_CONFIG_SCRIPT_SHELL={O}/sh npm test', `${DANGEROUS} (compared case-insensitively)`),
      no(ASSIGNMENT, 'PIP_INDEX_URL=http://evil.example pip list', `${DANGEROUS} (package-manager variables)`),
      no(ASSIGNMENT, 'CURL_HOME=. curl https://example.com', DANGEROUS),
      no(ASSIGNMENT, 'WGETRC=k.txt wget https://example.com', DANGEROUS),
      no(ASSIGNMENT, 'POSIXLY_CORRECT=1 sort a.txt', 'POSIXLY_CORRECT changes how options are read'),
      no(ASSIGNMENT, "MAKEFLAGS='--eval=x:=$(shell id)' make", `${OPTIONS_VAR}: make reads --eval from MAKEFLAGS`),
      no(ASSIGNMENT, 'MAKEFILES=k.txt make', `${OPTIONS_VAR}: make reads the makefiles MAKEFILES names`),
      no(ASSIGNMENT, 'TAR_OPTIONS=--to-command=id tar -cf out.tar a.txt', `${OPTIONS_VAR}: GNU tar reads TAR_OPTIONS`),
      no(ASSIGNMENT, "ZIPOPT='-T -TT id' zip out.zip a.txt", `${OPTIONS_VAR}: zip reads ZIPOPT`),
      no(ASSIGNMENT, 'RSYNC_RSH=sh rsync a.txt host:x', `${OPTIONS_VAR}: RSYNC_RSH is the remote shell`),
    ],
  },
];
