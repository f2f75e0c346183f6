// Finding: a command can change attributes of the warm sandbox's init (PID 1) that the kernel lets any process of
// the same uid change without ptrace access (prlimit, setpriority, sched_setaffinity, sched_setscheduler,
// ioprio_set: none checks the target's dumpable flag), and every later call's command inherits them from the init's
// fork. With a fresh sandbox per call, a command could only change its own and its descendants'. Here call 1 lowers
// the init's open-file and stack limits (hard: no later call can raise them back), raises its core limit, renices
// it, pins it to one CPU and makes it SCHED_IDLE with idle I/O priority; call 2 must see what call 0 saw.
import test from 'ava';
import { warmRun } from './warm-run.js';

/** What a command inherits from whoever forked it, one line each. */
const INHERITED = [
  'ulimit -Sn; ulimit -Hn; ulimit -Ss; ulimit -Hs; ulimit -Sc; ulimit -Sv; ulimit -Sl',
  'nice',
  'grep Cpus_allowed_list /proc/self/status',
  'chrt -p $$ | head -1 | sed "s/.*: //"',
  'ionice -p $$',
].join('; ');

const TAMPER = ['prlimit --pid 1 --nofile=64:64 --stack=1024000:1024000 --core=unlimited', 'renice -n 19 -p 1', 'taskset -p 1 1', 'chrt -i -p 0 1', 'ionice -c 3 -p 1'].join(' >/dev/null; ');

test("what one call sets on the warm sandbox's init (rlimits, nice, CPU affinity, scheduling, I/O priority) never reaches the next call", async (t) => {
  const r = warmRun(t);
  const baseline = await r.call(INHERITED);
  t.is(baseline.exitCode, 0, baseline.stderr);
  const tamper = await r.call(TAMPER);
  t.is(tamper.exitCode, 0, tamper.stderr); // every change was allowed: pid 1 has the command's uid
  const after = await r.call(INHERITED);
  t.is(after.exitCode, 0, after.stderr);
  // Safe: the same as a fresh sandbox (whether this one was reused or a new one was started).
  t.is(after.stdout, baseline.stdout, `used: ${r.used.join(', ')}`);
});
