// Finding: a call's time limit (or a limit, or a cancel) calls the kill of every command the call handed to the warm
// sandbox, those that have already ended included (bash.ts ProcessGroupSet.killAll). warm-calls.ts's kill arms a 5 s
// grace timer (KILL_GRACE_MS) that only that command's end clears; for an ended command it is never cleared, and when
// it fires it drops whatever sandbox the slot holds then: a later call's command is killed mid-run (SIGKILL, not
// timed out). With a sandbox per command, killing an ended command's sandbox did nothing.
// Asserted without waiting on the clock: after the call, a timer is left pending (node's active resources). Seen
// while exploring: the next call, `cat` on a fifo the test held open, ended SIGKILL (not timed out) about 5 s later.
import test from 'ava';
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { executeBash } from '../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { confinedIsolation } from '../fixtures/isolation.js';
import { tempDir } from '../fixtures/temp.js';
import { cgroupSetting, warmRun } from './warm-run.js';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

test.serial("a call's time limit never kills a later call through a command of it that had already ended", async (t) => {
  const root = realpathSync(tempDir(t, 'zb-advwarm-'));
  const ws = path.join(root, 'ws');
  const data = path.join(root, 'data');
  mkdirSync(ws);
  mkdirSync(data);
  const isolation = confinedIsolation({ readRoots: [ws], writeRoots: [ws] }, cgroupSetting());
  t.teardown(() => isolation.release());
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: data });
  // Allowlist mode: each pipeline of a call is its own command (ask mode hands the whole text to one bash).
  const shell: ShellContext = { mode: 'allowlist', allow: ['true', 'sleep', 'cat'], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  const run = (command: string, timeoutMs: number) => {
    const decision = decideShellCommand(command, shell);
    if (!decision.allow) throw new Error(decision.reason);
    return executeBash(decision, { workspace: ws, timeoutMs, outputCapBytes: 65536, isolation, shell });
  };
  t.is((await run('true', 30_000)).exitCode, 0);
  const idle = timers();
  // `true` ends in the warm sandbox; `sleep` reuses it and reaches the time limit: the kill reaches both.
  t.true((await run('true; sleep 1000', 1000)).timedOut);
  t.is(timers(), idle, 'a timer is left pending after the call');
});

// The same in ask mode, one command per call: a limit seen at the command's end (here the file-size limit's
// SIGXFSZ) is reported after the command's grace timer was cleared, and the report kills the group, so the kill of
// that ended command arms the timer again.
test.serial('a limit one call reaches at its end never leaves a timer that later drops the sandbox under another call', async (t) => {
  const r = warmRun(t, cgroupSetting({ file_size_mib: 1 }));
  t.is((await r.call('true')).exitCode, 0);
  const idle = timers();
  const big = await r.call('head -c 2000000 /dev/zero > big');
  t.like(big.limit, { limit: 'file_size_mib' });
  t.is(timers(), idle, 'a timer is left pending after the call');
});
