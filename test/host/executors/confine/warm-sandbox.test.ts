// The warm sandbox's init in a real bubblewrap sandbox built by prepareSandbox (the cold plan, seccomp included):
// each call starts as a fresh sandbox's command would (stdio, rlimits, umask, signals), and before the init replies
// nothing of the call is left: no process, no file in /tmp, HOME or /dev/shm, no SysV object; a scope bound below
// /tmp is never entered by the wipe. bwrap must work here: these tests fail, never skip, when it cannot.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_SEARCH_PATH } from '../../../../src/host/executors/command-environment.js';
import { prepareSandbox, SANDBOX_HOME } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { buildSeccompFilter } from '../../../../src/host/executors/confine/seccomp-filter.js';
import { startWarmSandbox, type WarmSandbox } from '../../../../src/host/executors/confine/warm-sandbox.js';
import { RLIMIT, UNLIMITED, type WarmCall } from '../../../../src/host/executors/confine/warm-init-protocol.js';
import { tempDir } from '../../../fixtures/temp.js';

interface Warm {
  readonly ws: string;
  readonly sandbox: WarmSandbox;
  readonly sh: (script: string, extra?: Partial<WarmCall>) => ReturnType<WarmSandbox['run']>;
}

/** A workspace below the host's /tmp (so below the sandbox's /tmp too), holding kept.txt. */
function workspace(t: ExecutionContext): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-warm-')), 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'kept.txt'), 'kept\n');
  return ws;
}

/** Starts a warm sandbox over `ws` with the seccomp filter, the init emptying `emptied`. */
async function startOver(t: ExecutionContext, ws: string, emptied: readonly string[]): Promise<WarmSandbox> {
  const plan = prepareSandbox({ readRoots: [ws], writeRoots: [ws] }, { seccomp: true });
  const filterFile = path.join(tempDir(t, 'zb-warm-filter-'), 'filter.bpf');
  writeFileSync(filterFile, buildSeccompFilter());
  const filter = openSync(filterFile, 'r');
  try {
    return await startWarmSandbox({ args: plan.args, descriptors: [...plan.descriptors(), filter], emptied, made: [SANDBOX_HOME] });
  } finally {
    closeSync(filter);
    plan.close();
  }
}

/** A warm sandbox over a workspace, emptying /tmp and /dev/shm after each call. */
async function warm(t: ExecutionContext): Promise<Warm> {
  const ws = workspace(t);
  const sandbox = await startOver(t, ws, ['/tmp', '/dev/shm']);
  t.teardown(() => sandbox.drop());
  const sh = (script: string, extra: Partial<WarmCall> = {}) =>
    sandbox.run({ cwd: ws, argv: ['/bin/sh', '-c', script], env: { PATH: COMMAND_SEARCH_PATH.join(':'), HOME: SANDBOX_HOME, LC_ALL: 'C' }, umask: 0o022, limits: [], ...extra });
  return { ws, sandbox, sh };
}

test('a call returns its exit status, stdout and stderr, and runs in the cwd it names', async (t) => {
  const { sh, ws } = await warm(t);
  const result = await sh('pwd; cat kept.txt; echo oops >&2; exit 7');
  t.deepEqual(result, { status: 7 << 8, stdout: `${ws}\nkept\n`, stderr: 'oops\n', dropped: false });
  const again = await sh('echo second');
  t.like(again, { status: 0, stdout: 'second\n', dropped: false });
});

test('each call gets the umask and rlimits it names, default signal dispositions, an empty mask and only stdio', async (t) => {
  const { sh } = await warm(t);
  const probe = 'umask; ulimit -t; ulimit -f; trap; grep -E "^Sig(Blk|Ign):" /proc/self/status; ls /proc/self/fd';
  const first = await sh(`trap "" INT; ${probe}`, {
    umask: 0o077,
    limits: [
      { resource: RLIMIT.CPU, soft: 30n, hard: 31n },
      { resource: RLIMIT.FSIZE, soft: 2048n * 512n, hard: UNLIMITED },
    ],
  });
  // The shell's own `trap "" INT` shows as ignored in its status; nothing is ignored or blocked when it starts.
  t.is(first.stdout, "0077\n30\n2048\ntrap -- '' INT\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000002\n0\n1\n2\n3\n", first.stderr);
  const second = await sh(probe);
  t.is(second.stdout, '0022\nunlimited\nunlimited\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n0\n1\n2\n3\n', second.stderr);
});

test('the init is non-dumpable: a call cannot ptrace it, open its channel or read its environment', async (t) => {
  const { sh } = await warm(t);
  const python = [
    'import ctypes, os',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'print("ptrace", libc.ptrace(16, 1, 0, 0), ctypes.get_errno())', // PTRACE_ATTACH
    'for path in ("/proc/1/fd/3", "/proc/1/environ", "/proc/1/mem"):',
    '    try:',
    '        os.close(os.open(path, os.O_RDWR if path.endswith("3") else os.O_RDONLY)); print(path, "opened")',
    '    except OSError as e:',
    '        print(path, e.errno)',
  ].join('\n');
  const result = await sh(`/usr/bin/python3 -c '${python}'`);
  t.is(result.stdout, 'ptrace -1 1\n/proc/1/fd/3 13\n/proc/1/environ 13\n/proc/1/mem 13\n', result.stderr);
});

test('kill -9 1 and kill -STOP 1 from inside do nothing: the next call runs', async (t) => {
  const { sh } = await warm(t);
  const result = await sh('kill -9 1; kill -STOP 1; echo "rc $?"');
  t.like(result, { status: 0, stdout: 'rc 0\n', dropped: false });
  t.like(await sh('echo still here'), { status: 0, stdout: 'still here\n', dropped: false });
});

test('a daemon the call leaves behind is killed and reaped before the init replies', async (t) => {
  const { sh } = await warm(t);
  // The daemon holds the call's stdout: the host reads to its end only once the init has killed it.
  const sleepers = 'cat /proc/[0-9]*/comm 2>/dev/null | grep -cx sleep';
  // Both sleepers exist (orphans of the init, one in a session of its own) when the call ends.
  const first = await sh(`(sleep 1000 &) ; (setsid sleep 1001 &) ; until [ "$(${sleepers})" = 2 ]; do :; done; echo started`);
  t.like(first, { status: 0, stdout: 'started\n', dropped: false });
  const second = await sh(`${sleepers}; test -d /proc/1 && echo init`);
  t.is(second.stdout, '0\ninit\n', second.stderr);
});

test('files a call leaves in /tmp, HOME and /dev/shm are gone in the next; a bound workspace below /tmp is never entered', async (t) => {
  const { sh, ws } = await warm(t);
  const first = await sh(
    'mkdir -p /tmp/a/b && echo x > /tmp/a/b/f && chmod 000 /tmp/a/b /tmp/a && echo h > "$HOME/.profile" && echo s > /dev/shm/s && echo w > new.txt && ls -A /tmp | sort | tr "\\n" " "',
  );
  t.like(first, { status: 0, dropped: false }, first.stderr);
  const second = await sh('ls -A /tmp/a "$HOME" /dev/shm 2>&1; ls -A "$HOME" | wc -l; cat kept.txt new.txt');
  t.is(second.status, 0, second.stderr);
  t.regex(second.stdout, /cannot access '\/tmp\/a'/u);
  t.regex(second.stdout, /\n0\nkept\nw\n$/u);
  t.is(readFileSync(path.join(ws, 'new.txt'), 'utf8'), 'w\n');
  t.true(existsSync(path.join(ws, 'kept.txt')));
});

test('SysV shared memory, semaphores and message queues a call makes are removed before the next', async (t) => {
  const { sh } = await warm(t);
  const make = ['import ctypes', 'libc = ctypes.CDLL(None, use_errno=True)', 'print(libc.shmget(0x5a, 4096, 0o1600) >= 0, libc.semget(0x5b, 1, 0o1600) >= 0, libc.msgget(0x5c, 0o1600) >= 0)'].join(
    '\n',
  );
  const first = await sh(`/usr/bin/python3 -c '${make}'; tail -n +2 /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg | grep -c "^ *9[0-2] "`);
  t.is(first.stdout, 'True True True\n3\n', first.stderr);
  const second = await sh('tail -q -n +2 /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg | wc -l');
  t.is(second.stdout, '0\n', second.stderr);
});

/** A FIFO in the workspace: reading it resolves once the call has written to it (no clock). */
function started(ws: string): Promise<string> {
  const fifo = path.join(ws, 'started');
  execFileSync('mkfifo', [fifo]);
  return readFile(fifo, 'utf8');
}

test('a K from the host ends the running call; the sandbox serves the next', async (t) => {
  const { sh, sandbox, ws } = await warm(t);
  const ready = started(ws);
  const running = sh('echo begun; echo now > started; exec sleep 1000');
  t.is(await ready, 'now\n');
  sandbox.kill();
  const result = await running;
  t.like(result, { status: 9, stdout: 'begun\n', dropped: false });
  t.like(await sh('echo next'), { status: 0, stdout: 'next\n' });
});

test('a dropped sandbox ends bwrap and runs no other call', async (t) => {
  const { sh, sandbox } = await warm(t);
  const pid = sandbox.pid;
  await sandbox.drop();
  t.true(sandbox.dropped);
  // Gone, or a zombie its new parent has not reaped yet: it runs no more.
  const state = existsSync(`/proc/${pid}/status`) ? /^State:\t(.)/mu.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] : 'gone';
  t.true(state === 'gone' || state === 'Z' || state === 'X', `the init is ${String(state)}`);
  await t.throwsAsync(() => sh('echo no'), { code: 'ZB_INTERNAL_BUG' } as never);
});

test('the init dying ends the call as a drop, never as a result', async (t) => {
  const { sh, sandbox, ws } = await warm(t);
  const ready = started(ws);
  const running = sh('echo now > started; exec sleep 1000');
  await ready;
  process.kill(sandbox.pid, 'SIGKILL'); // from the host's PID namespace the kernel delivers it
  const result = await running;
  t.true(result.dropped);
  t.true(sandbox.dropped);
});

test('a call that moves or changes the directories on the way to a mount point gets the sandbox dropped (the init answers D)', async (t) => {
  for (const move of ['mv "$(dirname "$PWD")" /tmp/elsewhere', 'chmod 751 "$(dirname "$PWD")"']) {
    const { sh, sandbox } = await warm(t);
    // Only the workspace's parent, made by bwrap on the sandbox's /tmp, can change: the workspace is a mount point.
    const result = await sh(`${move} && echo moved`);
    t.like(result, { status: 0, stdout: 'moved\n', dropped: true }, `${move}: ${result.stderr}`);
    t.true(sandbox.dropped, move);
  }
});

test('a place to empty that holds a file at the start is never touched: the init ends and the sandbox does not start', async (t) => {
  const ws = workspace(t);
  // The workspace named as a place of the sandbox's own (what a scope bound at /tmp would be): it holds the user's file.
  await t.throwsAsync(startOver(t, ws, ['/tmp', ws]), { code: 'ZB_CONFINEMENT_UNAVAILABLE' } as never);
  t.is(readFileSync(path.join(ws, 'kept.txt'), 'utf8'), 'kept\n');
});
