// Review s86i: startup-file spellings after s84g's fixes that change directory with no `cd` (or `chdir`, `exe`,
// `python`) written on any line. gdb: a user-defined command whose body line is `$arg0d my-tools` run as `go c` (gdb
// substitutes its argument into the body's text: `cd my-tools`), and a `shell` line that writes a `.gdb` file a
// later `source` runs (the file does not exist when zotbox reads). vim (an `.exrc` the user's `set exrc` reads): a
// register built from pieces run by `normal @q`, and a user command `command -nargs=1 Go <args>d my-tools` run as `Go
// c`. Each then loads lint.* by a relative name, which the tool finds in my-tools/. One CONFINED call (`sh one.sh`,
// real bubblewrap) rewrites my-tools/lint.*, and the user's gdb / vim runs it. SAFE outcome asserted by hand.
// Controls: `cd my-tools` on a line of its own, both tools: stopped.
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
      const home = tempDir(t, 'zb-s86i-home-');
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
  ['gdb: define go / $arg0d my-tools / end; go c', 'gdb', 'define go\n  $arg0d my-tools\nend\ndocument go\nGo to the tools.\nend\ngo c\nsource lint.gdb\n'],
  ["gdb: shell printf '%sd my-tools' c > gen.gdb; source gen.gdb", 'gdb', "shell printf '%sd my-tools\\n' c > gen.gdb\nsource gen.gdb\nsource lint.gdb\n"],
  ['vim: let @q = ":c" . "d my-tools\\r"; normal @q', 'vim', 'let @q = ":c" . "d my-tools\\r"\nnormal @q\nsource lint.vim\n'],
  ['vim: command -nargs=1 Go <args>d my-tools; Go c', 'vim', 'command! -nargs=1 Go <args>d my-tools\nGo c\nsource lint.vim\n'],
  ['control: gdb cd my-tools', 'gdb', 'cd my-tools\nsource lint.gdb\n'],
  ['control: vim cd my-tools', 'vim', 'cd my-tools\nsource lint.vim\n'],
];

for (const [title, tool, startup] of CASES)
  test(`${title}; the call rewrites my-tools/lint.${tool}: the user's ${tool} runs the user's file only`, async (t) => {
    t.false(await userToolRunsAgent(t, tool, startup), `the user's ${tool} ran the agent's file`);
  });
