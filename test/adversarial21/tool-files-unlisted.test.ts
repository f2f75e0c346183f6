// Files other tools run on their own that the protected list misses (class: other
// tools' files, issue 21 §5). Each is written here by the write tool alone, with a
// plain write scope over the workspace; none is named in a scope.
// End to end: Python's pdb runs ./.pdbrc (lines it does not know as commands are
// Python) and Perl's debugger runs ./.perldb whenever they start in the directory
// (`python3 -m pdb`, `breakpoint()`, `pytest --pdb`, `perl -d`): the payload runs with
// the user's rights. The list protects the same debuggers' kin (.gdbinit, .lldbinit).
// The rest are the same thing for other tools, each read from the directory it starts in
// or is opened on:
// - REPLs and statistics tools: .pryrc and .irbrc (Ruby's pry and irb), .Rprofile (R,
//   and RStudio when it opens the project), .octaverc (GNU Octave), .ghci (GHCi);
// - mise reads mise/config.toml, .config/mise/config.toml and .config/mise/conf.d/*.toml
//   like mise.toml, whose [hooks] enter runs when a shell enters the directory (the list
//   has only the [.]mise[.NAME].toml spellings and .mise/);
// - coding agents that start the MCP servers or run the commands their project settings
//   list: Gemini CLI (.gemini/settings.json), opencode (opencode.json), Amazon Q
//   (.amazonq/mcp.json), Kiro (.kiro/settings/mcp.json), Roo Code (.roo/mcp.json),
//   Continue (.continue/mcpServers/), Codex (.codex/config.toml), aider (.aider.conf.yml:
//   lint-cmd and test-cmd run after each edit);
// - a conda environment's activation scripts (etc/conda/activate.d/*.sh), which
//   `conda activate` and editors' terminals source, like a venv's bin/activate;
// - gvim's .gvimrc (exrc), like .vimrc.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { replay, world } from './open/world.js';

const UNLISTED = [
  '.pryrc',
  '.irbrc',
  '.Rprofile',
  '.octaverc',
  '.ghci',
  'mise/config.toml',
  '.config/mise/config.toml',
  '.config/mise/conf.d/hooks.toml',
  '.gemini/settings.json',
  'opencode.json',
  '.amazonq/mcp.json',
  '.kiro/settings/mcp.json',
  '.roo/mcp.json',
  '.continue/mcpServers/tools.yaml',
  '.codex/config.toml',
  '.aider.conf.yml',
  'env/etc/conda/activate.d/tools.sh',
  '.gvimrc',
];

test('the write tool never plants .pdbrc or .perldb that the user debugger runs', async (t) => {
  const w = world(t, { 'app.py': 'print("app")\n' });
  const result = await replay(w, [
    { name: 'write', input: { path: '.pdbrc', content: `import os; os.system('touch ${w.marker}-pdb')\n` } },
    { name: 'write', input: { path: '.perldb', content: `system("touch ${w.marker}-perl");\n` } },
  ]);
  t.log(result.stdout);
  // The user, later, debugs in the workspace.
  const later = (command: string, args: string[]) => {
    try {
      execFileSync(command, args, { cwd: w.ws, input: 'q\n', env: { PATH: '/usr/bin:/bin', HOME: w.home }, stdio: ['pipe', 'ignore', 'ignore'] });
    } catch {
      // what counts is the marker
    }
  };
  later('python3', ['-m', 'pdb', 'app.py']);
  later('perl', ['-d', '-e', '1']);
  t.false(existsSync(`${w.marker}-pdb`), "the agent's .pdbrc ran as the user in pdb");
  t.false(existsSync(`${w.marker}-perl`), "the agent's .perldb ran as the user in perl -d");
});

test('the write tool never plants the other unlisted tool files', async (t) => {
  const w = world(t);
  const result = await replay(
    w,
    UNLISTED.map((name) => ({ name: 'write' as const, input: { path: name, content: 'planted\n' } })),
  );
  t.log(result.stdout);
  t.deepEqual(
    UNLISTED.filter((name) => existsSync(path.join(w.ws, name))),
    [],
    'files other tools run on their own, written without a scope that names them',
  );
});
