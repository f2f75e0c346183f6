// Finding: where a write scope is /tmp or /dev/shm itself, the plan still has the sandbox's own tmpfs there (an
// expectation of kind 'fresh', not read-only) with the scope bound over it; warm-calls.ts passes every such target to
// the init as `--empty`, and the init empties it at its start (before the host has verified anything) and after
// every call: the user's own /tmp or /dev/shm, every file the sandbox's uid may delete, on that device. A fresh
// sandbox per call never deleted anything. Run in a private mount namespace with tmpfs /dev/shm and /mnt (/tmp stays: the checkout may lie below it)
// (needs root, as warm-calls.test.ts): the real host's files are never at stake.
import test from 'ava';
import { inPrivateTmp } from './place-scope-run.js';

test('a write scope of /dev/shm itself (a place the sandbox has a tmpfs of its own at, as /tmp) is never emptied, and the call runs', (t) => {
  const report = inPrivateTmp('rw');
  t.log(report);
  // Safe and working: the user's files in the scope are still there, and the command ran (in a sandbox of its own).
  t.deepEqual(report.kept, ['/dev/shm/canary.txt', '/dev/shm/canary-dir/file.txt']);
  t.like(report.outcome, { exitCode: 0, stdout: 'done\n' });
});

// Over-denial, not of the warm sandbox alone: read scopes of /tmp and /dev/shm are bound read-only over the
// sandbox's tmpfs. Warm, the init cannot make HOME there and sends no ready byte (ZB_CONFINEMENT_UNAVAILABLE); cold,
// the verification finds the writable tmpfs it expects read-only (ZB_CONFINEMENT_MOUNT_MOVED). Every command is refused.
