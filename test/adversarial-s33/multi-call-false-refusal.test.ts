// adv27b (false refusal): a single-binary coreutils (Fedora/UBI minimal's
// coreutils-single, uutils) or busybox answers to every applet name through
// symlinks, and picks the applet by argv[0], which is the name written. The identity
// check sees that the file is also chroot (never allowed) and denies `ls .` on such a
// system, though ls runs as ls. The layout is what the decision reads: a program
// directory whose ls and chroot are links to one multi-call file. The expected
// outcome: ls is judged as ls (chroot, written as chroot, stays denied).
import test, { type ExecutionContext } from 'ava';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { checkPermission } from '../../src/api/check.js';
import { tempDir } from '../fixtures/temp.js';
import { writeReviewAgent } from './review-agent.js';

/** A program directory whose applets are links to one multi-call `coreutils` file, and an agent allowed `allow`. */
function coreutilsWorld(t: ExecutionContext, allow: string[]): { agent: string; options: Parameters<typeof checkPermission>[3] } {
  const root = tempDir(t, 'zb-adv27b-');
  const workspace = path.join(root, 'ws');
  const agent = path.join(root, 'agent');
  const bin = path.join(root, 'coreutils', 'bin');
  for (const directory of [workspace, agent, bin]) mkdirSync(directory, { recursive: true, mode: 0o755 });
  copyFileSync('/usr/bin/true', path.join(bin, 'coreutils'));
  for (const applet of ['ls', 'cat', 'chroot', 'env']) symlinkSync('coreutils', path.join(bin, applet));
  writeReviewAgent(agent, { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'allowlist', allow } });
  return { agent, options: { cwd: root, workspace, stateDirectory: path.join(root, 'state'), programPath: [bin] } };
}

test('ls through a multi-call coreutils is judged as ls, not refused as chroot', async (t) => {
  const { agent, options } = coreutilsWorld(t, ['ls', 'chroot']);
  const chroot = await checkPermission(agent, 'bash', 'chroot / true', options);
  t.is(chroot.code, 'ZB_POLICY_SHELL_NOT_ALLOWED');
  const ls = await checkPermission(agent, 'bash', 'ls .', options);
  t.true(ls.allowed, `ls was refused: ${ls.reason ?? ''}`);
});

test('the multi-call binary written under its own name stays denied (it runs any applet, chroot included)', async (t) => {
  const { agent, options } = coreutilsWorld(t, ['ls', 'coreutils']);
  const direct = await checkPermission(agent, 'bash', 'coreutils --coreutils-prog=chroot / true', options);
  t.is(direct.code, 'ZB_POLICY_SHELL_NOT_ALLOWED');
  t.true((await checkPermission(agent, 'bash', 'ls .', options)).allowed);
});
