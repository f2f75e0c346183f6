import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_SEARCH_PATH, commandEnvironment, TRUSTED_PROGRAM_DIRECTORIES } from '../../../src/host/executors/command-environment.js';
import { executeBash } from '../../../src/host/executors/bash.js';
import type { ApprovedShell } from '../../../src/policy/gate-server.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../../src/policy/shell-decision.js';
import { confinedIsolation, unconfinedIsolation } from '../../fixtures/isolation.js';
import { tempDir } from '../../fixtures/temp.js';

function setup(t: ExecutionContext, allow = ['printf', 'cat', 'wc', 'true', 'false', 'sleep', 'env', 'pwd', 'head', 'sh', 'yes', 'ls', 'tr']) {
  const root = realpathSync(tempDir(t, 'zb-bash-'));
  const ws = path.join(root, 'ws');
  const data = path.join(root, 'data');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  mkdirSync(data);
  writeFileSync(path.join(ws, 'sub', 'f.txt'), 'a\nb\nc\n');
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: data });
  const shell: ShellContext = { mode: 'allowlist', allow, scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  const approve = (command: string, mode: 'allowlist' | 'ask' = 'allowlist'): ApprovedShell => {
    const decision = decideShellCommand(command, { ...shell, mode });
    if (!decision.allow) throw new Error(decision.reason);
    return decision;
  };
  const isolation = confinedIsolation({ readRoots: [ws], writeRoots: [ws] });
  // A generous time limit: a loaded machine starts sandboxes slowly, and only the timeout test needs a short one.
  const run = (decision: ApprovedShell, timeoutMs = 30_000, outputCapBytes = 65536) => executeBash(decision, { workspace: ws, timeoutMs, outputCapBytes, isolation, shell });
  return { ws, data, approve, run, shell };
}

test("a pipeline runs with pipes between its commands, and its status is the last command's", async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve("printf 'x\\ny\\nz\\n' | wc -l"));
  t.like(result, { exitCode: 0, stdout: '3\n', timedOut: false, truncated: false });
  t.is((await run(approve('false | true'))).exitCode, 0);
  t.is((await run(approve('true | false'))).exitCode, 1);
});

test("every command of a pipeline gets /etc's files whole, not only the first (each sandbox reads its own copy)", async (t) => {
  const { approve, run } = setup(t);
  // ls -l names the owner (uid 65534 inside) from /etc/passwd: a number instead of "nobody" means an empty copy.
  const alone = await run(approve('ls -l sub'));
  t.regex(alone.stdout, / nobody /u, alone.stderr);
  const piped = await run(approve('true | ls -l sub | cat'));
  t.is(piped.exitCode, 0, piped.stderr);
  t.is(piped.stdout, alone.stdout);
  t.is((await run(approve('ls -l sub | cat | ls -l sub'))).stdout, alone.stdout);
});

test('; && || follow bash: && runs after success, || after failure, ; always', async (t) => {
  const { approve, run } = setup(t);
  t.is((await run(approve('true && printf a || printf b ; printf c'))).stdout, 'ac');
  t.is((await run(approve('false && printf a || printf b ; printf c'))).stdout, 'bc');
  t.is((await run(approve('false ; printf c'))).stdout, 'c');
  t.is((await run(approve('false || false'))).exitCode, 1);
});

test('arguments arrive exactly as approved, never re-parsed by a shell', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve(`printf '%s|' 'a b' '$(id)' '*' ';' "q\\"uote"`));
  t.is(result.stdout, 'a b|$(id)|*|;|q"uote|');
});

function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  ); // env prints NAME=value lines
}

test("commands get the fixed environment with a private home, and nothing from the user's", async (t) => {
  const { approve, run, data } = setup(t);
  const env = parseEnv((await run(approve('LANG=C env'))).stdout);
  t.is(env['HOME'], '/tmp/home');
  t.not(env['HOME'], data);
  t.is(env['XDG_CONFIG_HOME'], '/tmp/home/.config');
  t.is(env['PATH'], COMMAND_SEARCH_PATH.join(':'));
  t.is(env['LANG'], 'C');
  t.is(env['GIT_CONFIG_GLOBAL'], '/dev/null');
  t.is(env['GIT_CONFIG_NOSYSTEM'], '1');
  // Whatever the test process holds (an API key, a token) never reaches a command.
  // Names the fixed environment sets itself (npm_config_* when npm runs the tests) carry zotbox's values, never the process's.
  const fixed = commandEnvironment('/tmp/home');
  for (const name of Object.keys(process.env)) {
    if (['PATH', 'HOME', 'LANG', 'TERM', 'PAGER', 'EDITOR', 'VISUAL', 'PWD'].includes(name) || name.startsWith('XDG_')) continue;
    t.is(env[name], fixed[name], name);
  }
});

test('ask mode gets exactly the scrubbed environment allowlist mode gets', async (t) => {
  const { approve, run, ws } = setup(t);
  const allowlisted = parseEnv((await run(approve('env'))).stdout);
  const asked = parseEnv((await run(approve('env', 'ask'))).stdout);
  delete asked['_']; // bash exports the path of the last command it ran
  delete asked['SHLVL'];
  delete asked['OLDPWD'];
  t.deepEqual(asked, allowlisted);
  t.is(asked['PWD'], ws); // bwrap's --chdir sets it for both
});

test('stdin is closed: a command reading it gets end of input at once', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve('cat'), 30_000);
  t.like(result, { exitCode: 0, stdout: '', timedOut: false });
});

/**
 * Sleep lengths unique to this test process, so that another test run on the same machine
 * (running these same tests) never owns a process these tests look for: 47.123 becomes 47.123<pid>.
 */
const unique = (seconds: string) => `${seconds}${process.pid}`;

/** Processes that run `sleep <seconds>` (a zombie's command line is empty, so only live ones count). */
function sleepsOf(seconds: string): number[] {
  return processesWith(`sleep\0${seconds}\0`);
}

/** Processes whose command line holds `marker` (a zombie's is empty, so only live ones count). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false; // exited while listing
      }
    })
    .map(Number);
}

/** Aborts when `file` appears in `directory`: the command has started what the test needs. */
function abortWhenCreated(directory: string, file: string): AbortController {
  const controller = new AbortController();
  const watcher = watch(directory, (_event, name) => {
    if (name === file) {
      watcher.close();
      controller.abort();
    }
  });
  controller.signal.addEventListener('abort', () => watcher.close());
  return controller;
}

for (const confined of [true, false]) {
  test(`${confined ? 'confined' : 'unconfined'}: cancelling kills every process the command started, grandchildren included`, async (t) => {
    const { approve, ws, data, shell } = setup(t);
    const isolation = confined ? confinedIsolation({ readRoots: [ws], writeRoots: [ws] }) : unconfinedIsolation({ readRoots: [ws], writeRoots: [ws] });
    const marker = unique(confined ? '47.123' : '47.321');
    const controller = abortWhenCreated(ws, 'started');
    const result = await executeBash(approve(`sleep ${marker} & touch started; wait`, 'ask'), { workspace: ws, timeoutMs: 60_000, outputCapBytes: 4096, isolation, shell, signal: controller.signal });
    t.not(result.exitCode, 0);
    t.deepEqual(sleepsOf(marker), [], `no sleep ${marker} left (data ${data})`);
  });
}

test('unconfined: a background process left by a command that already exited ends with the call', async (t) => {
  const { approve, ws, shell } = setup(t);
  const isolation = unconfinedIsolation({ readRoots: [ws], writeRoots: [ws] });
  // The shell exits at once; its background sleep keeps running in the same session until zotbox ends it.
  const marker = unique('47.555');
  const result = await executeBash(approve(`timeout 60 sh -c 'sleep ${marker} & exit 0'`, 'ask'), { workspace: ws, timeoutMs: 60_000, outputCapBytes: 4096, isolation, shell });
  t.is(result.exitCode, 0);
  t.false(result.timedOut);
  t.deepEqual(sleepsOf(marker), []);
});

test("confined: a process that left the command's session and group still ends with the call (its PID namespace ends)", async (t) => {
  const { approve, ws, shell } = setup(t);
  // No /proc scan runs for a confined command (bash.ts): what setsid(1) takes out of the session must still end,
  // because the sandbox's init dies with the command and the kernel kills its whole PID namespace.
  const marker = unique('47.777');
  const result = await executeBash(approve(`timeout 60 sh -c 'setsid sleep ${marker} & exit 0'`, 'ask'), {
    workspace: ws,
    timeoutMs: 60_000,
    outputCapBytes: 4096,
    isolation: confinedIsolation({ readRoots: [ws], writeRoots: [ws] }),
    shell,
  });
  t.is(result.exitCode, 0, result.stderr);
  t.false(result.timedOut);
  t.deepEqual(sleepsOf(marker), []);
});

test('unconfined: a chain of processes that fork and exit faster than one scan is ended with the call', async (t) => {
  const { approve, ws, shell } = setup(t);
  const isolation = unconfinedIsolation({ readRoots: [ws], writeRoots: [ws] });
  // Unique to this test process: with a fixed name, another test run on the machine had its own chain
  // running under that name when this one looked, and this test failed (issue 21 §8: 2 runs in 3 under load).
  const marker = `chain-${unique('47')}`;
  // Each generation starts the next in the background and exits at once: no leader stays to kill by group.
  // Whether this chain hits the reaper's worst moment depends on the machine; the reaper's own test
  // (confine/session-reaper.test.ts) makes it happen at every scan with a seam. Here the whole path is covered:
  // the call returns (no chain process holds its output open) and leaves nothing running.
  const result = await executeBash(approve(`bash -c 'g() { ( exec -a ${marker} sleep 0.002; ) ; ( g & ) ; }; g & exit 0'`, 'ask'), {
    workspace: ws,
    timeoutMs: 60_000,
    outputCapBytes: 4096,
    isolation,
    shell,
  });
  t.false(result.timedOut);
  t.deepEqual(processesWith(marker), []);
  t.deepEqual(processesWith(`g() { ( exec -a ${marker}`), []);
});

test("a line cut short by cancelling between its commands does not report the first command's success", async (t) => {
  const { approve, ws, shell } = setup(t);
  const controller = new AbortController();
  controller.abort();
  const result = await executeBash(approve('true && true'), {
    workspace: ws,
    timeoutMs: 30_000,
    outputCapBytes: 4096,
    isolation: confinedIsolation({ readRoots: [ws], writeRoots: [ws] }),
    shell,
    signal: controller.signal,
  });
  t.is(result.exitCode, null);
  t.is(result.signal, 'SIGKILL');
});

test('a timed-out command is killed, reported, and leaves no process behind', async (t) => {
  const { approve, run } = setup(t);
  // An hour-long sleep: the call can only return within the test's time if the limit killed it.
  const marker = unique('3600.75');
  const result = await run(approve(`sleep ${marker}`), 200);
  t.true(result.timedOut);
  t.is(result.signal, 'SIGKILL');
  t.regex(result.stderr, /killed after 200 ms/);
  t.deepEqual(sleepsOf(marker), []);
});

test('output beyond the cap is dropped with a notice', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve('yes | head -n 100000'), 30_000, 1000);
  t.true(result.truncated);
  t.regex(result.stdout, /\[zotbox: output truncated, \d+ more bytes not shown\]$/);
  t.true(result.stdout.length < 1200);
});

test('each command runs in the directory its cd reached; cd is decided again when it runs', async (t) => {
  const { approve, run, ws } = setup(t);
  t.is((await run(approve('cd sub && pwd'))).stdout, `${path.join(ws, 'sub')}\n`);
  t.is((await run(approve('cd sub && cat f.txt'))).stdout, 'a\nb\nc\n');
  const decision = approve('cd sub ; pwd');
  rmSync(path.join(ws, 'sub'), { recursive: true });
  const gone = await run(decision);
  // Denied when it was about to run: the line stops there, even after ;.
  t.like(gone, { exitCode: 126, stdout: '', stoppedByGate: { code: 'ZB_POLICY_SHELL_CD', command: 'cd sub' } });
});

test('ask mode runs the string with bash -c, in the workspace, with the same environment', async (t) => {
  const { approve, run, ws } = setup(t);
  const result = await run(approve('echo $((6*7)) > out.txt && cat out.txt && pwd && echo "$HOME" | wc -c', 'ask'));
  t.is(result.exitCode, 0);
  t.true(result.stdout.startsWith(`42\n${ws}\n`));
});

test('a program written as a trusted absolute path runs that very file', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve("/usr/bin/printf 'hi'"));
  t.like(result, { exitCode: 0, stdout: 'hi' });
});
