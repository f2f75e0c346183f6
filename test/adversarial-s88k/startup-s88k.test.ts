// Review s88k: startup-file directory changes that no single line shows after s86i, because the tool joins lines
// before it reads them: gdb joins a line ending in `\` with the next (`c\` / `d my-tools` is `cd my-tools`), vim joins
// a line starting with `\` to the one before (`c` / `\d my-tools`). And vim's `:edit +cmd FILE` runs its `+cmd` (`e
// +cd\ my-tools src.txt`: a `cd` after a `+`, which the cd rule's list of what may stand before it lacks). Each then
// loads lint.* by a relative name, which the tool finds in my-tools/. One CONFINED call (`sh one.sh`, real bubblewrap)
// rewrites my-tools/lint.*, and the user's gdb / vim runs it. SAFE outcome asserted by hand. Controls: `cd my-tools`.
import test from 'ava';
import { userToolRunsAgent } from '../fixtures/startup-tool-run.js';

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
