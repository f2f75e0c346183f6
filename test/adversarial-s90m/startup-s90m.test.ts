// Review s90m: a vim directory change the joined continuations of s88k still miss. Vim reads a line starting with
// `"\ ` inside a continuation as a comment and skips it (`:help line-continuation-comment`), so `c`, `"\ x`, `\d
// my-tools` is `cd my-tools`; zotbox joins `\d my-tools` onto the comment line and reads no cd. Vim then loads
// lint.vim by a relative name, which it finds in my-tools/. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites
// my-tools/lint.vim, and the user's vim runs it. SAFE outcome asserted by hand.
import test from 'ava';
import { userToolRunsAgent } from '../fixtures/startup-tool-run.js';

test("vim: c / \"\\ x / \\d my-tools (a comment inside a continuation); the call rewrites my-tools/lint.vim: the user's vim runs the user's file only", async (t) => {
  t.false(await userToolRunsAgent(t, 'vim', 'c\n"\\ x\n\\d my-tools\nsource lint.vim\n'), "the user's vim ran the agent's file");
});
