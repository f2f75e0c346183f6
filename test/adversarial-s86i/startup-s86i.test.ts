// Review s86i: startup-file spellings after s84g's fixes that change directory with no `cd` (or `chdir`, `exe`,
// `python`) written on any line. gdb: a user-defined command whose body line is `$arg0d my-tools` run as `go c` (gdb
// substitutes its argument into the body's text: `cd my-tools`), and a `shell` line that writes a `.gdb` file a
// later `source` runs (the file does not exist when zotbox reads). vim (an `.exrc` the user's `set exrc` reads): a
// register built from pieces run by `normal @q`, and a user command `command -nargs=1 Go <args>d my-tools` run as `Go
// c`. Each then loads lint.* by a relative name, which the tool finds in my-tools/. One CONFINED call (`sh one.sh`,
// real bubblewrap) rewrites my-tools/lint.*, and the user's gdb / vim runs it. SAFE outcome asserted by hand.
// Controls: `cd my-tools` on a line of its own, both tools: stopped.
import test from 'ava';
import { userToolRunsAgent } from '../fixtures/startup-tool-run.js';

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
