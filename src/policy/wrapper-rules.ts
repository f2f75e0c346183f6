// The wrappers the bash gate unwraps (gate-rules §4, issue 10 item 2): programs
// whose job is to run another command. Data, not code: wrapper-unwrap.ts reads a
// row the way the program's own getopt reads its arguments, and the inner command
// is checked as if it stood alone, whether or not the wrapper is allowlisted.
// Each row lists every long option the program has (allowed or denied), so an
// abbreviation resolves here exactly as the program resolves it.

/** The kind of a wrapper's option value or operand; each is checked (wrapper-unwrap.ts, shell-decision.ts). */
export type WrapperValue =
  | 'duration' // timeout: 5, 1.5, 10s, 2m, 1h, 1d
  | 'signal' // TERM, SIGKILL, 9, RTMIN+1
  | 'niceness' // 10, -5, +3
  | 'buffer-size' // stdbuf: L, 0, 4096, 64K, 1MiB
  | 'io-class' // ionice: 0-3, none, realtime, best-effort, idle
  | 'io-level' // ionice: 0-7
  | 'unset-name' // env -u: a variable outside the dangerous set (assignment-rules.ts)
  | 'directory' // env -C: checked as a cd
  | 'split-string'; // env -S: split by the gate's own lexer and read again as env's arguments

export interface WrapperOption {
  readonly short?: string;
  readonly long?: string;
  /** The kind of value it takes; absent for a flag. */
  readonly value?: WrapperValue;
}

export interface DeniedWrapperOption {
  readonly short?: string;
  readonly long?: string;
  readonly why: string;
}

export interface WrapperRule {
  /** `program` runs as its own process and execs the command; `builtin` is a shell builtin: stripped, the command runs directly. */
  readonly kind: 'program' | 'builtin';
  readonly options: readonly WrapperOption[];
  /** The program's other options: denied, and listed so abbreviations resolve as in the program. */
  readonly denied: readonly DeniedWrapperOption[];
  /** Words after the options and before the command (timeout's DURATION). */
  readonly operands: readonly WrapperValue[];
  /** env: words containing "=" before the command are assignments, and a lone "-" means -i. */
  readonly assignments?: boolean;
  /** nice: "-10", "--10" and "-+10" set the adjustment, in any position among the options. */
  readonly numericOption?: WrapperValue;
  /** Runs the command as a child process rather than exec'ing it (timeout). */
  readonly forks?: boolean;
  /** Moves itself into a new process group unless it leads one already (timeout): run as another program's child, it escapes the run's time limit. */
  readonly newProcessGroup?: boolean;
  /** What it does with no command, where that is a use of its own (env prints the environment): then it is an ordinary program, allowed only when allowlisted. */
  readonly standalone?: string;
  /** What it does, for documentation. */
  readonly what: string;
}

const HELP_VERSION: readonly DeniedWrapperOption[] = [
  { long: 'help', why: 'prints help instead of running a command' },
  { long: 'version', why: 'prints a version instead of running a command' },
];

const SIGNAL_OPTIONS_WHY = 'changes how the command handles signals, which no command here needs';

export const WRAPPERS: ReadonlyMap<string, WrapperRule> = new Map<string, WrapperRule>([
  [
    'timeout',
    {
      kind: 'program',
      options: [{ short: 's', long: 'signal', value: 'signal' }, { short: 'k', long: 'kill-after', value: 'duration' }, { long: 'preserve-status' }, { short: 'v', long: 'verbose' }],
      denied: [{ long: 'foreground', why: "exists for commands on a terminal, which commands never have here, and lets the command's children outlive the timeout" }, ...HELP_VERSION],
      operands: ['duration'],
      forks: true,
      newProcessGroup: true,
      what: 'runs the command with a time limit',
    },
  ],
  [
    'nice',
    {
      kind: 'program',
      options: [{ short: 'n', long: 'adjustment', value: 'niceness' }],
      denied: HELP_VERSION,
      operands: [],
      numericOption: 'niceness',
      standalone: 'prints its scheduling priority',
      what: 'runs the command at another scheduling priority',
    },
  ],
  [
    'nohup',
    { kind: 'program', options: [], denied: HELP_VERSION, operands: [], what: 'runs the command immune to hangups (its output goes to nohup.out only on a terminal, which commands never have here)' },
  ],
  [
    'stdbuf',
    {
      kind: 'program',
      options: [
        { short: 'i', long: 'input', value: 'buffer-size' },
        { short: 'o', long: 'output', value: 'buffer-size' },
        { short: 'e', long: 'error', value: 'buffer-size' },
      ],
      denied: HELP_VERSION,
      operands: [],
      what: 'runs the command with other stdio buffering',
    },
  ],
  [
    'ionice',
    {
      kind: 'program',
      options: [
        { short: 'c', long: 'class', value: 'io-class' },
        { short: 'n', long: 'classdata', value: 'io-level' },
        { short: 't', long: 'ignore' },
      ],
      denied: [
        { short: 'p', long: 'pid', why: 'changes processes that are already running instead of running a command' },
        { short: 'P', long: 'pgid', why: 'changes processes that are already running instead of running a command' },
        { short: 'u', long: 'uid', why: 'changes processes that are already running instead of running a command' },
        { short: 'h', long: 'help', why: 'prints help instead of running a command' },
        { short: 'V', long: 'version', why: 'prints a version instead of running a command' },
      ],
      operands: [],
      standalone: 'prints its I/O priority',
      what: 'runs the command at another I/O priority',
    },
  ],
  [
    'env',
    {
      kind: 'program',
      options: [
        { short: 'u', long: 'unset', value: 'unset-name' },
        { short: 'C', long: 'chdir', value: 'directory' },
        { short: 'S', long: 'split-string', value: 'split-string' },
        { short: 'v', long: 'debug' },
      ],
      denied: [
        {
          short: 'i',
          long: 'ignore-environment',
          why: 'removes the fixed environment commands run with (PATH, the git and pager settings), so the command would be looked up and run differently from how it was checked',
        },
        { short: '0', long: 'null', why: 'only changes how env prints the environment, which it does not do when it runs a command' },
        { short: 'a', long: 'argv0', why: 'runs the command under another name' },
        { long: 'block-signal', why: SIGNAL_OPTIONS_WHY },
        { long: 'default-signal', why: SIGNAL_OPTIONS_WHY },
        { long: 'ignore-signal', why: SIGNAL_OPTIONS_WHY },
        { long: 'list-signal-handling', why: SIGNAL_OPTIONS_WHY },
        ...HELP_VERSION,
      ],
      operands: [],
      assignments: true,
      standalone: 'prints the environment',
      what: 'runs the command with variables set (checked as leading assignments) or unset, in another directory (checked as a cd), or with arguments split from one string (checked again)',
    },
  ],
  [
    'command',
    {
      kind: 'builtin',
      options: [],
      denied: [
        { short: 'p', why: 'looks the command up in a default PATH instead of the fixed one' },
        { short: 'v', why: 'describes a command instead of running it: write command -v NAME on its own' },
        { short: 'V', why: 'describes a command instead of running it: write command -V NAME on its own' },
      ],
      operands: [],
      what: 'the shell builtin: stripped, and the command runs directly',
    },
  ],
]);

/** Most nested wrappers (and env -S splits) in one command. */
export const MAX_WRAPPER_DEPTH = 4;

/**
 * Programs that run a command named in their arguments and that the gate does
 * not unwrap: always denied, allowlisted or not, because what they would run
 * cannot be checked. (Privilege changers, shells' own runners and xargs are in
 * never-allowed.ts ALWAYS_DENIED; find's -exec is read by argument-rules/find-expression.ts.)
 */
export const UNCHECKED_RUNNERS: ReadonlyMap<string, string> = new Map<string, string>([
  ...['chrt', 'taskset', 'prlimit', 'numactl', 'cgexec', 'setarch', 'linux32', 'linux64', 'uname26'].map((name): [string, string] => [name, 'runs a command with other process attributes']),
  ...['runuser', 'setpriv', 'sg', 'newgrp', 'fakeroot', 'fakechroot', 'capsh', 'firejail', 'bwrap', 'systemd-run', 'run0', 'flatpak-spawn'].map((name): [string, string] => [
    name,
    'runs a command with other credentials or in another sandbox',
  ]),
  ...['strace', 'ltrace', 'gdb', 'valgrind', 'perf', 'time', 'catchsegv', 'faketime', 'nocache', 'unbuffer', 'expect', 'rlwrap'].map((name): [string, string] => [
    name,
    'runs a command under a tracer or helper',
  ]),
  ...['proxychains', 'proxychains4', 'torsocks', 'tsocks', 'trickle'].map((name): [string, string] => [name, 'runs a command with its network redirected']),
  ...[
    'chpst',
    'softlimit',
    'envdir',
    'envuidgid',
    'setuidgid',
    'setlock',
    'lckdo',
    'chronic',
    'ifne',
    'pee',
    'mispipe',
    'sem',
    'run-parts',
    'start-stop-daemon',
    'daemonize',
    'dtach',
    'screen',
    'tmux',
    'abduco',
    'dbus-run-session',
    'xvfb-run',
    'ssh-agent',
    'sshpass',
    'direnv',
    'entr',
    'watchexec',
    'nodemon',
    'at',
    'batch',
  ].map((name): [string, string] => [name, 'runs a command given in its arguments or input']),
  // The dynamic loader runs any program file given to it (a never-allowed one too); ldd may run the program it
  // inspects (a file with its own loader), which its manual warns of.
  ['ld.so', 'loads and runs the program file given in its arguments (the dynamic loader)'],
  ['ldd', 'may run the program it is given (its manual warns not to use it on untrusted files)'],
  // glibc's tracing helpers run the program in their arguments with a library preloaded (memusage, xtrace) or audited (sotruss).
  ...['sotruss', 'memusage', 'xtrace'].map((name): [string, string] => [name, 'runs the program given in its arguments with a tracing library loaded into it']),
  ['busybox', 'runs its applets (shells, env, xargs, timeout...), which are other programs with options of their own'],
  ['toybox', 'runs its applets (shells, env, xargs, timeout...), which are other programs with options of their own'],
  ['coreutils', 'runs its applets (chroot, env, nohup, timeout...), which are other programs with options of their own'],
]);
