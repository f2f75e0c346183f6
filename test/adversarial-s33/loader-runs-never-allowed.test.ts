// adv27b: the dynamic loader is a program runner that neither the never-allowed list
// nor the unchecked runners name. `ld.so` is on the fixed PATH (/usr/bin/ld.so on
// Debian), has no rule, and so is an ordinary program: allowlisted or approved at the
// --approve prompt ("ld.so (/usr/lib/.../ld-linux-x86-64.so.2)"), it runs whatever
// file it is given, never-allowed programs included. The safe outcome: a never-allowed
// program run through the loader is denied as that program, or the loader is.
import test from 'ava';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { checkPermission } from '../../src/api/check.js';
import { tempDir } from '../fixtures/temp.js';
import { writeReviewAgent } from './review-agent.js';

test('ld.so running setsid (never allowed, whatever the allowlist says) is denied', async (t) => {
  if (!existsSync('/usr/bin/ld.so') || !existsSync('/usr/bin/setsid')) return t.fail('this repro needs /usr/bin/ld.so and /usr/bin/setsid (Debian 12)');
  const root = tempDir(t, 'zb-adv27b-');
  const workspace = path.join(root, 'ws');
  const agent = path.join(root, 'agent');
  for (const directory of [workspace, agent]) mkdirSync(directory, { recursive: true });
  writeReviewAgent(agent, { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'allowlist', allow: ['ld.so'] } });
  const options = { cwd: root, workspace, stateDirectory: path.join(root, 'state') };
  const direct = await checkPermission(agent, 'bash', 'setsid sleep 1', options);
  t.is(direct.code, 'ZB_POLICY_SHELL_NOT_ALLOWED', 'setsid itself is never allowed');
  const loaded = await checkPermission(agent, 'bash', 'ld.so /usr/bin/setsid /usr/bin/sleep 1', options);
  t.false(loaded.allowed, 'ld.so ran setsid, which is never allowed');
});
