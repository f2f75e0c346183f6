// The system part of the sandbox (third review, finding 5 "etc-directory-private-files"):
// an allowed /etc directory is bound whole, and a file in it that is not
// world-readable must not become readable in the sandbox, for root and non-root
// alike (bubblewrap maps the sandbox's uid to the caller's, so the owner bits of
// the caller's own files, and of root's when zotbox runs as root, apply). A
// temporary directory stands in for /etc (systemMounts' seam), mounted at /etc by
// the real bubblewrap; the real /etc is never written. Expected by hand: the
// public file reads as written; the 0600 file, one at depth, and a link to it
// cannot be read; the 0700 directory shows empty; a link leading out of the
// sandbox reaches nothing.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeSystemMounts, systemMounts } from '../../../../src/host/executors/confine/system-mounts.js';
import { tempDir } from '../../../fixtures/temp.js';

/** Runs `script` in a sandbox of the system mounts (as the sandbox's uid 65534), with `etc` standing in for /etc. */
function inSandbox(etc: string, script: string): string {
  const mounts = systemMounts(3, true, { source: etc });
  try {
    const args = ['--unshare-user', '--uid', '65534', '--gid', '65534', '--unshare-pid', '--unshare-net', '--die-with-parent', '--dev', '/dev', '--proc', '/proc'];
    const result = spawnSync('bwrap', [...args, ...mounts.args, ...mounts.finalArgs, '--', '/bin/sh', '-c', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe', ...mounts.fds],
    });
    if (result.error !== undefined) throw result.error;
    return result.stdout;
  } finally {
    closeSystemMounts(mounts);
  }
}

test('in a bound /etc directory no file that is not world-readable is readable in the sandbox, at any depth', (t) => {
  const root = tempDir(t, 'zb-etc-');
  const etc = path.join(root, 'etc');
  const vim = path.join(etc, 'vim');
  mkdirSync(path.join(vim, 'deep', 'deeper'), { recursive: true });
  mkdirSync(path.join(vim, 'private'));
  writeFileSync(path.join(vim, 'vimrc'), 'public-vimrc\n', { mode: 0o644 });
  writeFileSync(path.join(vim, 'secret'), 'secret-top\n', { mode: 0o600 });
  writeFileSync(path.join(vim, 'deep', 'deeper', 'secret'), 'secret-deep\n', { mode: 0o640 });
  writeFileSync(path.join(vim, 'private', 'key'), 'secret-in-private\n', { mode: 0o644 });
  chmodSync(path.join(vim, 'private'), 0o700);
  symlinkSync('secret', path.join(vim, 'link-to-secret'));
  // A link leading out, to a private file of the host that the sandbox does not show.
  writeFileSync(path.join(root, 'outside'), 'secret-outside\n', { mode: 0o600 });
  symlinkSync(path.join(root, 'outside'), path.join(vim, 'link-out'));
  chmodSync(vim, 0o755);
  chmodSync(etc, 0o755);

  const read = (file: string) => `echo "${file}: $(cat /etc/vim/${file} 2>&1)";`;
  const output = inSandbox(
    etc,
    [read('vimrc'), read('secret'), read('deep/deeper/secret'), read('private/key'), read('link-to-secret'), read('link-out'), 'echo "private: $(ls -A /etc/vim/private 2>&1)"'].join(' '),
  );

  t.false(output.includes('secret-'), output);
  const lines = new Map(
    output
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  );
  t.is(lines.get('vimrc'), 'public-vimrc', output);
  // Masked with the host's /dev/null, which bubblewrap binds nodev: reading it fails, as an ordinary user's read would.
  t.regex(lines.get('secret') ?? '', /Permission denied/u);
  t.regex(lines.get('deep/deeper/secret') ?? '', /Permission denied/u);
  t.regex(lines.get('link-to-secret') ?? '', /Permission denied/u);
  t.regex(lines.get('private/key') ?? '', /No such file/u);
  t.is(lines.get('private'), '', 'the private directory shows empty');
  t.regex(lines.get('link-out') ?? '', /No such file/u);
});

test('an unmasked sandbox would read the 0600 file: the sandbox user is its owner (precondition of the test above)', (t) => {
  const root = tempDir(t, 'zb-etc-');
  writeFileSync(path.join(root, 'secret'), 'secret-top\n', { mode: 0o600 });
  const result = spawnSync('bwrap', ['--unshare-user', '--uid', '65534', '--gid', '65534', '--ro-bind', '/', '/', '--', 'cat', path.join(root, 'secret')], { encoding: 'utf8' });
  t.is(result.stdout, 'secret-top\n', result.stderr);
});
