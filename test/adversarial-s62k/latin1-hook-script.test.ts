// Review s62k, confined: the same class as finding 1 through another reader. A user's hook runs a script whose name
// is not UTF-8 (`.git/hooks/pre-commit`: `sh ./caf\xE9.sh`). tool-file-references.ts reads the hook's text as UTF-8,
// so what it protects is `caf\uFFFD.sh`, a path that does not exist; the real `caf\xE9.sh` is not bound read-only, and
// after the call a user's file whose name is not UTF-8 is kept whatever it holds now. One confined call rewrites the
// script; the user's `git commit` runs it. Control (by reading the same path): a UTF-8 name is protected (s2x reviews).
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const ONE = `set -e
printf 'touch PWNED\\n' > "caf$(printf '\\351').sh"
`;

test("a script the user's hook runs, named in Latin-1, is neither protected nor checked in a confined call", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': ONE });
  const script = Buffer.concat([Buffer.from(`${ws}/caf`), Buffer.from([0xe9]), Buffer.from('.sh')]);
  writeFileSync(script, 'true\n');
  const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, Buffer.concat([Buffer.from('#!/bin/sh\nsh ./caf'), Buffer.from([0xe9]), Buffer.from('.sh\n')]));
  chmodSync(hook, 0o755);
  writeFileSync(path.join(ws, 'src', 'app.js'), '2;\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1200));
  try {
    git(ws, 'add', 'src/app.js');
    git(ws, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's code never ran.
  t.false(existsSync(path.join(ws, 'PWNED')), "the user's git commit ran the agent's script");
});
