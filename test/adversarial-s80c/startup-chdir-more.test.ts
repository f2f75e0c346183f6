// Review s80c: a startup file's directory change in spellings s78a's CHANGES_DIRECTORY / PYTHON_CHDIR miss. gdb: a
// user alias of `cd`, `eval "c%c …", 100` (a command built by printf), `with … -- cd`, `pipe cd … | cat`, and Python
// `getattr(os, "ch" + "dir")`, `os.__dict__["ch" "dir"]`, `vars(os)[…]` (no `chdir` word, no PYTHON_COMPUTED word).
// vim (an `.exrc` the user's `set exrc` reads): `silent cd`, `noautocmd cd`, `exe "cd …"`, `exe "c" . "d …"`, a `cd`
// after `|`, `call call("ch" . "dir", […])`. Each then loads lint.gdb / lint.vim by a relative name, which the tool
// finds in my-tools/ (checked by hand with gdb 13 / vim 9.0). zotbox protects lint.* at the top only: one CONFINED call
// (`sh one.sh`, real bubblewrap) rewrites my-tools/lint.*, exit 0, and the user's gdb / vim runs it. SAFE outcome
// asserted by hand. Controls: gdb `cd my-tools`, vim `cd my-tools` (line start): stopped.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

async function userToolRunsAgent(t: ExecutionContext, tool: 'gdb' | 'vim', startup: string): Promise<boolean> {
  const payload = tool === 'gdb' ? `printf 'shell touch %s/PWNED\\n' "$(pwd)"` : `printf 'call writefile([], "%s/PWNED")\\n' "$(pwd)"`;
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': `${payload} > my-tools/lint.${tool}\n`,
    [`my-tools/lint.${tool}`]: tool === 'gdb' ? 'echo lint\\n\n' : '" lint\n',
    [`lint.${tool}`]: tool === 'gdb' ? 'echo lint\\n\n' : '" lint\n',
    [tool === 'gdb' ? '.gdbinit' : '.exrc']: startup,
  });
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  try {
    if (tool === 'gdb') execFileSync('gdb', ['-q', '-iex', 'set auto-load safe-path /', '-batch'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore', timeout: 20_000 });
    else {
      // The user's own vimrc reads a project's .exrc (`set exrc`); vim needs a terminal to read its startup files.
      const home = tempDir(t, 'zb-s80c-home-');
      mkdirSync(home, { recursive: true });
      writeFileSync(path.join(home, '.vimrc'), 'set exrc\n');
      execFileSync('script', ['-qec', 'vim -N -i NONE -c qa', '/dev/null'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: home, TERM: 'dumb' }, stdio: 'ignore', timeout: 20_000 });
    }
  } catch (error) {
    t.log(`${tool} failed:`, String(error).slice(0, 300));
  }
  return existsSync(path.join(ws, 'PWNED'));
}

// [title, tool, the line(s) before `source lint.*`]
const CASES: readonly (readonly [string, 'gdb' | 'vim', string])[] = [
  ['gdb: alias mycd = cd; mycd my-tools', 'gdb', 'alias mycd = cd\nmycd my-tools'],
  ['gdb: eval "c%c my-tools", 100', 'gdb', 'eval "c%c my-tools", 100'],
  ['gdb: with print pretty -- cd my-tools', 'gdb', 'with print pretty -- cd my-tools'],
  ['gdb: pipe cd my-tools | cat', 'gdb', 'pipe cd my-tools | cat'],
  ['gdb: python getattr(os, "ch" + "dir")', 'gdb', 'python import os; getattr(os, "ch" + "dir")("my-tools")'],
  ['gdb: python os.__dict__["ch" "dir"]', 'gdb', 'python import os; os.__dict__["ch" "dir"]("my-tools")'],
  ['gdb: python vars(os)["c" "hdir"]', 'gdb', 'python import os; vars(os)["c" "hdir"]("my-tools")'],
  ['vim: silent cd my-tools', 'vim', 'silent cd my-tools'],
  ['vim: noautocmd cd my-tools', 'vim', 'noautocmd cd my-tools'],
  ['vim: exe "cd my-tools"', 'vim', 'exe "cd my-tools"'],
  ['vim: exe "c" . "d my-tools"', 'vim', 'exe "c" . "d my-tools"'],
  ['vim: set nocp | cd my-tools', 'vim', 'set nocp | cd my-tools'],
  ['vim: call call("ch" . "dir", ["my-tools"])', 'vim', 'call call("ch" . "dir", ["my-tools"])'],
  ['control: gdb cd my-tools', 'gdb', 'cd my-tools'],
  ['control: vim cd my-tools', 'vim', 'cd my-tools'],
];

for (const [title, tool, before] of CASES)
  test(`${title}, then source lint.${tool}; the call rewrites my-tools/lint.${tool}: the user's ${tool} runs the user's file only`, async (t) => {
    t.false(await userToolRunsAgent(t, tool, `${before}\nsource lint.${tool}\n`), `the user's ${tool} ran the agent's file`);
  });
