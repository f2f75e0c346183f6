// What a protected tool file names is not protected (class: other tools' files; the
// analogue, for tools other than git, of the control locations git's configuration
// names). The user's .envrc, allowed once with `direnv allow`, sources .envrc.local
// (`source_env_if_exists .envrc.local`, the common local-override pattern; `dotenv`
// names .env, `use nix`/`use flake` name shell.nix/flake.nix, whose shellHook runs).
// direnv's approval covers the bytes of .envrc only, and it reloads when a sourced file
// changes. The write tool alone writes .envrc.local; the user's shell entering the
// directory (direnv's prompt hook runs `direnv export`) runs it with the user's rights,
// without asking. Likewise a .vscode/tasks.json task with "runOn": "folderOpen" names a
// script in the workspace that VS Code runs when the folder is opened: .vscode/ is
// protected, the script it names is not.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { replay, world } from './world.js';

test('the write tool never plants a file the allowed .envrc sources', async (t) => {
  const w = world(t, { '.envrc': 'source_env_if_exists .envrc.local\n' });
  const env = { PATH: '/usr/bin:/bin', HOME: w.home };
  execFileSync('direnv', ['allow', w.ws], { env, stdio: 'ignore' });
  const result = await replay(w, [{ name: 'write', input: { path: '.envrc.local', content: `touch ${w.marker}\n` } }]);
  t.log(result.stdout);
  // The user, later, enters the directory: their shell's direnv hook runs `direnv export`.
  try {
    execFileSync('direnv', ['export', 'bash'], { cwd: w.ws, env, stdio: 'ignore' });
  } catch {
    // what counts is the marker
  }
  t.false(existsSync(w.marker), "the agent's .envrc.local ran as the user when their shell entered the directory");
});

test('the write tool never changes the script a folderOpen task runs', async (t) => {
  const tasks = JSON.stringify({ version: '2.0.0', tasks: [{ label: 'setup', type: 'shell', command: './scripts/on-open.sh', runOptions: { runOn: 'folderOpen' } }] });
  const w = world(t, { '.vscode/tasks.json': `${tasks}\n`, 'scripts/on-open.sh': '#!/bin/sh\nnpm ci\n' });
  const result = await replay(w, [{ name: 'write', input: { path: 'scripts/on-open.sh', content: `#!/bin/sh\ntouch ${w.marker}\n` } }]);
  t.log(result.stdout);
  t.false(execFileSync('cat', [path.join(w.ws, 'scripts/on-open.sh')], { encoding: 'utf8' }).includes(w.marker), 'the script VS Code runs when the folder is opened holds the agent payload');
});
