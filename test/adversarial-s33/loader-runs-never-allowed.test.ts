// adv27b: the dynamic loader is a program runner that neither the never-allowed list
// nor the unchecked runners name. `ld.so` is on the fixed PATH (/usr/bin/ld.so on
// Debian), has no rule, and so is an ordinary program: allowlisted or approved at the
// --approve prompt ("ld.so (/usr/lib/.../ld-linux-x86-64.so.2)"), it runs whatever
// file it is given, never-allowed programs included. The safe outcome: a never-allowed
// program run through the loader is denied as that program, or the loader is.
import test from 'ava';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkPermission } from '../../src/api/check.js';
import { tempDir } from '../fixtures/temp.js';

test('ld.so running setsid (never allowed, whatever the allowlist says) is denied', async (t) => {
  if (!existsSync('/usr/bin/ld.so') || !existsSync('/usr/bin/setsid')) return t.fail('this repro needs /usr/bin/ld.so and /usr/bin/setsid (Debian 12)');
  const root = tempDir(t, 'zb-adv27b-');
  const workspace = path.join(root, 'ws');
  const agent = path.join(root, 'agent');
  for (const directory of [workspace, agent]) mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(agent, 'AGENT.md'), '# a\n');
  const manifest = {
    zotfile: 1,
    name: 'adv27b',
    version: '1.0.0',
    description: 'x',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 32000 },
    permissions: { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'allowlist', allow: ['ld.so'] } },
    entry: { greeting: 'hi', default_prompt: 'hi' },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  const options = { cwd: root, workspace, stateDirectory: path.join(root, 'state') };
  const direct = await checkPermission(agent, 'bash', 'setsid sleep 1', options);
  t.is(direct.code, 'ZB_POLICY_SHELL_NOT_ALLOWED', 'setsid itself is never allowed');
  const loaded = await checkPermission(agent, 'bash', 'ld.so /usr/bin/setsid /usr/bin/sleep 1', options);
  t.false(loaded.allowed, 'ld.so ran setsid, which is never allowed');
});
