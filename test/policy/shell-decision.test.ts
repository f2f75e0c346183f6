import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../src/errors.js';
import type { BashMode } from '../../src/policy/manifest.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { tempDir } from '../fixtures/temp.js';

interface Setup {
  readonly context: ShellContext;
  readonly bin: string;
  readonly ws: string;
  readonly root: string;
}

function setup(t: ExecutionContext, options: { mode?: BashMode; allow?: string[] } = {}): Setup {
  const root = realpathSync(tempDir(t, 'zb-shell-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  for (const dir of [bin, ws, path.join(ws, 'sub'), path.join(root, 'evil')]) mkdirSync(dir, { recursive: true });
  for (const name of ['git', 'ls', 'grep', 'cat', 'timeout', 'nice', 'env', 'nohup', 'stdbuf', 'cp', 'mv', 'touch', 'mkdir', 'ln', 'tee', 'rm', 'chmod', 'truncate']) {
    writeFileSync(path.join(bin, name), '#!/bin/sh\n');
    chmodSync(path.join(bin, name), 0o755);
  }
  writeFileSync(path.join(root, 'evil', 'git'), '#!/bin/sh\n');
  chmodSync(path.join(root, 'evil', 'git'), 0o755);
  writeFileSync(path.join(ws, 'file.txt'), 'x');
  return {
    root,
    bin,
    ws,
    context: {
      mode: options.mode ?? 'allowlist',
      allow: options.allow ?? ['git', 'ls', 'grep', 'cat'],
      scopes: compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') }),
      searchPath: [bin],
      trustedDirectories: [bin],
      confined: true,
    },
  };
}

function expectDenied(t: ExecutionContext, context: ShellContext, command: string, code: ErrorCode): void {
  const decision = decideShellCommand(command, context);
  t.false(decision.allow, `should be denied: ${command}`);
  if (!decision.allow) {
    t.is(decision.code, code, `${command}: ${decision.reason}`);
    t.regex(decision.reason, /^bash denied: /);
  }
}

test('mode none denies everything and names the field', (t) => {
  const { context } = setup(t, { mode: 'none' });
  expectDenied(t, context, 'ls', 'ZB_POLICY_NO_PERMISSION');
});

test('mode ask allows any command for bash -c, but never an empty one or a NUL', (t) => {
  const { context } = setup(t, { mode: 'ask' });
  const decision = decideShellCommand('rm -rf /tmp/x > /dev/null 2>&1 &', context);
  // Nothing is decided in ask mode: the record says no path is known, and a line the parser cannot read has no argv.
  t.deepEqual(decision, { allow: true, mode: 'ask', command: 'rm -rf /tmp/x > /dev/null 2>&1 &', facts: { paths: [], pathsComplete: false } });
  expectDenied(t, context, '  ', 'ZB_POLICY_SHELL_CONSTRUCT');
  expectDenied(t, context, 'ls\u0000', 'ZB_POLICY_SHELL_CONSTRUCT');
});

test('the record of a decision: the argv as parsed and every path decided, canonical, allowed or denied (issue 22 §1)', (t) => {
  const { context, ws, root } = setup(t);
  symlinkSync(path.join(ws, 'file.txt'), path.join(ws, 'alias.txt'));
  // Allowed: quotes removed, each path canonical (the link resolved, the cd target too), every path known.
  const allowed = decideShellCommand("cat 'file'.txt alias.txt && cd sub && ls ../file.txt", context);
  t.true(allowed.allow);
  t.deepEqual(allowed.facts, {
    argv: [
      ['cat', 'file.txt', 'alias.txt'],
      ['cd', 'sub'],
      ['ls', '../file.txt'],
    ],
    paths: [path.join(ws, 'file.txt'), path.join(ws, 'sub')],
    pathsComplete: true,
  });
  // Denied: the path it was denied for is recorded, and the list is not complete (what came after was never decided).
  const denied = decideShellCommand(`cat file.txt ${path.join(root, 'evil', 'git')}; cat secret.txt`, context);
  t.false(denied.allow);
  t.deepEqual(denied.facts, {
    argv: [
      ['cat', 'file.txt', path.join(root, 'evil', 'git')],
      ['cat', 'secret.txt'],
    ],
    paths: [path.join(ws, 'file.txt'), path.join(root, 'evil', 'git')],
    pathsComplete: false,
  });
  // A line that does not parse: no argv, nothing known.
  t.deepEqual(decideShellCommand('cat $(echo file.txt)', context).facts, { paths: [], pathsComplete: false });
  // Ask mode: the argv as parsed when it parses, and no path known (nothing was decided).
  const { context: asking } = setup(t, { mode: 'ask' });
  t.deepEqual(decideShellCommand("cat 'secret'.txt", asking).facts, { argv: [['cat', 'secret.txt']], paths: [], pathsComplete: false });
});

test('an approved command carries the plan: canonical program, exact argv, env and cwd', (t) => {
  const { context, bin, ws } = setup(t);
  const decision = decideShellCommand("LANG=C git log --format='%h %s' | grep fix", context);
  t.true(decision.allow);
  if (decision.allow && decision.mode === 'allowlist') {
    t.deepEqual(decision.plan.items, [
      {
        connector: null,
        pipeline: [
          { kind: 'exec', program: path.join(bin, 'git'), invokedPath: path.join(bin, 'git'), argv: ['git', 'log', '--format=%h %s'], env: { LANG: 'C' }, cwd: ws },
          { kind: 'exec', program: path.join(bin, 'grep'), invokedPath: path.join(bin, 'grep'), argv: ['grep', 'fix'], env: {}, cwd: ws },
        ],
      },
    ]);
  }
});

test('a program must be allowlisted by its exact name', (t) => {
  const { context } = setup(t);
  for (const command of ['rm -rf x', 'GIT status', 'Git status', 'g\u0456t status', 'gits status']) expectDenied(t, context, command, 'ZB_POLICY_SHELL_NOT_ALLOWED');
});

test('a program written as a path must be in a trusted directory and be the file the PATH lookup finds', (t) => {
  const { context, bin, root } = setup(t);
  t.true(decideShellCommand(`${bin}/git status`, context).allow);
  expectDenied(t, context, './git status', 'ZB_POLICY_SHELL_PROGRAM');
  expectDenied(t, context, `${root}/evil/git status`, 'ZB_POLICY_SHELL_PROGRAM');
  expectDenied(t, context, 'sub/git status', 'ZB_POLICY_SHELL_PROGRAM');
  expectDenied(t, context, `${bin}/../evil/git status`, 'ZB_POLICY_SHELL_PROGRAM');
  // A same-named file in a trusted directory that is not the PATH's git.
  const other = path.join(root, 'bin2');
  mkdirSync(other);
  symlinkSync(path.join(root, 'evil', 'git'), path.join(other, 'git'));
  const withTwo = { ...context, trustedDirectories: [bin, other] };
  expectDenied(t, withTwo, `${other}/git status`, 'ZB_POLICY_SHELL_PROGRAM');
});

test('a program missing from the fixed PATH is denied even when allowlisted', (t) => {
  const { context } = setup(t, { allow: ['git', 'missing-tool'] });
  expectDenied(t, context, 'missing-tool', 'ZB_POLICY_SHELL_PROGRAM');
});

test('assignments: any name outside the dangerous set passes with a literal value; the dangerous set is denied', (t) => {
  const { context } = setup(t);
  t.true(decideShellCommand('LANG=C LC_ALL=C.UTF-8 TZ=UTC git log', context).allow);
  t.true(decideShellCommand("FOO='a b/c' git log", context).allow);
  for (const name of [
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'DYLD_INSERT_LIBRARIES',
    'PATH',
    'HOME',
    'GIT_PAGER',
    'GIT_SSH_COMMAND',
    'GIT_CONFIG_GLOBAL',
    'PAGER',
    'MANPAGER',
    'EDITOR',
    'VISUAL',
    'BASH_ENV',
    'ENV',
    'IFS',
    'PS4',
    'PROMPT_COMMAND',
    'NODE_OPTIONS',
    'NODE_PATH',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'PERL5OPT',
    'RUBYOPT',
    'GOFLAGS',
    'CGO_CFLAGS',
    'RUSTC_WRAPPER',
    'RUSTFLAGS',
    'CARGO_HOME',
    'npm_config_script_shell',
    'LESSOPEN',
    'LESSCLOSE',
    'SSH_ASKPASS',
    'GCONV_PATH',
    'GLIBC_TUNABLES',
    'XDG_CONFIG_HOME',
    'SHELLOPTS',
  ]) {
    expectDenied(t, context, `${name}=x git log`, 'ZB_POLICY_SHELL_ASSIGNMENT');
  }
  expectDenied(t, context, 'LANG=../../x git log', 'ZB_POLICY_SHELL_ASSIGNMENT');
  expectDenied(t, context, 'TZ=/etc/localtime git log', 'ZB_POLICY_SHELL_ASSIGNMENT');
});

test('wrappers: the inner command is checked as if it stood alone, and the wrapper runs it', (t) => {
  const { context, bin } = setup(t);
  for (const command of [
    'timeout 5 git status',
    'timeout -s KILL 5 git status',
    'timeout --signal=TERM -k 1 5 git log',
    'nice -n 10 git status',
    'nice -10 ls',
    'nohup git status',
    'stdbuf -oL grep x',
    'env LANG=C git status',
    'command git status',
    'timeout 5 nice -n 1 git status',
  ]) {
    const decision = decideShellCommand(command, context);
    t.true(decision.allow, `${command}: ${decision.allow ? '' : decision.reason}`);
  }
  const wrapped = decideShellCommand('timeout 5 git status', context);
  if (wrapped.allow && wrapped.mode === 'allowlist') {
    const step = wrapped.plan.items[0]!.pipeline[0]!;
    t.deepEqual(step.kind === 'exec' ? [step.program, step.argv] : [], [path.join(bin, 'timeout'), ['timeout', '5', 'git', 'status']]);
  }
  expectDenied(t, context, 'timeout 5 rm -rf /', 'ZB_POLICY_SHELL_NOT_ALLOWED');
  expectDenied(t, context, 'nice sudo ls', 'ZB_POLICY_SHELL_NOT_ALLOWED');
  expectDenied(t, context, 'env LD_PRELOAD=/x.so git status', 'ZB_POLICY_SHELL_ASSIGNMENT');
  expectDenied(t, context, 'env -i git status', 'ZB_POLICY_SHELL_ARGUMENT');
  expectDenied(t, context, 'timeout 5', 'ZB_POLICY_SHELL_ARGUMENT');
  expectDenied(t, context, 'timeout 5 git config x y', 'ZB_POLICY_SHELL_ARGUMENT');
  expectDenied(t, context, 'nice nice nice nice nice git status', 'ZB_POLICY_SHELL_NOT_ALLOWED');
  expectDenied(t, context, 'command -v git status', 'ZB_POLICY_SHELL_ARGUMENT');
});

test('command -v, command -V and type look a program up on the fixed PATH and run nothing of it: the plan prints what they found', (t) => {
  const { context, bin, ws } = setup(t);
  for (const name of ['printf', 'false']) {
    writeFileSync(path.join(bin, name), '#!/bin/sh\n');
    chmodSync(path.join(bin, name), 0o755);
  }
  const planOf = (command: string): unknown => {
    const decision = decideShellCommand(command, context);
    if (!decision.allow || decision.mode !== 'allowlist') return decision.allow ? decision.mode : `${decision.code}: ${decision.reason}`;
    const step = decision.plan.items.at(-1)!.pipeline[0]!;
    return step.kind === 'exec' ? { program: step.program, argv: step.argv, cwd: step.cwd } : step;
  };
  const printf = path.join(bin, 'printf');
  const git = path.join(bin, 'git');
  t.deepEqual(planOf('command -v git'), { program: printf, argv: ['printf', '%s\\n', git], cwd: ws });
  t.deepEqual(planOf('command -V git'), { program: printf, argv: ['printf', '%s is %s\\n', 'git', git], cwd: ws });
  t.deepEqual(planOf('type git'), { program: printf, argv: ['printf', '%s is %s\\n', 'git', git], cwd: ws });
  t.deepEqual(planOf('type -P git'), { program: printf, argv: ['printf', '%s\\n', git], cwd: ws });
  t.deepEqual(planOf('type -t git'), { program: printf, argv: ['printf', 'file\\n'], cwd: ws });
  // Not on the PATH (the evil directory holds a git, but is not on it): bash prints nothing and fails.
  t.deepEqual(planOf('command -v nothing-here'), { program: path.join(bin, 'false'), argv: ['false'], cwd: ws });
  t.deepEqual(planOf('cd sub && command -v git'), { program: printf, argv: ['printf', '%s\\n', git], cwd: path.join(ws, 'sub') }, 'from where the line is');
  // Not allowlisted: the lookup runs none of it, so the allowlist does not decide it.
  t.deepEqual(planOf('command -v rm'), { program: printf, argv: ['printf', '%s\\n', path.join(bin, 'rm')], cwd: ws });
  expectDenied(t, context, 'command -v git status', 'ZB_POLICY_SHELL_ARGUMENT');
  expectDenied(t, context, 'command rm -rf x', 'ZB_POLICY_SHELL_NOT_ALLOWED');
  expectDenied(t, context, 'command -p git status', 'ZB_POLICY_SHELL_ARGUMENT');
  expectDenied(t, context, `${bin}/command -v git`, 'ZB_POLICY_SHELL_NOT_ALLOWED');
});

test('cd: alone, one directory inside the read scopes; later commands are checked from there', (t) => {
  const { context, ws } = setup(t);
  const decision = decideShellCommand('cd sub && ls', context);
  t.true(decision.allow);
  if (decision.allow && decision.mode === 'allowlist') {
    t.deepEqual(decision.plan.items[0]!.pipeline[0], { kind: 'cd', directory: path.join(ws, 'sub') });
    const ls = decision.plan.items[1]!.pipeline[0]!;
    t.is(ls.kind === 'exec' ? ls.cwd : '', path.join(ws, 'sub'));
  }
  expectDenied(t, context, 'cd /etc && ls', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'cd .. && ls', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'cd sub && cat ../../outside', 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  expectDenied(t, context, 'cd', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'cd -', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'cd -P sub', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'cd file.txt', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'cd sub | ls', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'LANG=C cd sub', 'ZB_POLICY_SHELL_CD');
  expectDenied(t, context, 'timeout 1 cd sub', 'ZB_POLICY_SHELL_CD');
});

test("shell builtins that only change a shell's state are denied", (t) => {
  const { context } = setup(t, { allow: ['git', 'export', 'alias', 'set'] });
  for (const command of ['export A=1', 'alias ls=rm', 'set -x', 'eval ls', 'exec ls', 'source x', '. x', 'xargs ls']) {
    const decision = decideShellCommand(command, context);
    t.false(decision.allow, command);
  }
});

test("the reference runtime's bypasses are denied (spec B §6.4 and §10)", (t) => {
  const { context } = setup(t, { allow: ['git', 'grep', 'ls'] });
  for (const command of [
    'git status & rm -rf ~',
    '/tmp/evil/git',
    './git status',
    'GIT_PAGER=evil git log',
    'LD_PRELOAD=x git log',
    'git status; rm -rf /',
    'git ${IFS}status',
    'git status # ; rm',
    'echo ok\nrm -rf /',
    'git\u00a0status',
    "'' status",
    'git status|&grep x',
  ]) {
    t.false(decideShellCommand(command, context).allow, command);
  }
});

// Git metadata (issue 9 §3): a path argument is decided by decidePathAccess, the
// same function as the file tools, so the same names are protected.
const FILE_PROGRAMS = ['cp', 'mv', 'touch', 'mkdir', 'ln', 'tee', 'rm', 'chmod', 'truncate', 'cat', 'ls', 'git'];

function gitSetup(t: ExecutionContext): Setup {
  const base = setup(t, { allow: FILE_PROGRAMS });
  for (const dir of ['.git/hooks', 'tpl', 'sub/repo']) mkdirSync(path.join(base.ws, dir), { recursive: true });
  writeFileSync(path.join(base.ws, '.git', 'config'), '[core]\n');
  writeFileSync(path.join(base.ws, 'tpl', 'pre-commit'), '#!/bin/sh\n');
  symlinkSync(path.join(base.ws, '.git'), path.join(base.ws, 'meta'));
  return base;
}

const gitShellCases: readonly [string, ErrorCode | 'allow'][] = [
  ['cp x sub/.git', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp -r tpl/. .git/', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp tpl/pre-commit .git/hooks/pre-commit', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp tpl/pre-commit meta/hooks/pre-commit', 'ZB_POLICY_PATH_PROTECTED'],
  ['mv a .GIT', 'ZB_POLICY_PATH_PROTECTED'],
  ['mv .git .git-old', 'ZB_POLICY_PATH_PROTECTED'],
  ['mv tpl sub/repo/git~1', 'ZB_POLICY_PATH_PROTECTED'],
  ['touch .git/hooks/x', 'ZB_POLICY_PATH_PROTECTED'],
  ['touch sub/repo/.Git', 'ZB_POLICY_PATH_PROTECTED'],
  ['mkdir -p sub/repo/.git/hooks', 'ZB_POLICY_PATH_PROTECTED'],
  ['ln tpl/pre-commit .git/hooks/post-checkout', 'ZB_POLICY_PATH_PROTECTED'],
  ['tee .git/commondir', 'ZB_POLICY_PATH_PROTECTED'],
  ['rm .git/config', 'ZB_POLICY_PATH_PROTECTED'],
  ['chmod 755 .git/hooks/pre-commit.sample', 'ZB_POLICY_PATH_PROTECTED'],
  ['truncate -s 0 .git/info/exclude', 'ZB_POLICY_PATH_PROTECTED'],
  ['cd .git && touch hooks/pre-commit', 'ZB_POLICY_PATH_PROTECTED'],
  ['cd sub && cp ../tpl/pre-commit repo/.git', 'ZB_POLICY_PATH_PROTECTED'],
  // Reading git metadata stays allowed, and so does copying out of it.
  ['cat .git/config', 'allow'],
  ['ls .git/hooks', 'allow'],
  ['cp .git/config config-copy', 'allow'],
  ['cd .git && ls', 'allow'],
  ['touch .gitignore', 'allow'],
];

for (const [command, code] of gitShellCases) {
  test(`git metadata through bash: ${JSON.stringify(command)} → ${code}`, (t) => {
    const { context } = gitSetup(t);
    if (code === 'allow') {
      const decision = decideShellCommand(command, context);
      t.true(decision.allow, decision.allow ? '' : decision.reason);
    } else {
      expectDenied(t, context, command, code);
    }
  });
}

// Argument counting: a value counted as a path would move cp's destination to it,
// and the real destination would then be checked only for reading.
const countingCases: readonly [string, ErrorCode | 'allow'][] = [
  ['cp tpl/pre-commit .git/hooks/pre-commit --suffix x', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp tpl/pre-commit .git/hooks/pre-commit --suf x', 'ZB_POLICY_SHELL_ARGUMENT'], // an abbreviation: denied, never resolved
  ['cp tpl/pre-commit .git/hooks/pre-commit --sparse always', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp tpl/pre-commit .git/hooks/pre-commit --no-preserve mode', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp tpl/pre-commit .git/hooks/pre-commit -bS x', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp tpl/pre-commit .git/hooks/pre-commit -S x', 'ZB_POLICY_PATH_PROTECTED'],
  ['cp -bSx tpl/pre-commit copy', 'allow'],
  ['cp --suffix=x tpl/pre-commit .git/hooks/pre-commit', 'ZB_POLICY_PATH_PROTECTED'],
  ['chmod -w,u+x .git/hooks/pre-commit.sample', 'ZB_POLICY_SHELL_ARGUMENT'],
  ['chmod -x /etc/passwd', 'ZB_POLICY_SHELL_ARGUMENT'],
  ['chmod -R a-w tpl', 'allow'],
];

for (const [command, code] of countingCases) {
  test(`option values are not paths: ${JSON.stringify(command)} → ${code}`, (t) => {
    const { context } = gitSetup(t);
    if (code === 'allow') {
      const decision = decideShellCommand(command, context);
      t.true(decision.allow, decision.allow ? '' : decision.reason);
    } else {
      expectDenied(t, context, command, code);
    }
  });
}

test('the state directory is refused to bash path arguments and cd, as to the file tools', (t) => {
  const base = setup(t, { allow: FILE_PROGRAMS });
  const state = path.join(base.ws, '.zb-state');
  const mine = path.join(state, 'agents', 'me', 'data');
  mkdirSync(path.join(state, 'agents', 'me', 'consents'), { recursive: true });
  mkdirSync(mine, { recursive: true });
  const context = { ...base.context, scopes: compileScopes({ read: ['/'], write: ['/'] }, { workspace: base.ws, agentData: mine, stateDirectory: state }) };
  expectDenied(t, context, `cp x ${mine}/../consents/forged.json`, 'ZB_POLICY_PATH_PROTECTED');
  expectDenied(t, context, 'cat .zb-state/agents/me/consents/r.json', 'ZB_POLICY_PATH_PROTECTED');
  expectDenied(t, context, 'cd .zb-state', 'ZB_POLICY_PATH_PROTECTED');
  t.true(decideShellCommand(`touch ${mine}/notes.txt`, context).allow);
});
