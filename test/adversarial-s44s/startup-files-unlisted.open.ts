// Review s44s of issue 21: REPL startup files run from the directory the REPL starts in, missing from the protected
// list beside `.pryrc`, `.irbrc`, `.Rprofile`, `.octaverc`, `.ghci` (same "runBy": the REPL runs it when started in the
// directory). None of these tools is installed here: the write alone is asserted, the behaviour is each tool's manual.
// - `.Renviron`: R reads `.Renviron` from the current directory (else home) before the profile, and its
//   `R_PROFILE_USER=notes/x.R` makes R run that file in place of `.Rprofile`: a way around the protected `.Rprofile`.
// - `.iex.exs`: Elixir's IEx evaluates `.iex.exs` from the current directory (`iex -S mix`, how Elixir is worked on).
// - `.ocamlinit`: the OCaml toplevel (and utop, `dune utop`) reads `.ocamlinit` from the current directory first.
// - `.lazy.lua`: lazy.nvim (the usual Neovim plugin manager, `local_spec` on by default) loads `.lazy.lua` from the
//   directory Neovim starts in, behind the same trust prompt as the protected `.nvim.lua`.
// Controls: `.Rprofile` and `.ghci` are refused today.
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
] as const) {
  const file = name.replace(/^control \(passes today\): /u, '');
  test(`a REPL or editor startup file is refused: ${name}`, async (t) => {
    const ws = project(t, { 'README.md': 'project\n' });
    t.log(await agentWrites(t, ws, file, content));
    t.false(existsSync(path.join(ws, file)), `${file} was written`);
  });
}
