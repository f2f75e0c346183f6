// Finding (low): the run's end (CommandIsolation.release) while a command is in the warm sandbox returns without
// dropping it ("the command's end keeps it"), and nothing drops it when that command ends: the sandbox of an ended
// run, its init and its bind mounts of the scopes (a user's umount says EBUSY) live on until zotbox's process exits.
// A fresh sandbox per call ended with its command. Safe: once the command has ended, the ended run's sandbox is gone.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { warmRun } from './warm-run.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^[^)]*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

test("the run's end while a command is in the warm sandbox ends the sandbox once that command ends", async (t) => {
  const r = warmRun(t);
  const go = path.join(r.world.ws, 'go');
  execFileSync('mkfifo', [go]);
  const calling = r.call('cat go');
  const fifo = await open(go, 'w'); // the command is running: it opened the fifo
  await r.isolation.release(); // the run ends meanwhile (a cancel, the agent's last turn)
  await fifo.close();
  t.is((await calling).exitCode, 0);
  const init = r.inits[0]!;
  t.false(alive(init), `the ended run's sandbox (init ${init}) is still alive`);
});
