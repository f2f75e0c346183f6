// Review s62k, confined: finding 1 through a full run (real bubblewrap). The protected set (control-locations.ts
// `readConfig`: `textAt` → `readSmallFile` → `toString('utf8')`) reads the user's `[include] path = ../caf\xE9.inc` as
// `caf\uFFFD.inc` and protects that path, which does not exist; the real file `caf\xE9.inc` is not bound read-only. The
// scan (git-inventory.ts `addConfig` → `includedPaths` → `insideScopes`) never records it as a config either, and
// after the call the user's file whose name is not UTF-8 is kept, whatever it holds now. One confined call rewrites it
// to set `core.hooksPath` to a folder of the agent's; the user's `git commit` runs the agent's hook.
import { existsSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const ONE = `set -e
mkdir -p agent-hooks
printf '#!/bin/sh\\ntouch "$(git rev-parse --show-toplevel)/PWNED"\\n' > agent-hooks/pre-commit
chmod +x agent-hooks/pre-commit
printf '[core]\\n\\thooksPath = %s/agent-hooks\\n' "$PWD" > "caf$(printf '\\351').inc"
`;

test("a user's config include whose path is not UTF-8 is neither protected nor checked in a confined call", async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': ONE });
  writeFileSync(Buffer.concat([Buffer.from(`${ws}/caf`), Buffer.from([0xe9]), Buffer.from('.inc')]), '[user]\n\tname = u\n');
  appendFileSync(path.join(ws, '.git', 'config'), Buffer.concat([Buffer.from('[include]\n\tpath = ../caf'), Buffer.from([0xe9]), Buffer.from('.inc\n')]));
  writeFileSync(path.join(ws, 'src', 'app.js'), '2;\n');
  t.log('run 1:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1200));
  try {
    git(ws, 'add', 'src/app.js');
    git(ws, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  // SAFE: the agent's hook never ran.
  t.false(existsSync(path.join(ws, 'PWNED')), "the user's git commit ran the agent's hook");
});
