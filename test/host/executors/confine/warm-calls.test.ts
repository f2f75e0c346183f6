// A run's commands in its reused sandbox, through the real executor and a real bubblewrap: a command alone in its
// pipeline reuses the sandbox when its plan is the one the sandbox was built from and the host finds it as it was;
// anything else (a new repository, a process or mount the host did not expect, a pipeline, the run's end) gives a
// new one or none. What a call leaves in the sandbox's own places is gone in the next; limits are each call's own.
// These tests need bwrap, a cgroup and root (nsenter into the sandbox): they fail, never skip, without them.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { executeBash } from '../../../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../../../src/host/executors/command-environment.js';
import type { CommandIsolation, SandboxProbe } from '../../../../src/host/executors/confine/command-isolation.js';
import { DEFAULT_COMMAND_LIMITS, detectLimitEnforcement, type LimitSetting } from '../../../../src/host/executors/confine/command-limits.js';
import { compileScopes } from '../../../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../../../src/policy/shell-decision.js';
import { bubblewrapPath, confinedIsolation } from '../../../fixtures/isolation.js';
import { prepareSandbox } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { buildSeccompFilter } from '../../../../src/host/executors/confine/seccomp-filter.js';
import { WarmSlot } from '../../../../src/host/executors/confine/warm-calls.js';
import { open } from 'node:fs/promises';
import { sandboxWorld, type SandboxWorld } from '../../../fixtures/sandbox-world.js';

interface Run {
  readonly world: SandboxWorld;
  readonly isolation: CommandIsolation;
  /** How each command's sandbox was had, in order. */
  readonly used: ('cold' | 'warm' | 'reused')[];
  /** The host pid of each sandbox init the host verified, in order. */
  readonly inits: number[];
  call(command: string, timeoutMs?: number): ReturnType<typeof executeBash>;
}

function cgroupSetting(lower: Partial<typeof DEFAULT_COMMAND_LIMITS> = {}): LimitSetting {
  const enforcement = detectLimitEnforcement();
  if (enforcement.kind === 'rlimit') throw new Error(`these tests need a usable cgroup: ${enforcement.reason}`);
  return { limits: { ...DEFAULT_COMMAND_LIMITS, ...lower }, enforcement };
}

/** One run's isolation over a sandbox world, kept across calls (ask mode: each call is one command, bash -c). */
function run(t: ExecutionContext, limits: LimitSetting = cgroupSetting()): Run {
  const world = sandboxWorld(t);
  const used: Run['used'] = [];
  const inits: number[] = [];
  const probe: SandboxProbe = { sandboxUsed: (how) => used.push(how), beforeVerify: (pid) => inits.push(pid) };
  const isolation = confinedIsolation(world.layout, limits, probe);
  t.teardown(() => isolation.release());
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: world.ws, agentData: world.data });
  const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  return {
    world,
    isolation,
    used,
    inits,
    call: (command, timeoutMs = 60_000) => {
      const decision = decideShellCommand(command, shell);
      if (!decision.allow) throw new Error(decision.reason);
      return executeBash(decision, { workspace: world.ws, timeoutMs, outputCapBytes: 65536, isolation, shell });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^[^)]*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The cgroup (first hierarchy that bounds processes) a host pid is in, as a path under the cgroup mount. */
function pidsCgroupOf(pid: number): string {
  const lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
  const v1 = lines.find((line) => /^[0-9]+:pids:/.test(line));
  if (v1 !== undefined) return path.join('/sys/fs/cgroup/pids', v1.replace(/^[0-9]+:pids:/, ''));
  return path.join('/sys/fs/cgroup', lines.find((line) => line.startsWith('0::'))!.slice(3));
}

test('two calls of a run use one sandbox; what the first left in /tmp, HOME and /dev/shm is gone in the second', async (t) => {
  const r = run(t);
  const first = await r.call('echo one > /tmp/left; echo two > "$HOME/left"; echo three > /dev/shm/left; echo kept > kept.txt; echo $$');
  t.is(first.exitCode, 0, first.stderr);
  // /tmp also holds the directories bubblewrap made on the way to the workspace (below the host's /tmp).
  const second = await r.call('ls -A /dev/shm "$HOME"; ls -A /tmp | grep -v "^zb-sandbox-"; cat kept.txt');
  t.is(second.exitCode, 0, second.stderr);
  t.is(second.stdout, '/dev/shm:\n\n/tmp/home:\nhome\nkept\n');
  t.deepEqual(r.used, ['warm', 'reused']);
  t.is(r.inits.length, 2); // verified at its start and again before the reuse
  t.is(r.inits[0], r.inits[1]);
});

test('a repository made between two calls gives the second a new sandbox, with its hooks read-only', async (t) => {
  const r = run(t);
  t.is((await r.call('true')).exitCode, 0);
  execFileSync('git', ['init', '-q', r.world.ws]);
  const second = await r.call('touch .git/hooks/pre-commit');
  t.not(second.exitCode, 0);
  t.regex(second.stderr, /Read-only file system/);
  t.false(existsSync(path.join(r.world.ws, '.git', 'hooks', 'pre-commit')));
  t.deepEqual(r.used, ['warm', 'warm']);
  t.not(r.inits[0], r.inits[1]);
  t.false(alive(r.inits[0]!), 'the first sandbox was ended');
});

test('a daemon a call leaves is gone before the next call starts', async (t) => {
  const r = run(t);
  t.is((await r.call('(setsid sleep 1000 &) ; (sleep 1001 &); true')).exitCode, 0);
  const second = await r.call('cat /proc/[0-9]*/cmdline | tr "\\0" " "');
  t.is(second.exitCode, 0, second.stderr);
  t.notRegex(second.stdout, /sleep/);
  t.deepEqual(r.used, ['warm', 'reused']);
});

test("a process the host finds in the sandbox's cgroup between calls gets the next call a new sandbox", async (t) => {
  const r = run(t);
  t.is((await r.call('true')).exitCode, 0);
  const init = r.inits[0]!;
  // Not something a command can do (it has no way out of its namespace): the host's own check, not the init's, finds it.
  const stray = spawn('sleep', ['1000'], { stdio: 'ignore' });
  t.teardown(() => stray.kill('SIGKILL'));
  writeFileSync(path.join(pidsCgroupOf(init), 'cgroup.procs'), String(stray.pid));
  t.is((await r.call('true')).exitCode, 0);
  t.deepEqual(r.used, ['warm', 'warm']);
  t.false(alive(init));
});

test('a mount that appears in the sandbox between calls gets the next call a new sandbox', async (t) => {
  const r = run(t);
  t.is((await r.call('true')).exitCode, 0);
  const init = r.inits[0]!;
  // Where no expectation looks (a new mount below HOME): only the set of mounts tells.
  execFileSync('nsenter', ['-t', String(init), '-m', '--', 'sh', '-c', 'mkdir -p /tmp/home/m && mount -t tmpfs none /tmp/home/m']);
  t.is((await r.call('true')).exitCode, 0);
  t.deepEqual(r.used, ['warm', 'warm']);
});

test('a read-only mount made writable between calls gets the next call a new sandbox, where it is read-only again', async (t) => {
  const r = run(t);
  execFileSync('git', ['init', '-q', r.world.ws]);
  t.is((await r.call('true')).exitCode, 0);
  const init = r.inits[0]!;
  // The same mounts, one flag changed: only the verification of each mount tells.
  const hooks = path.join(r.world.ws, '.git', 'hooks');
  execFileSync('nsenter', ['-t', String(init), '-m', '--', 'mount', '-o', 'remount,bind,rw', hooks]);
  const second = await r.call('touch .git/hooks/pre-commit');
  t.not(second.exitCode, 0);
  t.false(existsSync(path.join(hooks, 'pre-commit')));
  t.deepEqual(r.used, ['warm', 'warm']);
});

test('a limit one call reaches is reported for that call only; the next runs in the same sandbox unbounded by it', async (t) => {
  const r = run(t, cgroupSetting({ processes: 64 }));
  const bomb = await r.call('bomb() { bomb | bomb; }; bomb');
  t.like(bomb.limit, { code: 'ZB_COMMAND_LIMIT', limit: 'processes', value: 64 });
  const next = await r.call('echo fine');
  t.is(next.limit, undefined);
  t.like(next, { exitCode: 0, stdout: 'fine\n' });
  t.deepEqual(r.used, ['warm', 'reused']);
});

test('a call killed at its time limit ends with the sandbox kept for the next call', async (t) => {
  const r = run(t);
  // A limit the echo meets on a loaded machine too (CI's busy two cores): only the sleep is to be killed by it.
  const slow = await r.call('echo begun; exec sleep 1000', 3000);
  t.true(slow.timedOut);
  t.is(slow.stdout, 'begun\n');
  const next = await r.call('echo next');
  t.like(next, { exitCode: 0, stdout: 'next\n' });
  t.deepEqual(r.used, ['warm', 'reused']);
});

test("the run's end ends the sandbox and removes its cgroup", async (t) => {
  const r = run(t);
  t.is((await r.call('true')).exitCode, 0);
  const init = r.inits[0]!;
  const cgroup = pidsCgroupOf(init);
  t.regex(cgroup, new RegExp(`/zotbox-${process.pid}-[0-9]+-[0-9a-f]{12}$`));
  await r.isolation.release();
  t.false(alive(init));
  t.false(existsSync(cgroup));
});

test('each command of a pipeline, and a call with more than one pipeline stage, gets a sandbox of its own', async (t) => {
  const world = sandboxWorld(t);
  const isolation = confinedIsolation(world.layout, cgroupSetting());
  t.teardown(() => isolation.release());
  mkdirSync(path.join(world.ws, 'd'));
  const call = await isolation.beginCall();
  try {
    call.beginPipeline(2);
    const command = { cwd: world.ws, program: '/usr/bin/true', invokedPath: '/usr/bin/true', argv0: 'true', args: [] };
    const launched = call.launch(command);
    t.not(launched.kind, 'handoff');
    if (launched.kind !== 'handoff') await launched.done(undefined);
    call.beginPipeline(1);
    t.is(call.launch(command).kind, 'handoff');
  } finally {
    call.finish();
  }
});

test('a plan whose identity differs never reuses the sandbox, even where every mount would verify', async (t) => {
  const world = sandboxWorld(t);
  const slot = new WarmSlot(bubblewrapPath(), cgroupSetting(), buildSeccompFilter);
  t.teardown(() => slot.release());
  const used: string[] = [];
  const probe = { sandboxUsed: (how: string) => used.push(how) };
  const command = { cwd: world.ws, argv: ['/usr/bin/true'], env: {} };
  const prepared = prepareSandbox(world.layout, { seccomp: true });
  t.teardown(() => prepared.close());
  // The same plan under two identities (what a changed /etc copy or limit gives): the second must not reuse the first.
  for (const identity of ['first', 'first', 'second']) {
    const handed = await slot.run(prepared, identity, command, () => false, probe);
    t.like(await handed?.exit, { code: 0 });
  }
  t.deepEqual(used, ['warm', 'reused', 'warm']);
});

test("a process the host finds in the sandbox's cgroup when a call ends gets the sandbox dropped before the aftercare", async (t) => {
  const r = run(t);
  const go = path.join(r.world.ws, 'go');
  execFileSync('mkfifo', [go]);
  const stray = spawn('sleep', ['1000'], { stdio: 'ignore' });
  t.teardown(() => stray.kill('SIGKILL'));
  const calling = r.call('cat go');
  // The call is running (it waits on the fifo): a process joins its sandbox's cgroup from outside, then the call ends.
  const opened = open(go, 'w');
  const fifo = await opened;
  writeFileSync(path.join(pidsCgroupOf(r.inits[0]!), 'cgroup.procs'), String(stray.pid));
  await fifo.close();
  t.is((await calling).exitCode, 0);
  t.false(alive(r.inits[0]!), 'dropped when the call ended, not at the next call');
});

test('killing a call that has ended does nothing to the call running after it in the same sandbox', async (t) => {
  const world = sandboxWorld(t);
  const slot = new WarmSlot(bubblewrapPath(), cgroupSetting(), buildSeccompFilter);
  t.teardown(() => slot.release());
  const prepared = prepareSandbox(world.layout, { seccomp: true });
  t.teardown(() => prepared.close());
  const first = await slot.run(prepared, 'plan', { cwd: world.ws, argv: ['/usr/bin/true'], env: {} }, () => false, undefined);
  t.like(await first?.exit, { code: 0 });
  const go = path.join(world.ws, 'go');
  execFileSync('mkfifo', [go]);
  const second = await slot.run(prepared, 'plan', { cwd: world.ws, argv: ['/bin/sh', '-c', 'cat go'], env: {} }, () => false, undefined);
  const fifo = await open(go, 'w'); // the second call is running: it has the fifo open
  first?.kill(); // what the executor does to every command of a call once the call is over
  await fifo.writeFile('done\n');
  await fifo.close();
  t.like(await second?.exit, { code: 0, signal: null });
});
