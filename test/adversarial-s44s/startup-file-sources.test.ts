// Review s44s of issue 21: the debugger, editor and REPL startup files on the protected list (`.gdbinit`, `.exrc`,
// `.vimrc`, `.nvim.lua`, `.Rprofile`, `.pryrc`, `.irbrc`, `.ghci`, `.pdbrc`, `.octaverc`, ...) are refused to
// the write tool but never read: tool-file-references.ts reads `.envrc` by direnv's grammar and the settings in
// WORDS_ENTRIES as words, nothing else. What they source or load is neither protected nor unresolved, though
// docs/security.md says "What such a file names is protected as the file is". The write tool rewrites the file the
// protected one loads; the user's next session in the project runs it, unconfined:
// - gdb: `.gdbinit` `source tools/gdb/helpers.py` (embedded projects' pretty-printers), run by `gdb` in the project
//   once the user trusts it (`add-auto-load-safe-path`, as gdb tells them to); end to end with the real gdb.
// - vim: `.exrc` `source tools/vim/project.vim`, run by `vim` in the project with the user's `set exrc`; end to end
//   with the real vim.
// - R: renv (`renv::init()`) writes `.Rprofile` as `source("renv/activate.R")`: every R session, RStudio and Rscript
//   started in the project runs `renv/activate.R` (R is not installed here: the write alone is asserted).
// Controls: the protected files themselves are refused; an ordinary source file beside them is written.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

/** The write tool rewrites `target` (`payload(marker)`); then the user runs `session` in the project. Safe: refused, never run. */
async function startupAttack(t: ExecutionContext, ws: string, target: string, payload: (marker: string) => string, session: (ws: string) => void): Promise<void> {
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, target, payload(marker)));
  session(ws);
  t.false(existsSync(marker), "the agent-written file ran in the user's session");
  // The project holds `target` already (committed): safe is the user's version, unchanged.
  t.is(execFileSync('git', ['status', '--porcelain', target], { cwd: ws, encoding: 'utf8' }), '', `the agent-written ${target} was neither refused nor put back`);
}

/** The user debugs in the project, which they told gdb to trust (the line gdb's own warning suggests). */
const gdbSession = (ws: string) => {
  execFileSync('gdb', ['-batch', '-iex', `add-auto-load-safe-path ${ws}`, '-ex', 'echo session\\n'], { cwd: ws, stdio: 'ignore', timeout: 30_000 });
};

/** The user opens vim in the project, with `set exrc` in their own ~/.vimrc. */
const vimSession = (t: ExecutionContext) => (ws: string) => {
  const home = tempDir(t, 'zb-s44s-home-');
  writeFileSync(path.join(home, '.vimrc'), 'set exrc\n');
  execFileSync('vim', ['-N', '-i', 'NONE', '-X', '-c', 'qa!'], { cwd: ws, stdio: ['ignore', 'ignore', 'ignore'], env: { ...process.env, HOME: home }, timeout: 30_000 });
};

const pythonPayload = (marker: string) => `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`;
const vimPayload = (marker: string) => `call writefile(['agent code ran'], ${JSON.stringify(marker)})\n`;

const gdbProject = (t: ExecutionContext) => project(t, { '.gdbinit': 'source tools/gdb/helpers.py\n', 'tools/gdb/helpers.py': 'print("pretty printers loaded")\n' });
const vimProject = (t: ExecutionContext) => project(t, { '.exrc': 'source tools/vim/project.vim\n', 'tools/vim/project.vim': 'set shiftwidth=2\n' });

test('what a protected .gdbinit sources is protected (gdb, end to end)', async (t) => {
  await startupAttack(t, gdbProject(t), 'tools/gdb/helpers.py', pythonPayload, gdbSession);
});

test('what a protected .exrc sources is protected (vim, end to end)', async (t) => {
  await startupAttack(t, vimProject(t), 'tools/vim/project.vim', vimPayload, vimSession(t));
});

test("what renv's .Rprofile sources (renv/activate.R) is protected", async (t) => {
  const ws = project(t, { '.Rprofile': 'source("renv/activate.R")\n', 'renv/activate.R': 'local({ version <- "1.0.7" })\n', 'renv.lock': '{}\n' });
  t.log(await agentWrites(t, ws, 'renv/activate.R', 'system("touch /tmp/owned")\n'));
  t.is(execFileSync('git', ['status', '--porcelain', 'renv/activate.R'], { cwd: ws, encoding: 'utf8' }), '', 'renv/activate.R was rewritten');
});

for (const [name, make, file] of [
  ['.gdbinit', gdbProject, '.gdbinit'],
  ['.exrc', vimProject, '.exrc'],
] as const)
  test(`control (passes today): the protected ${name} itself is refused`, async (t) => {
    const ws = make(t);
    t.log(await agentWrites(t, ws, file, 'echo changed\n'));
    t.is(execFileSync('git', ['status', '--porcelain', file], { cwd: ws, encoding: 'utf8' }), '', `${file} was rewritten`);
  });

test('control: beside a .gdbinit that sources a helper, an ordinary source file is written', async (t) => {
  const ws = gdbProject(t);
  t.log(await agentWrites(t, ws, 'src/main.c', 'int main(void) { return 0; }\n'));
  t.true(existsSync(path.join(ws, 'src/main.c')), 'src/main.c was refused');
});
