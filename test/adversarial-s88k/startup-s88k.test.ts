// Review s88k: startup-file directory changes that no single line shows after s86i, because the tool joins lines
// before it reads them: gdb joins a line ending in `\` with the next (`c\` / `d my-tools` is `cd my-tools`), vim joins
// a line starting with `\` to the one before (`c` / `\d my-tools`). And vim's `:edit +cmd FILE` runs its `+cmd` (`e
// +cd\ my-tools src.txt`: a `cd` after a `+`, which the cd rule's list of what may stand before it lacks). Each then
// loads lint.* by a relative name, which the tool finds in my-tools/. One CONFINED call (`sh one.sh`, real bubblewrap)
// rewrites my-tools/lint.*, and the user's gdb / vim runs it. SAFE outcome asserted by hand. Controls: `cd my-tools`.
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
      const home = tempDir(t, 'zb-s88k-home-');
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
  ['gdb: c\\ / d my-tools (a continued line)', 'gdb', 'c\\\nd my-tools\nsource lint.gdb\n'],
  ['vim: c / \\d my-tools (a continuation line)', 'vim', 'c\n\\d my-tools\nsource lint.vim\n'],
  ['vim: edit +cd\\ my-tools src.txt', 'vim', 'edit +cd\\ my-tools src.txt\nsource lint.vim\n'],
  ['control: gdb cd my-tools', 'gdb', 'cd my-tools\nsource lint.gdb\n'],
  ['control: vim cd my-tools', 'vim', 'cd my-tools\nsource lint.vim\n'],
];

for (const [title, tool, startup] of CASES)
  test(`${title}; the call rewrites my-tools/lint.${tool}: the user's ${tool} runs the user's file only`, async (t) => {
    t.false(await userToolRunsAgent(t, tool, startup), `the user's ${tool} ran the agent's file`);
  });
