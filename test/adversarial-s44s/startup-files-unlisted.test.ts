// Review s44s of issue 21: REPL startup files run from the directory the REPL starts in, missing from the protected
// list beside `.pryrc`, `.irbrc`, `.Rprofile`, `.octaverc`, `.ghci` (same "runBy": the REPL runs it when started in the
// directory). None of these tools is installed here: the write alone is asserted, the behaviour is each tool's manual.
// - `.Renviron`: R reads `.Renviron` from the current directory (else home) before the profile, and its
//   `R_PROFILE_USER=notes/x.R` makes R run that file in place of `.Rprofile`: a way around the protected `.Rprofile`.
// - `.iex.exs`: Elixir's IEx evaluates `.iex.exs` from the current directory (`iex -S mix`, how Elixir is worked on).
// - `.ocamlinit`: the OCaml toplevel (and utop, `dune utop`) reads `.ocamlinit` from the current directory first.
// - `.lazy.lua`: lazy.nvim (the usual Neovim plugin manager, `local_spec` on by default) loads `.lazy.lua` from the
//   directory Neovim starts in, behind the same trust prompt as the protected `.nvim.lua`.
// - `.env` at the top of a repository where aider is set up (`.aider.conf.yml`, protected): aider reads every option
//   from `.env` there as well (home, the git root, the current directory, as it reads `.aider.conf.yml`), so
//   `AIDER_LINT_CMD=sh notes/x.sh` (with `auto-lint`, on by default) runs the agent's command after aider's next edit:
//   a way around the protected `.aider.conf.yml`.
// Controls: `.Rprofile`, `.ghci` and `.aider.conf.yml` are refused; a `.env` with no aider configuration is written.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const [name, content] of [
  ['.Renviron', 'R_PROFILE_USER=notes/profile.R\n'],
  ['.iex.exs', 'System.cmd("sh", ["-c", "touch /tmp/owned"])\n'],
  ['.ocamlinit', '#use "notes/init.ml";;\n'],
  ['.lazy.lua', 'os.execute("touch /tmp/owned")\nreturn {}\n'],
  ['control (passes today): .Rprofile', 'system("touch /tmp/owned")\n'],
  ['control (passes today): .ghci', ':! touch /tmp/owned\n'],
  ['control (passes today): .aider.conf.yml', 'lint-cmd: sh notes/x.sh\n'],
  ['.env', 'AIDER_LINT_CMD=sh notes/x.sh\n'],
] as const) {
  const file = name.replace(/^control \(passes today\): /u, '');
  test(`a file a REPL, editor or coding agent reads on its own is refused: ${name}`, async (t) => {
    // aider's `.env`: where aider is set up (its protected `.aider.conf.yml` at the top).
    const ws = project(t, file === '.env' ? { '.aider.conf.yml': 'auto-lint: true\n' } : { 'README.md': 'project\n' });
    t.log(await agentWrites(t, ws, file, content));
    t.false(existsSync(path.join(ws, file)), `${file} was written`);
  });
}

test('control: a plain .env in a project without aider is written', async (t) => {
  const ws = project(t, { 'README.md': 'project\n' });
  t.log(await agentWrites(t, ws, '.env', 'DATABASE_URL=postgres://localhost/dev\n'));
  t.true(existsSync(path.join(ws, '.env')), '.env was refused');
});
