// Review s72u, finding 5: gdb's `source` of a relative name it does not find in the working directory searches the
// source path (`directory DIR`, and always with `source -s`): `.gdbinit` `directory tools/x` then `source lint.gdb`
// loads tools/x/lint.gdb (checked with gdb 13: both spellings). startup-file-sources.ts reads the `source` directive
// as a name relative to where gdb starts only (`lint.gdb` at the top, `-s` skipped as an option) and `directory` not at
// all, so nothing protects tools/x/lint.gdb. One confined call rewrites it (`shell touch PWNED`): no stop, and the
// user's gdb (with the user's `set auto-load safe-path /`) runs the agent's command. Not a `..` (the reader's new
// rule), but the same reader's closed world. SAFE outcome asserted: it never does.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const gdbinit of ['directory tools/x\nsource lint.gdb\n', 'directory tools/x\nsource -s lint.gdb\n']) {
  test(`.gdbinit ${JSON.stringify(gdbinit)}: the user's gdb runs the user's lint.gdb only`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': "printf 'shell touch PWNED\\n' > tools/x/lint.gdb\n", 'tools/x/lint.gdb': 'echo lint\\n\n', '.gdbinit': gdbinit });
    t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
    try {
      execFileSync('gdb', ['-q', '-iex', 'set auto-load safe-path /', '-batch'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' });
    } catch (error) {
      t.log('gdb failed:', String(error).slice(0, 300));
    }
    t.false(existsSync(path.join(ws, 'PWNED')), "the user's gdb ran the agent's file");
  });
}

test('control: .gdbinit "source tools/x/lint.gdb", the call rewrites tools/x/lint.gdb: stopped', async (t) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': "printf 'shell touch PWNED\\n' > tools/x/lint.gdb\n", 'tools/x/lint.gdb': 'echo lint\\n\n', '.gdbinit': 'source tools/x/lint.gdb\n' });
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  try {
    execFileSync('gdb', ['-q', '-iex', 'set auto-load safe-path /', '-batch'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' });
  } catch (error) {
    t.log('gdb failed:', String(error).slice(0, 300));
  }
  t.false(existsSync(path.join(ws, 'PWNED')), "the user's gdb ran the agent's file");
});
