// Resource limits of confined commands (issue 24 §5), with the real bubblewrap: a
// fork bomb and a memory hog end with ZB_COMMAND_LIMIT under the cgroup this host
// offers; with the rlimit fallback forced, CPU time and file size end a command the
// same way; nothing a limited command started survives its call; an option can
// lower a limit and never raise it.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_COMMAND_LIMITS,
  commandLimitCeiling,
  createCommandCgroup,
  describeLimits,
  detectLimitEnforcement,
  lowerCommandLimits,
  type CommandLimits,
  type LimitEnforcement,
  type LimitSetting,
} from '../../../../src/host/executors/confine/command-limits.js';
import type { SandboxProbe } from '../../../../src/host/executors/confine/command-isolation.js';
import { sandboxWorld } from '../../../fixtures/sandbox-world.js';

/** The cgroup mechanism this host offers; the tests of it fail (never skip) where there is none. */
function cgroupEnforcement(): LimitEnforcement {
  const enforcement = detectLimitEnforcement();
  if (enforcement.kind === 'rlimit') throw new Error(`these tests need a usable cgroup (v2 delegated, or v1 writable as root): ${enforcement.reason}`);
  return enforcement;
}

const RLIMITS_ONLY: LimitEnforcement = { kind: 'rlimit', reason: 'forced by the test', processesBound: process.getuid?.() !== 0 };

function setting(enforcement: LimitEnforcement, lower: Partial<CommandLimits> = {}): LimitSetting {
  return { limits: { ...DEFAULT_COMMAND_LIMITS, ...lower }, enforcement };
}

/** Records each sandbox's PID namespace (through its init, before the command starts), to find what is left of it later. */
function namespaceRecorder(): { probe: SandboxProbe; namespaces: string[] } {
  const namespaces: string[] = [];
  return { probe: { beforeVerify: (pid) => namespaces.push(readlinkSync(`/proc/${pid}/ns/pid`)) }, namespaces };
}

/** The processes now alive in any of `namespaces` (a zombie has exited: only its parent's wait is owed, as session-reaper.ts reads it). */
function processesIn(namespaces: readonly string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (!namespaces.includes(readlinkSync(`/proc/${entry}/ns/pid`))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
      if (state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // exited while listed
    }
  }
  return found;
}

/**
 * Resolves once every process left in `namespaces` has exited, awaiting the kernel's exit event (a pidfd turns
 * readable) for each, never the clock; then returns what is left (nothing, unless something kept running: then
 * this never resolves and ava's timeout fails the test).
 */
async function nothingSurvives(namespaces: readonly string[]): Promise<number[]> {
  const pids = processesIn(namespaces);
  if (pids.length > 0) {
    const script =
      'import os, select, sys\nfds = []\nfor p in sys.argv[1:]:\n    try:\n        fds.append(os.pidfd_open(int(p)))\n    except ProcessLookupError:\n        pass\nfor fd in fds:\n    select.select([fd], [], [])\n';
    await once(spawn('/usr/bin/python3', ['-c', script, ...pids.map(String)], { stdio: 'ignore' }), 'exit');
  }
  return processesIn(namespaces);
}

test('this host bounds commands with a cgroup (these tests run as root, where RLIMIT_NPROC binds nothing)', (t) => {
  t.not(detectLimitEnforcement().kind, 'rlimit');
});

test('a fork bomb ends with ZB_COMMAND_LIMIT (processes), and nothing it started survives the call', async (t) => {
  const world = sandboxWorld(t);
  const { probe, namespaces } = namespaceRecorder();
  const result = await world.run('bomb() { bomb | bomb; }; bomb', { limits: setting(cgroupEnforcement(), { processes: 128 }), probe });
  t.like(result.limit, { code: 'ZB_COMMAND_LIMIT', limit: 'processes', value: 128 });
  t.false(result.timedOut);
  t.regex(result.stderr, /\[zotbox: ZB_COMMAND_LIMIT: the command reached its process limit \(128 processes\)/);
  t.is(namespaces.length, 1);
  t.deepEqual(await nothingSurvives(namespaces), []);
});

test('a memory hog ends with ZB_COMMAND_LIMIT (memory)', async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run(`python3 -c "a = b'x' * (512 * 1024 * 1024); print('allocated')"`, { limits: setting(cgroupEnforcement(), { memory_mib: 64 }) });
  t.like(result.limit, { code: 'ZB_COMMAND_LIMIT', limit: 'memory_mib', value: 64 });
  t.is(result.stdout, '');
  t.not(result.exitCode, 0);
});

test('the same allocation under the default limits succeeds (so the memory limit, not the program, stopped it)', async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run(`python3 -c "a = b'x' * (512 * 1024 * 1024); print('allocated')"`, { limits: setting(cgroupEnforcement()) });
  t.is(result.limit, undefined);
  t.like(result, { exitCode: 0, stdout: 'allocated\n' });
});

test('a confined command runs in its own cgroup, which is gone after the call', async (t) => {
  const world = sandboxWorld(t);
  // The command's own view: its sandbox's cgroup namespace is rooted where bubblewrap started (zotbox's cgroup), and
  // the host moved the sandbox into the command's cgroup below it before the command started.
  const result = await world.run('cat /proc/self/cgroup', { limits: setting(cgroupEnforcement()) });
  t.is(result.exitCode, 0, result.stderr);
  const enforcement = cgroupEnforcement();
  // Each hierarchy that bounds it (v2: the one; v1: pids and memory) names the command's cgroup.
  const lines = result.stdout.split('\n');
  const bounding = enforcement.kind === 'cgroup2' ? lines.filter((line) => line.startsWith('0::')) : lines.filter((line) => /:(pids|memory):/.test(line));
  t.is(bounding.length, enforcement.kind === 'cgroup2' ? 1 : 2, result.stdout);
  const own = new RegExp(`/zotbox-${process.pid}-[0-9]+-[0-9a-f]{12}$`, 'm');
  for (const line of bounding) t.regex(line, own);
  const parent = enforcement.kind === 'cgroup2' ? enforcement.parent : enforcement.kind === 'cgroup1' ? enforcement.parents.pids : '';
  const name = own.exec(result.stdout)?.[0].slice(1) ?? 'none';
  t.throws(() => statSync(path.join(parent, name)), { code: 'ENOENT' });
});

// Serial: it finds the cgroup it made by listing their parent, where another test's could appear at the same time.
test.serial('cgroups that cannot be removed yet are kept for later by one exit hook, not one more hook per command', async (t) => {
  const enforcement = cgroupEnforcement();
  if (enforcement.kind === 'rlimit') return t.fail();
  const parent = enforcement.kind === 'cgroup2' ? enforcement.parent : enforcement.parents.pids;
  const hooks = process.listenerCount('exit');
  // Two commands: the second first removes what the first left (its blocker is gone by then), so the leftovers are
  // empty again when its own cgroup is kept: a hook per keep would make two.
  for (let i = 0; i < 2; i++) {
    const before = new Set(readdirSync(parent));
    const cgroup = createCommandCgroup(enforcement, DEFAULT_COMMAND_LIMITS);
    const made = readdirSync(parent).find((name) => !before.has(name) && name.startsWith(`zotbox-${process.pid}-`));
    if (made === undefined) return t.fail('no cgroup made');
    // A child cgroup makes every removal fail (EBUSY), as a command's processes still dying do, until it is gone.
    const blocker = path.join(parent, made, 'blocker');
    mkdirSync(blocker);
    await cgroup.finish().removed; // every retry failed: the cgroup is kept as a leftover
    t.true(statSync(path.join(parent, made)).isDirectory());
    rmdirSync(blocker);
  }
  t.true(process.listenerCount('exit') <= hooks + 1, `${process.listenerCount('exit') - hooks} exit hooks added`);
});

// Serial: the stale cgroups it makes would be this file's other tests' names under the old scheme too.
test.serial("cgroups a killed zotbox left under this process's PID never stop a command (a PID is reused)", async (t) => {
  const enforcement = cgroupEnforcement();
  if (enforcement.kind === 'rlimit') return t.fail();
  const parents = enforcement.kind === 'cgroup2' ? [enforcement.parent] : [enforcement.parents.pids, enforcement.parents.memory];
  // What a zotbox with this PID, killed by SIGKILL (no exit hook ran), left: the names of its first 500 commands.
  const stale = parents.flatMap((parent) => Array.from({ length: 500 }, (_, i) => path.join(parent, `zotbox-${process.pid}-${i + 1}`)));
  for (const directory of stale) mkdirSync(directory);
  t.teardown(() => {
    for (const directory of stale) rmdirSync(directory);
  });
  const world = sandboxWorld(t);
  const result = await world.run('echo bounded', { limits: setting(enforcement) });
  t.like(result, { exitCode: 0, stdout: 'bounded\n' });
});

/** The soft limit of one resource as /proc/self/limits shows it inside the sandbox. */
async function limitInside(t: ExecutionContext, limits: LimitSetting, resource: string, probe?: SandboxProbe): Promise<string> {
  const world = sandboxWorld(t);
  const result = await world.run(`grep '^${resource}' /proc/self/limits`, { limits, ...(probe === undefined ? {} : { probe }) });
  t.is(result.exitCode, 0, result.stderr);
  return result.stdout.trim().split(/\s{2,}/)[1] ?? '';
}

// Both ways a command runs confined: the run's reused sandbox (its init sets them) and a sandbox of its own (its start
// script's ulimit and prlimit set them, as for pipelines).
for (const [how, probe] of [
  ["the run's reused sandbox", undefined],
  ['a sandbox of its own', { cold: true }],
] as const) {
  test(`inside ${how} the rlimits are in force: CPU time and file size always, processes and data only as the fallback`, async (t) => {
    const cgroup = setting(cgroupEnforcement(), { cpu_seconds: 7, file_size_mib: 3, processes: 50, memory_mib: 100 });
    t.is(await limitInside(t, cgroup, 'Max cpu time', probe), '7');
    t.is(await limitInside(t, cgroup, 'Max file size', probe), String(3 * 1024 * 1024));
    // Not the command's: the one zotbox itself has, inherited (the cgroup bounds processes).
    const own = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('Max processes'))
      ?.split(/\s{2,}/)[1];
    t.is(await limitInside(t, cgroup, 'Max processes', probe), own ?? 'missing');
    const fallback = setting(RLIMITS_ONLY, { cpu_seconds: 7, file_size_mib: 3, processes: 50, memory_mib: 100 });
    t.is(await limitInside(t, fallback, 'Max processes', probe), '50');
    t.is(await limitInside(t, fallback, 'Max data size', probe), String(100 * 1024 * 1024));
    t.is(await limitInside(t, fallback, 'Max cpu time', probe), '7');
  });
}

test('rlimits: a command that spins past its CPU time ends with ZB_COMMAND_LIMIT (cpu_seconds)', async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run('while :; do :; done', { limits: setting(RLIMITS_ONLY, { cpu_seconds: 1 }) });
  t.like(result.limit, { code: 'ZB_COMMAND_LIMIT', limit: 'cpu_seconds', value: 1 });
  t.false(result.timedOut);
});

test('rlimits: a command that writes past the file size limit ends with ZB_COMMAND_LIMIT (file_size_mib), the file cut there', async (t) => {
  const world = sandboxWorld(t);
  // One command: bash execs it, so its death by SIGXFSZ is the command's (a shell that runs more reports it itself).
  const result = await world.run('head -c 3145728 /dev/zero > big', { limits: setting(RLIMITS_ONLY, { file_size_mib: 1 }) });
  t.like(result.limit, { code: 'ZB_COMMAND_LIMIT', limit: 'file_size_mib', value: 1 });
  t.is(statSync(path.join(world.ws, 'big')).size, 1024 * 1024);
});

test('rlimits: a memory hog fails to allocate past RLIMIT_DATA (the program reports it; no cgroup counts it)', async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run(`python3 -c "a = b'x' * (512 * 1024 * 1024); print('allocated')"`, { limits: setting(RLIMITS_ONLY, { memory_mib: 64 }) });
  t.not(result.exitCode, 0);
  t.is(result.stdout, '');
  t.regex(result.stderr, /MemoryError/);
});

test('an option lowers a limit below the ceiling; one above it is refused with ZB_COMMAND_LIMIT_RAISED', (t) => {
  const ceiling = commandLimitCeiling({ memory_mib: 8192 });
  t.deepEqual(ceiling, { processes: 1024, memory_mib: 8192, cpu_seconds: 3600, file_size_mib: 4096 });
  t.deepEqual(lowerCommandLimits(ceiling, { processes: 100, memory_mib: 1024 }, '--limit'), { processes: 100, memory_mib: 1024, cpu_seconds: 3600, file_size_mib: 4096 });
  t.deepEqual(lowerCommandLimits(ceiling, { processes: 1024 }, '--limit'), ceiling);
  const raised = t.throws(() => lowerCommandLimits(ceiling, { processes: 1025 }, '--limit'));
  t.like(raised, { code: 'ZB_COMMAND_LIMIT_RAISED', details: { limit: 'processes', requested: 1025, ceiling: 1024 } });
  t.like(
    t.throws(() => lowerCommandLimits(ceiling, { processes: 0 }, '--limit')),
    { code: 'ZB_OPTION_INVALID' },
  );
});

test('the rlimit fallback says so when it cannot bound processes (root)', (t) => {
  const text = describeLimits(setting({ kind: 'rlimit', reason: 'no cgroup', processesBound: false }));
  t.regex(text, /processes NOT bounded/);
  t.regex(describeLimits(setting({ kind: 'rlimit', reason: 'no cgroup', processesBound: true })), /at most 1024 processes \(RLIMIT_NPROC/);
});
