// Review s76y: a startup file that changes the tool's working directory (in Python) before it loads a relative name.
// startup-file-sources.ts reads a relative name a directive gives as relative to where the tool STARTS, and reads no
// directory change; the words reader joins each word on every directory another word names (so a plain `cd tools`
// held: tools/lint.gdb is protected by that join). A `python` line that changes directory with a name no single word
// spells (`os.chdir(os.path.join("my-tools", "x"))`, `os.chdir("my-" "tools")`) then `source lint.gdb` loads
// my-tools/x/lint.gdb / tools/lint.gdb (checked with gdb 13: it echoes that file, not the top one). zotbox protects
// lint.gdb at the top (and under `x`, `to`, `ols` at the top) only, and PYTHON_COMPUTED does not name `os.chdir`: one
// confined call rewriting the loaded file (`shell touch WS/PWNED`, the workspace written out: gdb now runs in the new directory) is not stopped, and the user's gdb (with the user's
// `set auto-load safe-path /`) runs it. SAFE outcome asserted by hand: it never does. Controls: a plain `cd tools`
// (held by the words join) and `source my-tools/x/lint.gdb` spelled plainly, the same call: stopped.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

async function userGdbRunsAgent(t: ExecutionContext, gdbinit: string, rewritten: string): Promise<boolean> {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': `printf 'shell touch %s/PWNED\\n' "$(pwd)" > ${rewritten}\n`,
    'my-tools/x/lint.gdb': 'echo lint\\n\n',
    'my-tools/lint.gdb': 'echo lint\\n\n',
    'lint.gdb': 'echo lint\\n\n',
    '.gdbinit': gdbinit,
  });
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  try {
    execFileSync('gdb', ['-q', '-iex', 'set auto-load safe-path /', '-batch'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' });
  } catch (error) {
    t.log('gdb failed:', String(error).slice(0, 300));
  }
  return existsSync(path.join(ws, 'PWNED'));
}

// [.gdbinit, the file gdb loads]
const CASES = [
  ['python import os; os.chdir(os.path.join("my-tools", "x"))\nsource lint.gdb\n', 'my-tools/x/lint.gdb'],
  ['python import os; os.chdir("my-" "tools")\nsource lint.gdb\n', 'my-tools/lint.gdb'],
] as const;

for (const [gdbinit, loaded] of CASES)
  test(`.gdbinit ${JSON.stringify(gdbinit)}, the call rewrites ${loaded}: the user's gdb runs the user's file only`, async (t) => {
    t.false(await userGdbRunsAgent(t, gdbinit, loaded), "the user's gdb ran the agent's file");
  });

for (const gdbinit of ['cd my-tools\nsource lint.gdb\n', 'source my-tools/x/lint.gdb\n'])
  test(`control: .gdbinit ${JSON.stringify(gdbinit)}, the call rewrites the file it loads: stopped`, async (t) => {
    t.false(await userGdbRunsAgent(t, gdbinit, gdbinit.startsWith('cd') ? 'my-tools/lint.gdb' : 'my-tools/x/lint.gdb'), "the user's gdb ran the agent's file");
  });
