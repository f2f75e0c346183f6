// Review s80c: a startup file's directory change in spellings s78a's CHANGES_DIRECTORY / PYTHON_CHDIR miss. gdb: a
// user alias of `cd`, `eval "c%c …", 100` (a command built by printf), `with … -- cd`, `pipe cd … | cat`, and Python
// `getattr(os, "ch" + "dir")`, `os.__dict__["ch" "dir"]`, `vars(os)[…]` (no `chdir` word, no PYTHON_COMPUTED word).
// vim (an `.exrc` the user's `set exrc` reads): `silent cd`, `noautocmd cd`, `exe "cd …"`, `exe "c" . "d …"`, a `cd`
// after `|`, `call call("ch" . "dir", […])`. Each then loads lint.gdb / lint.vim by a relative name, which the tool
// finds in my-tools/ (checked by hand with gdb 13 / vim 9.0). zotbox protects lint.* at the top only: one CONFINED call
// (`sh one.sh`, real bubblewrap) rewrites my-tools/lint.*, exit 0, and the user's gdb / vim runs it. SAFE outcome
// asserted by hand. Controls: gdb `cd my-tools`, vim `cd my-tools` (line start): stopped.
import test from 'ava';
import { userToolRunsAgent } from '../fixtures/startup-tool-run.js';

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
