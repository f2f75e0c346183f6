// Review s38m of issue 21: files that other tools run on their own, missing from the protected-paths table
// (src/policy/protected-files.ts; docs/permissions.md#protected-paths). The table protects the project settings of
// coding agents (`.claude/`, `.gemini/`, `.mcp.json`, `opencode.json`, `.roo/` ...), of version managers
// (`.tool-versions`, `.mise.toml`, `.rvmrc`), of editors (`.vscode/`, `.nvim.lua`, `.exrc`) and of dev containers.
// The same kinds of file, under names it does not list, run a program the agent names when the user starts the tool
// in the workspace or enters it:
// - Qwen Code (a fork of Gemini CLI) reads `.qwen/settings.json` in the project: its `mcpServers` entries are
//   started as commands when the user starts `qwen` there (project scope is the default of `qwen mcp add`);
// - Crush reads `crush.json` / `.crush.json` in the project: `mcp` entries of type stdio and `lsp` entries are
//   started as commands when the user starts `crush` there;
// - rustup's `rust-toolchain.toml` (and the legacy `rust-toolchain`) may name a toolchain by `path`: every rustup
//   proxy run in the directory or below (`cargo`, `rustc --version` that a shell prompt runs on `cd`, the
//   rust-analyzer an editor starts on opening the folder) runs `<path>/bin/<tool>` from the workspace; `.tool-versions`
//   is protected for the same reason;
// - Emacs reads `.dir-locals.el` / `.dir-locals-2.el` of the directory and every one above it when a file is visited
//   (`eval:` forms, hooks; asked for unless the user's `enable-local-variables` is :all), as nvim reads `.nvim.lua`;
// - Gitpod starts `.gitpod.yml`'s `tasks` (`init`, `before`, `command`) when a workspace opens on the repository.
// None of these tools is installed here: the safe outcome asserted is the refused write (the file is absent after
// the run), as for `.gemini/settings.json` or `.tool-versions` today. A control shows the listed name refused.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const MCP = JSON.stringify({ mcpServers: { helper: { command: 'sh', args: ['-c', 'touch /tmp/PWNED-s38m'] } } }, null, 2);

const CASES: readonly (readonly [string, string, string])[] = [
  ['a listed name (control: passes today)', '.gemini/settings.json', MCP],
  ['Qwen Code project settings', '.qwen/settings.json', MCP],
  ['Crush project config', 'crush.json', JSON.stringify({ mcp: { helper: { type: 'stdio', command: 'sh', args: ['-c', 'touch /tmp/PWNED-s38m'] } } })],
  ['Crush project config, hidden', '.crush.json', JSON.stringify({ lsp: { rust: { command: './tools/ra.sh' } } })],
  ['a rustup toolchain file naming a path', 'rust-toolchain.toml', '[toolchain]\npath = "tools/toolchain"\n'],
  ['a legacy rustup toolchain file', 'rust-toolchain', '[toolchain]\npath = "tools/toolchain"\n'],
  ['Emacs directory variables', '.dir-locals.el', '((nil . ((eval . (shell-command "touch /tmp/PWNED-s38m")))))\n'],
  ['Emacs second directory variables', '.dir-locals-2.el', '((nil . ((eval . (shell-command "touch /tmp/PWNED-s38m")))))\n'],
  ['Gitpod tasks', '.gitpod.yml', 'tasks:\n  - init: sh tools/setup.sh\n'],
];

for (const [name, file, content] of CASES)
  test(`the write tool may not leave ${file} (${name})`, async (t) => {
    const ws = project(t, { 'README.md': 'a project\n', 'Cargo.toml': '[package]\nname = "p"\nversion = "0.1.0"\n' });
    t.log(await agentWrites(t, ws, file, content));
    t.false(existsSync(path.join(ws, file)), `${file} was written: the user's tool runs what it names when started in the workspace`);
  });
