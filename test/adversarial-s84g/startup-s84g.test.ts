// Review s84g: startup-file spellings after s82e's fixes. gdb: Python that reaches `os.chdir` by a name it computes
// through a resolver PYTHON_CHDIR does not list (`inspect.getmembers`, `pydoc.locate`, `pkgutil.resolve_name`), and a
// gdb command run from Python by `execute` bound under another name (`from gdb import execute as run`, `import gdb as
// g; g.execute`) with the `cd` built from pieces. vim (an `.exrc` the user's `set exrc` reads): the runtime path grown by
// `let &rtp .= …` (VIM_SET_PATHS knows `=`, `+=`, `-=`, `^=`) or by a `set rtp+=` that is not first on its line
// (after `|` or `silent`), then `runtime lint.vim`. Each then loads lint.* by a relative name, which the tool finds in
// my-tools/. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites my-tools/lint.*, and the user's gdb / vim runs
// it. SAFE outcome asserted by hand. Controls: `python import os; os.chdir("my-tools")`, `set rtp+=my-tools`: stopped.
import test from 'ava';
import { userToolRunsAgent } from '../fixtures/startup-tool-run.js';

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
