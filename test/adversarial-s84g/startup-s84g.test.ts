// Review s84g: startup-file spellings after s82e's fixes. gdb: Python that reaches `os.chdir` by a name it computes
// through a resolver PYTHON_CHDIR does not list (`inspect.getmembers`, `pydoc.locate`, `pkgutil.resolve_name`), and a
// gdb command run from Python by `execute` bound under another name (`from gdb import execute as run`, `import gdb as
// g; g.execute`) with the `cd` built from pieces. vim (an `.exrc` the user's `set exrc` reads): the runtime path grown by
// `let &rtp .= …` (VIM_SET_PATHS knows `=`, `+=`, `-=`, `^=`) or by a `set rtp+=` that is not first on its line
// (after `|` or `silent`), then `runtime lint.vim`. Each then loads lint.* by a relative name, which the tool finds in
// my-tools/. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites my-tools/lint.*, and the user's gdb / vim runs
// it. SAFE outcome asserted by hand. Controls: `python import os; os.chdir("my-tools")`, `set rtp+=my-tools`: stopped.
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
      const home = tempDir(t, 'zb-s84g-home-');
      mkdirSync(home, { recursive: true });
      writeFileSync(path.join(home, '.vimrc'), 'set exrc\n');
      execFileSync('script', ['-qec', 'vim -N -i NONE -c qa', '/dev/null'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: home, TERM: 'dumb' }, stdio: 'ignore', timeout: 20_000 });
    }
  } catch (error) {
    t.log(`${tool} failed:`, String(error).slice(0, 300));
  }
  return existsSync(path.join(ws, 'PWNED'));
}

// [title, tool, the startup file]
const CASES: readonly (readonly [string, 'gdb' | 'vim', string])[] = [
  ['gdb: python dict(inspect.getmembers(os))["ch" + "dir"]("my-tools")', 'gdb', 'python import os, inspect; dict(inspect.getmembers(os))["ch" + "dir"]("my-tools")\nsource lint.gdb\n'],
  ['gdb: python pydoc.locate("os.ch" + "dir")("my-tools")', 'gdb', 'python import pydoc; pydoc.locate("os.ch" + "dir")("my-tools")\nsource lint.gdb\n'],
  ['gdb: python pkgutil.resolve_name("os:ch" + "dir")("my-tools")', 'gdb', 'python import pkgutil; pkgutil.resolve_name("os:ch" + "dir")("my-tools")\nsource lint.gdb\n'],
  ['gdb: python from gdb import execute as run; run("c" + "d my-tools")', 'gdb', 'python from gdb import execute as run; run("c" + "d my-tools")\nsource lint.gdb\n'],
  ['gdb: python import gdb as g; g.execute("c" + "d my-tools")', 'gdb', 'python import gdb as g; g.execute("c" + "d my-tools")\nsource lint.gdb\n'],
  ["vim: let &rtp .= ',my-tools', runtime lint.vim", 'vim', "let &rtp .= ',my-tools'\nruntime lint.vim\n"],
  ['vim: let g:x = 1 | set rtp+=my-tools, runtime lint.vim', 'vim', 'let g:x = 1 | set rtp+=my-tools\nruntime lint.vim\n'],
  ['vim: silent set rtp+=my-tools, runtime lint.vim', 'vim', 'silent set rtp+=my-tools\nruntime lint.vim\n'],
  ['control: gdb python import os; os.chdir("my-tools")', 'gdb', 'python import os; os.chdir("my-tools")\nsource lint.gdb\n'],
  ['control: vim set rtp+=my-tools, runtime lint.vim', 'vim', 'set rtp+=my-tools\nruntime lint.vim\n'],
];

for (const [title, tool, startup] of CASES)
  test(`${title}; the call rewrites my-tools/lint.${tool}: the user's ${tool} runs the user's file only`, async (t) => {
    t.false(await userToolRunsAgent(t, tool, startup), `the user's ${tool} ran the agent's file`);
  });
