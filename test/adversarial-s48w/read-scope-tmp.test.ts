// Review s48w 6, over-denial: read scopes of /tmp and /dev/shm themselves were bound read-only over the sandbox's own
// tmpfs there. Warm, the init could not make HOME and sent no ready byte (ZB_CONFINEMENT_UNAVAILABLE); cold, the
// verification found the writable tmpfs it expects read-only (ZB_CONFINEMENT_MOUNT_MOVED): every command was refused.
// Such a scope is not bound now (sandbox-plan.ts OWN_PLACES): commands have the sandbox's own places, the read tool
// reads the user's. Run in a private mount namespace with tmpfs /dev/shm and /mnt (needs root, as place-scope.test.ts).
import test from 'ava';
import { inPrivateTmp } from './place-scope-run.js';

test('a command that succeeds where /tmp and /dev/shm are read scopes is reported as succeeding', (t) => {
  const report = inPrivateTmp('ro');
  t.log(report);
  t.like(report.outcome, { exitCode: 0, signal: null, stdout: 'done\n' });
  // The user's files in the read scope are untouched.
  t.deepEqual(report.kept, ['/dev/shm/canary.txt', '/dev/shm/canary-dir/file.txt']);
});
