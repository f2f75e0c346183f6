// Review s38l of issue 21 (fixed by dotenv-line.ts): the dotenv reader (envrc-lines.ts DOTENV_LINE) takes the whole rest of a `.env` line as the
// value. direnv's `dotenv` (2.32) ends an unquoted value at `#` (`PYTHONPATH=src # project sources` is `src`; so is
// `src#x`, and `'src' # c`). zotbox protects a directory named `src # project sources`, which is not there, and
// nothing comes back unresolved: src/ stays writable. Python puts PYTHONPATH before the standard library and imports
// `sitecustomize` from it at every start: the write tool leaves src/sitecustomize.py and the user's next `python3` in
// the direnv shell runs it. (Checked: with `src` alone the same write is refused.)
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const [name, line] of [
  ['a comment after a blank', 'PYTHONPATH=src # project sources'],
  ['a comment right after the value', 'PYTHONPATH=src#project sources'],
  ['a quoted value and a comment', "PYTHONPATH='src' # project sources"],
] as const)
  test(`a search path a .env gives with ${name} is protected`, async (t) => {
    const ws = project(t, { '.envrc': 'dotenv\n', '.env': `${line}\n`, 'src/app.py': 'print("app")\n' });
    const marker = path.join(path.dirname(ws), 'PWNED');
    const out = await agentWrites(t, ws, 'src/sitecustomize.py', `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`);
    t.log(out);
    // The user trusted this .envrc before the run; later they run python in the direnv shell.
    const data = path.join(path.dirname(ws), 'xdg');
    mkdirSync(data);
    const env = { ...process.env, XDG_DATA_HOME: data, XDG_CONFIG_HOME: data };
    execFileSync('direnv', ['allow', '.'], { cwd: ws, env, stdio: 'ignore' });
    execFileSync('direnv', ['exec', '.', 'python3', '-c', 'print("hello")'], { cwd: ws, env, stdio: 'ignore' });
    t.false(existsSync(marker), 'python3 in the direnv shell ran the agent-written src/sitecustomize.py');
  });
