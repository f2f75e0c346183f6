// Finding: the init empties /tmp and /dev/shm and fingerprints what is left inside them, but never looks at the
// places themselves: their mode, extended attributes and default ACL (the command owns both roots) survive every
// restore. A default ACL on /tmp decides the mode of the HOME the init makes again after each call (mkdir's mode is
// masked by it, whatever the umask): here call 2 makes every later HOME unusable (mode 055), and leaves data in
// user.* attributes that call 3 reads back. A fresh sandbox per call had new roots each time.
import test from 'ava';
import { warmRun } from './warm-run.js';

/** The places' modes and attributes, and whether HOME is usable. */
const LOOK = ['stat -c "%a %n" /tmp /dev/shm "$HOME"', `python3 -c "import os; print(sorted(os.listxattr('/tmp')), sorted(os.listxattr('/dev/shm')))"`, 'touch "$HOME/probe" && echo home-usable'].join(
  '; ',
);

/** A default ACL u::---,g::r-x,o::r-x as the kernel's xattr format (version 2, then tag, perm, id entries). */
const ACL = "struct.pack('<I', 2) + b''.join(struct.pack('<HHI', tag, perm, 0xFFFFFFFF) for tag, perm in ((1, 0), (4, 5), (32, 5)))";
const SET_ACL = `python3 -c "import os, struct; os.setxattr('/tmp', 'system.posix_acl_default', ${ACL})"`;
const SET_USER_XATTRS = `python3 -c "import os; os.setxattr('/tmp', 'user.zb', b'from call 2'); os.setxattr('/dev/shm', 'user.zb', b'from call 2')"`;

// Each change alone, then all at once: one the init's other checks happen to see (a default ACL changes the mode of
// the HOME it makes again) must not stand in for the places' own fingerprint.
const TAMPERS: readonly (readonly [string, string])[] = [
  ['the mode', 'chmod 0700 /tmp /dev/shm'],
  ['user.* attributes', SET_USER_XATTRS],
  ['a default ACL', SET_ACL],
  ['all three', ['chmod 0700 /tmp /dev/shm', SET_USER_XATTRS, SET_ACL].join(' && ')],
];

for (const [what, tamper] of TAMPERS) {
  test(`${what} that one call sets on /tmp and /dev/shm: never seen by the next call`, async (t) => {
    const r = warmRun(t);
    const baseline = await r.call(LOOK);
    t.is(baseline.exitCode, 0, baseline.stderr);
    const changed = await r.call(tamper);
    t.is(changed.exitCode, 0, changed.stderr); // all allowed: the command owns both places
    const after = await r.call(LOOK);
    // Safe: as in a fresh sandbox (reused or not).
    t.is(after.stdout, baseline.stdout, `used: ${r.used.join(', ')}; stderr: ${after.stderr}`);
  });
}

test('the extended attributes one call sets on a directory kept on the way to a mount point never reach the next call', async (t) => {
  // The directories bubblewrap made below /tmp on the way to the workspace's mount point stay (they hold it); the
  // command owns them, so it can leave user.* data on them, which the init's fingerprint of the kept tree finds.
  const r = warmRun(t);
  const read = `python3 -c "import glob, os; print([(d, sorted(os.listxattr(d))) for d in sorted(glob.glob('/tmp/zb-*/'))])"`;
  const baseline = await r.call(read);
  t.is(baseline.exitCode, 0, baseline.stderr);
  t.regex(baseline.stdout, /\/tmp\/zb-/, 'a kept directory below /tmp');
  const tamper = await r.call(`python3 -c "import glob, os; [os.setxattr(d, 'user.zb', b'from call 2') for d in glob.glob('/tmp/zb-*/')]"`);
  t.is(tamper.exitCode, 0, tamper.stderr);
  const after = await r.call(read);
  t.is(after.stdout, baseline.stdout, `used: ${r.used.join(', ')}`);
  // The fingerprint changed: the third call had a new sandbox.
  t.deepEqual(r.used, ['warm', 'reused', 'warm']);
});
