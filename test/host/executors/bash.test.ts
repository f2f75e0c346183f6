import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../../src/host/command-environment.js';
import { executeBash } from '../../../src/host/executors/bash.js';
import type { ApprovedShell } from '../../../src/policy/gate-server.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { decideShellCommand } from '../../../src/policy/shell-decision.js';
import { tempDir } from '../../fixtures/temp.js';

function setup(t: ExecutionContext, allow = ['printf', 'cat', 'wc', 'true', 'false', 'sleep', 'env', 'pwd', 'head', 'sh', 'yes', 'ls', 'tr']) {
  const root = realpathSync(tempDir(t, 'zb-bash-'));
  const ws = path.join(root, 'ws');
  const data = path.join(root, 'data');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  mkdirSync(data);
  writeFileSync(path.join(ws, 'sub', 'f.txt'), 'a\nb\nc\n');
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: data });
  const approve = (command: string, mode: 'allowlist' | 'ask' = 'allowlist'): ApprovedShell => {
    const decision = decideShellCommand(command, { mode, allow, scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES });
    if (!decision.allow) throw new Error(decision.reason);
    return decision;
  };
  const run = (decision: ApprovedShell, timeoutMs = 10_000, outputCapBytes = 65536) => executeBash(decision, { agentData: data, workspace: ws, timeoutMs, outputCapBytes });
  return { ws, data, approve, run };
}

test('a pipeline runs with pipes between its commands, and its status is the last command\'s', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve("printf 'x\\ny\\nz\\n' | wc -l"));
  t.like(result, { exitCode: 0, stdout: '3\n', timedOut: false, truncated: false });
  t.is((await run(approve('false | true'))).exitCode, 0);
  t.is((await run(approve('true | false'))).exitCode, 1);
});

test('; && || follow bash: && runs after success, || after failure, ; always', async (t) => {
  const { approve, run } = setup(t);
  t.is((await run(approve("true && printf a || printf b ; printf c"))).stdout, 'ac');
  t.is((await run(approve("false && printf a || printf b ; printf c"))).stdout, 'bc');
  t.is((await run(approve("false ; printf c"))).stdout, 'c');
  t.is((await run(approve('false || false'))).exitCode, 1);
});

test('arguments arrive exactly as approved, never re-parsed by a shell', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve(`printf '%s|' 'a b' '$(id)' '*' ';' "q\\"uote"`));
  t.is(result.stdout, 'a b|$(id)|*|;|q"uote|');
});

test('commands get the fixed environment and nothing from the user\'s', async (t) => {
  const { approve, run, data } = setup(t);
  process.env['ZOTBOX_TEST_SECRET'] = 'leaked';
  t.teardown(() => delete process.env['ZOTBOX_TEST_SECRET']);
  const env = Object.fromEntries((await run(approve('LANG=C env'))).stdout.trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2)));
  t.is(env['HOME'], data);
  t.is(env['PATH'], COMMAND_SEARCH_PATH.join(':'));
  t.is(env['LANG'], 'C');
  t.is(env['GIT_CONFIG_GLOBAL'], '/dev/null');
  t.is(env['ZOTBOX_TEST_SECRET'], undefined);
  t.false(Object.keys(env).some((k) => /TOKEN|KEY|SECRET/.test(k)));
});

test('stdin is closed: a command reading it gets end of input at once', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve('cat'), 5000);
  t.like(result, { exitCode: 0, stdout: '', timedOut: false });
});

test('a timeout kills the whole process group, grandchildren included', async (t) => {
  const { approve, run, ws } = setup(t);
  const result = await run(approve('sleep 30 & echo $! > grandchild.pid; wait', 'ask'), 300);
  t.true(result.timedOut);
  // Killing only bash would leave the sleep holding the output pipe for 30 s.
  t.true(result.durationMs < 5000, `returned after ${result.durationMs} ms`);
  const { readFileSync } = await import('node:fs');
  const pid = Number(readFileSync(path.join(ws, 'grandchild.pid'), 'utf8'));
  t.true(pid > 0);
  await new Promise((resolve) => setTimeout(resolve, 100));
  // Gone, or a zombie waiting for init to reap it (state Z): either way it no longer runs.
  let state = 'gone';
  try {
    state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0]!;
  } catch {
    // no such process
  }
  t.true(state === 'gone' || state === 'Z', `the background sleep is in state ${state}`);
});

test('a timed-out command is killed, reported, and leaves no process behind', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve('sleep 30'), 200);
  t.true(result.timedOut);
  t.is(result.signal, 'SIGKILL');
  t.regex(result.stderr, /killed after 200 ms/);
  t.true(result.durationMs < 5000);
});

test('output beyond the cap is dropped with a notice', async (t) => {
  const { approve, run } = setup(t);
  const result = await run(approve('yes | head -n 100000'), 10_000, 1000);
  t.true(result.truncated);
  t.regex(result.stdout, /\[zotbox: output truncated, \d+ more bytes not shown\]$/);
  t.true(result.stdout.length < 1200);
});

test('each command runs in the directory it was checked in; cd is re-verified when it runs', async (t) => {
  const { approve, run, ws } = setup(t);
  t.is((await run(approve('cd sub && pwd'))).stdout, `${path.join(ws, 'sub')}\n`);
  t.is((await run(approve('cd sub && cat f.txt'))).stdout, 'a\nb\nc\n');
  const decision = approve('cd sub && pwd');
  rmSync(path.join(ws, 'sub'), { recursive: true });
  const gone = await run(decision);
  t.is(gone.exitCode, 1);
  t.is(gone.stdout, '', 'the && after a failed cd does not run');
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
