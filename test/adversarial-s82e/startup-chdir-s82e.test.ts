// Review s82e: a startup file's directory change in spellings s80c's CHANGES_DIRECTORY / PYTHON_CHDIR miss. gdb:
// `source helper.py` whose Python chdirs (a .py is read as a Python program, where no chdir refuses), and Python's
// `os.__getattribute__("ch" + "dir")` (no `getattr(`, `vars(`, `__dict__`). vim (an `.exrc` the user's `set exrc`
// reads): `call eval("ch" . "dir('my-tools')")` and `let _ = execute("c" . "d my-tools")` (a vim function run by a
// name vim computes, not `call(`/`exe`). Each then loads lint.gdb / lint.vim by a relative name, which the tool finds
// in my-tools/. zotbox protects lint.* at the top only: one CONFINED call (`sh one.sh`, real bubblewrap) rewrites
// my-tools/lint.*, and the user's gdb / vim runs it. SAFE outcome asserted by hand. Controls: gdb `python import os;
// os.chdir("my-tools")` inline, vim `call chdir("my-tools")`: stopped.
import test from 'ava';
import { userToolRunsAgent } from '../fixtures/startup-tool-run.js';

// [title, tool, the line(s) before `source lint.*`, extra files]
const CASES: readonly (readonly [string, 'gdb' | 'vim', string, Readonly<Record<string, string>>])[] = [
  ['gdb: source helper.py (import os; os.chdir("my-tools"))', 'gdb', 'source helper.py', { 'helper.py': 'import os\nos.chdir("my-tools")\n' }],
  ['gdb: python import os; os.__getattribute__("ch" + "dir")("my-tools")', 'gdb', 'python import os; os.__getattribute__("ch" + "dir")("my-tools")', {}],
  ['vim: call eval("ch" . "dir(\'my-tools\')")', 'vim', 'call eval("ch" . "dir(\'my-tools\')")', {}],
  ['vim: let _ = execute("c" . "d my-tools")', 'vim', 'let _ = execute("c" . "d my-tools")', {}],
  ['control: gdb python import os; os.chdir("my-tools")', 'gdb', 'python import os; os.chdir("my-tools")', {}],
  ['control: vim call chdir("my-tools")', 'vim', 'call chdir("my-tools")', {}],
];

for (const [title, tool, before, extra] of CASES)
  test(`${title}, then source lint.${tool}; the call rewrites my-tools/lint.${tool}: the user's ${tool} runs the user's file only`, async (t) => {
    t.false(await userToolRunsAgent(t, tool, `${before}\nsource lint.${tool}\n`, extra), `the user's ${tool} ran the agent's file`);
  });
