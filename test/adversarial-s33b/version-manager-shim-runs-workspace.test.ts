// adv27c: the location check (src/policy/program-location.ts) and the program-directory checks see the file a
// name resolves to, not what that file chooses to run. Version-manager shims (asdf, mise, rtx, nodenv, rbenv,
// pyenv: the usual "program directory" for a toolchain, ~/.asdf/shims) are regular files that pick the real
// program from a file in the current directory: asdf's .tool-versions accepts `nodejs path:/any/dir`, so the
// agent writes .tool-versions and ws/fake/bin/npm, and the allowlisted, argument-ruled `npm ls` runs its file,
// on the host with --confine off. The shim below is asdf's logic cut to the bone (real asdf: same outcome).
// Expected (safe): a directory of shims is refused as a program directory (ZB_PROGRAM_PATH_UNSAFE), or what it
// runs is at least decided as code the agent can write (ZB_POLICY_SHELL_NO_RULE with confinement off).
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

const ASDF_SHIM = `#!/bin/sh
# asdf-generated shim (reduced): the version comes from .tool-versions in the current directory.
version=$(sed -n 's/^nodejs //p' .tool-versions 2>/dev/null)
case "$version" in path:*) exec "\${version#path:}/bin/npm" "$@" ;; esac
exec "$HOME/.asdf/installs/nodejs/$version/bin/npm" "$@"
`;

test('an allowlisted ruled program found as a version-manager shim is not let run on the host', async (t) => {
  const root = realpathSync(tempDir(t, 'adv27c-shim-'));
  const agent = path.join(root, 'agent');
  const ws = path.join(root, 'ws');
  const shims = path.join(root, 'home', '.asdf', 'shims');
  for (const d of [agent, ws, shims]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(agent, 'AGENT.md'), 'You run tools.\n');
  const manifest = {
    zotfile: 1,
    name: 'adv',
    version: '0.1.0',
    description: 'x',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 64000 },
    permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['npm'] } },
    entry: { greeting: 'hi' },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(shims, 'npm'), ASDF_SHIM);
  chmodSync(path.join(shims, 'npm'), 0o755);
  // What the agent writes (both inside its write scope).
  writeFileSync(path.join(ws, '.tool-versions'), `nodejs path:${ws}/fake\n`);
  const r = await runCliCaptured(['check', agent, 'bash', 'npm ls', '--cwd', ws, '--program-path', shims, '--confine', 'off']);
  t.is(r.status, 1, r.stdout + r.stderr);
  t.regex(r.stdout + r.stderr, /ZB_PROGRAM_PATH_UNSAFE|ZB_POLICY_SHELL_NO_RULE/);
});
