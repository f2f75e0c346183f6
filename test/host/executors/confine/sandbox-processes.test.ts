// The sandbox's start script, which the host moves into a command's cgroup before
// the command starts (sandbox-processes.ts), found in a real process tree: a stand-in
// "init" (a shell) whose children are known, awaited by the line it prints after
// forking them (the last child's pid), never by the clock.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { startScriptOf } from '../../../../src/host/executors/confine/sandbox-processes.js';

/**
 * A shell that starts `children` sleeping children, then prints the last one's pid ($!: known once forked, whether or
 * not it has exec'd sleep yet) and waits for them.
 */
async function initWith(children: number): Promise<{ init: ChildProcess; lastChild: number }> {
  const script = `${'sleep 1000 & '.repeat(children)}echo $!; wait`;
  const init = spawn('/bin/sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  const [line] = (await once(init.stdout, 'data')) as [Buffer];
  return { init, lastChild: Number(line.toString().trim()) };
}

function end(init: ChildProcess): void {
  process.kill(-init.pid!, 'SIGKILL'); // the shell and its sleeping children (its process group)
}

test("the start script is the one child of the sandbox's init, itself bubblewrap's child", async (t) => {
  const { init, lastChild } = await initWith(1);
  try {
    // The one child the shell forked (its cmdline may still be the shell's until it execs sleep: not asserted).
    t.is(startScriptOf(process.pid, init.pid!), lastChild);
  } finally {
    end(init);
  }
});

test('an init with more than one child is refused (one could be missed by the cgroup)', async (t) => {
  const { init } = await initWith(2);
  try {
    t.throws(() => startScriptOf(process.pid, init.pid!), { code: 'ZB_CONFINEMENT_UNAVAILABLE' });
  } finally {
    end(init);
  }
});

test('an init that is not the child of the given bubblewrap is refused', async (t) => {
  const { init } = await initWith(1);
  try {
    t.throws(() => startScriptOf(process.ppid, init.pid!), { code: 'ZB_CONFINEMENT_UNAVAILABLE' });
  } finally {
    end(init);
  }
});
