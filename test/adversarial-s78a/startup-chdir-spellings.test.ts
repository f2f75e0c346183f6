// Review s78a: a startup file's directory change spelled other than review s76y's CHANGES_DIRECTORY / PYTHON_CHDIR
// (`os.chdir(`, gdb's `cd`). A `.gdbinit` `python` line moves gdb's working directory by `from os import chdir;
// chdir(...)`, `import os as o; o.chdir(...)`, `posix.chdir(...)` or `gdb.execute("cd ...")` with a name no single
// word spells, then `source lint.gdb` loads my-tools/x/lint.gdb (my-tools/lint.gdb) (checked with gdb 13). zotbox
// protects lint.gdb at the top only: one confined call rewriting the loaded file (`shell touch WS/PWNED`) is not
// stopped, and the user's gdb (with the user's `set auto-load safe-path /`) runs it. SAFE outcome asserted by hand.
// Control: `os.chdir(...)` (fixed by s76y): stopped.
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

// [title, .gdbinit, the file gdb loads]
const CASES = [
  ['from os import chdir', 'python import os; from os import chdir; chdir(os.path.join("my-tools", "x"))\nsource lint.gdb\n', 'my-tools/x/lint.gdb'],
  ['import os as o; o.chdir', 'python import os as o; o.chdir(o.path.join("my-tools", "x"))\nsource lint.gdb\n', 'my-tools/x/lint.gdb'],
  ['posix.chdir', 'python import posix; posix.chdir("my-" "tools")\nsource lint.gdb\n', 'my-tools/lint.gdb'],
  ['gdb.execute("cd ...")', 'python gdb.execute("cd my-" + "tools")\nsource lint.gdb\n', 'my-tools/lint.gdb'],
] as const;

for (const [title, gdbinit, loaded] of CASES)
  test(`.gdbinit moves by ${title} then sources lint.gdb; the call rewrites ${loaded}: the user's gdb runs the user's file only`, async (t) => {
    t.false(await userGdbRunsAgent(t, gdbinit, loaded), "the user's gdb ran the agent's file");
  });

test('control: .gdbinit python os.chdir(os.path.join("my-tools", "x")) (fixed by s76y): stopped', async (t) => {
  t.false(await userGdbRunsAgent(t, 'python import os; os.chdir(os.path.join("my-tools", "x"))\nsource lint.gdb\n', 'my-tools/x/lint.gdb'), "the user's gdb ran the agent's file");
});
