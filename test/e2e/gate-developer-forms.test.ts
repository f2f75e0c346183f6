// The forms developers expect that the gate used to deny (issue 21 item 7, issue
// 24): each decided in allowlist mode by the real gate and then run by the real
// bash executor in the real sandbox, so both the decision and what runs are
// exercised. The expected output is written by hand from the files made here.
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import { executeBash, type BashResult } from '../../src/host/executors/bash.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { confinedIsolation } from '../fixtures/isolation.js';
import { tempDir } from '../fixtures/temp.js';

interface World {
  readonly ws: string;
  /** Decides `command` in allowlist mode and runs what was approved, confined; a denial fails the test. */
  run(command: string): Promise<BashResult>;
  /** The gate's decision alone: 'allow', or the denial's code. */
  decide(command: string): string;
}

function git(cwd: string, ...args: string[]): void {
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: cwd,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const result = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-dev-forms-'));
  const ws = path.join(root, 'ws');
  const data = path.join(root, 'state', 'agents', 'tester', 'data');
  const outside = path.join(root, 'outside');
  for (const dir of [path.join(ws, 'repo', 'src'), path.join(ws, 'notes', 'deep'), data, outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(ws, 'repo', 'src', 'main.txt'), 'main\n');
  writeFileSync(path.join(ws, 'notes', 'a.txt'), 'has NEEDLE here\n');
  writeFileSync(path.join(ws, 'notes', 'b.txt'), 'nothing\n');
  writeFileSync(path.join(ws, 'notes', 'deep', 'c.txt'), 'NEEDLE again\n');
  writeFileSync(path.join(ws, 'data.json'), '{"b": 1, "a": [1, 2]}');
  writeFileSync(path.join(ws, 'test_sample.py'), 'import unittest\n\nclass T(unittest.TestCase):\n    def test_adds(self):\n        self.assertEqual(1 + 1, 2)\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'NEEDLE outside\n');
  git(path.join(ws, 'repo'), 'init', '-q', '-b', 'main');
  git(path.join(ws, 'repo'), 'add', '-A');
  git(path.join(ws, 'repo'), 'commit', '-q', '-m', 'first commit');
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: data });
  const shell: ShellContext = {
    mode: 'allowlist',
    allow: ['git', 'find', 'grep', 'echo', 'python3', 'cat', 'sh'],
    scopes,
    searchPath: COMMAND_SEARCH_PATH,
    trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES,
    confined: true,
  };
  const isolation = confinedIsolation({ readRoots: [ws], writeRoots: [ws, data], stateDirectory: path.join(root, 'state'), agentData: data });
  return {
    ws,
    decide: (command) => {
      const decision = decideShellCommand(command, shell);
      return decision.allow ? 'allow' : decision.code;
    },
    run: (command) => {
      const decision = decideShellCommand(command, shell);
      if (!decision.allow) throw new Error(`the gate denied ${command}: ${decision.reason}`);
      return executeBash(decision, { workspace: ws, timeoutMs: 60_000, outputCapBytes: 65536, isolation, shell });
    },
  };
}

test('git -C DIR log runs from DIR in the sandbox; outside the scopes it is denied', async (t) => {
  const w = world(t);
  const result = await w.run('git -C repo log --format=%s');
  t.is(result.exitCode, 0, result.stderr);
  t.is(result.stdout, 'first commit\n');
  const nested = await w.run('git -C repo/src -C .. log --oneline -1 --format=%s');
  t.is(nested.stdout, 'first commit\n', nested.stderr);
  t.is(w.decide('git -C ../outside log'), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  t.is(w.decide('git -C repo -c core.pager=cat log'), 'ZB_POLICY_SHELL_ARGUMENT');
});

test('find -exec grep -l PATTERN {} runs grep on the files found, with ; and with +', async (t) => {
  const w = world(t);
  const each = await w.run("find notes -name '*.txt' -exec grep -l NEEDLE {} ';'");
  t.is(each.exitCode, 0, each.stderr);
  t.deepEqual(each.stdout.split('\n').filter(Boolean).sort(), ['notes/a.txt', 'notes/deep/c.txt']);
  const batch = await w.run('find notes -type f -exec grep -c NEEDLE {} +');
  t.deepEqual(batch.stdout.split('\n').filter(Boolean).sort(), ['notes/a.txt:1', 'notes/b.txt:0', 'notes/deep/c.txt:1'], batch.stderr);
  const escaped = await w.run('find notes -name a.txt -exec grep -l NEEDLE {} \\;');
  t.is(escaped.stdout, 'notes/a.txt\n', escaped.stderr);
  t.is(w.decide("find notes -exec sh -c 'cat $1' sh {} ';'"), 'ZB_POLICY_SHELL_ARGUMENT');
  t.is(w.decide("find notes -exec grep -l NEEDLE {} ';' -delete"), 'ZB_POLICY_SHELL_ARGUMENT');
  t.is(w.decide("find notes -execdir grep -l NEEDLE {} ';'"), 'ZB_POLICY_SHELL_ARGUMENT');
});

test('command -v and type say where a program is, from the PATH commands run with, and run nothing of it', async (t) => {
  const w = world(t);
  // The first git on the fixed PATH, as bash would report it.
  const gitPath = COMMAND_SEARCH_PATH.map((directory) => `${directory}/git`).find((candidate) => existsSync(candidate));
  if (gitPath === undefined) return t.fail('git is not on the fixed PATH');
  const found = await w.run('command -v git');
  t.is(found.exitCode, 0, found.stderr);
  t.is(found.stdout, `${gitPath}\n`);
  const verbose = await w.run('command -V git');
  t.is(verbose.stdout, `git is ${gitPath}\n`);
  const typed = await w.run('type git');
  t.is(typed.stdout, `git is ${gitPath}\n`);
  const missing = await w.run('command -v no-such-program-here');
  t.is(missing.exitCode, 1);
  t.is(missing.stdout, '');
  const chained = await w.run('command -v no-such-program-here || echo absent');
  t.is(chained.stdout, 'absent\n');
  t.is(w.decide('command git status'), 'allow');
  t.is(w.decide('command rm -rf repo'), 'ZB_POLICY_SHELL_NOT_ALLOWED');
  t.is(w.decide('command -p git status'), 'ZB_POLICY_SHELL_ARGUMENT');
});

test("the 'it'\\''s' quoting idiom reaches the program as bash would pass it", async (t) => {
  const w = world(t);
  const result = await w.run("echo 'it'\\''s' a\\ b");
  t.is(result.exitCode, 0, result.stderr);
  t.is(result.stdout, "it's a b\n");
});

test('python3 -m runs the listed modules with their rules (unittest, json.tool); timeit and pdb -c are denied', async (t) => {
  const w = world(t);
  const tests = await w.run('python3 -m unittest -q test_sample');
  t.is(tests.exitCode, 0, tests.stderr);
  t.regex(tests.stderr, /Ran 1 test/);
  const json = await w.run('python3 -m json.tool --sort-keys --compact data.json');
  t.is(json.stdout, '{"a":[1,2],"b":1}\n', json.stderr);
  t.is(w.decide("python3 -m timeit 'pass'"), 'ZB_POLICY_SHELL_ARGUMENT');
  t.is(w.decide("python3 -m pdb -c 'import os' test_sample.py"), 'ZB_POLICY_SHELL_ARGUMENT');
});
