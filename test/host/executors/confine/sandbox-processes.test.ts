// The sandbox's start script, which the host moves into a command's cgroup before
// the command starts (sandbox-processes.ts), found in a real process tree: a stand-in
// "init" (a shell) whose children are known, awaited by a line it prints after
// forking them, never by the clock.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { startScriptOf } from '../../../../src/host/executors/confine/sandbox-processes.js';

/** A shell that starts `children` sleeping children, then says so on stdout and waits for them. */
async function initWith(children: number): Promise<ChildProcess> {
  const script = `${'sleep 1000 & '.repeat(children)}echo ready; wait`;
  const init = spawn('/bin/sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  await once(init.stdout, 'data');
  return init;
}

function end(init: ChildProcess): void {
  process.kill(-init.pid!, 'SIGKILL'); // the shell and its sleeping children (its process group)
}

test("the start script is the one child of the sandbox's init, itself bubblewrap's child", async (t) => {
  const init = await initWith(1);
  try {
    const script = startScriptOf(process.pid, init.pid!);
    t.not(script, init.pid);
    t.regex(readFileSync(`/proc/${script}/cmdline`, 'utf8'), /^sleep\0/);
  } finally {
    end(init);
  }
});

test('an init with more than one child is refused (one could be missed by the cgroup)', async (t) => {
  const init = await initWith(2);
  try {
    t.throws(() => startScriptOf(process.pid, init.pid!), { code: 'ZB_CONFINEMENT_UNAVAILABLE' });
  } finally {
    end(init);
  }
});

test('an init that is not the child of the given bubblewrap is refused', async (t) => {
  const init = await initWith(1);
  try {
    t.throws(() => startScriptOf(process.ppid, init.pid!), { code: 'ZB_CONFINEMENT_UNAVAILABLE' });
  } finally {
    end(init);
  }
});
