// Finding: a Python virtual environment's files that editors run on their own when
// the folder is opened, missed by the protected list (policy/protected-files.ts).
// Written by the write tool alone (no bash) and by a bash command, with a write
// scope of ${workspace} that names none of them: the closed world says such a file
// is not granted unless a scope names it.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack, writeAll } from './world.js';

test("a virtualenv's activation scripts (sourced by editors into every new terminal, and by direnv layouts) are not granted by ${workspace}", async (t) => {
  const world = makeWorld(t);
  mkdirSync(path.join(world.workspace, '.venv', 'bin'), { recursive: true });
  writeFileSync(path.join(world.workspace, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  const written = await writeAll(world, ['.venv/bin/activate', '.venv/bin/activate.fish', '.venv/bin/python'], 'touch /tmp/pwned\n');
  t.deepEqual(written, [], "VS Code's Python extension sources .venv/bin/activate in every terminal it opens for the folder, and runs .venv/bin/python to inspect it");
});

test("the files a virtual environment's interpreter runs at start (.pth, sitecustomize.py) and pyvenv.cfg are not granted by ${workspace}", async (t) => {
  const world = makeWorld(t);
  const sitePackages = '.venv/lib/python3.11/site-packages';
  mkdirSync(path.join(world.workspace, sitePackages), { recursive: true });
  writeFileSync(path.join(world.workspace, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  const files = [`${sitePackages}/zz-evil.pth`, `${sitePackages}/sitecustomize.py`, `${sitePackages}/usercustomize.py`, 'env/pyvenv.cfg', 'Lib/site-packages/x.pth'];
  const written = await writeAll(world, files, 'import os; os.system("touch /tmp/pwned")\n');
  t.deepEqual(written, [], "Python runs every .pth line starting with import, and sitecustomize, each time the environment's interpreter starts");
  t.is(readFileSync(path.join(world.workspace, '.venv', 'pyvenv.cfg'), 'utf8'), 'home = /usr/bin\n');
});

test('a bash command cannot rewrite an existing activation script either: it is read-only in the sandbox and the run stops', async (t) => {
  const world = makeWorld(t);
  mkdirSync(path.join(world.workspace, '.venv', 'bin'), { recursive: true });
  const activate = path.join(world.workspace, '.venv', 'bin', 'activate');
  writeFileSync(activate, '# the real one\n');
  chmodSync(activate, 0o644);
  await runAttack(world, { mode: 'ask' }, [{ tool: 'bash', input: { command: `printf 'touch ${world.mark}\\n' >> .venv/bin/activate; printf 'touch ${world.mark}\\n' > .venv/bin/activate.fish` } }]);
  t.is(readFileSync(activate, 'utf8'), '# the real one\n', 'the activation script is as the user left it');
  t.false(existsSync(path.join(world.workspace, '.venv', 'bin', 'activate.fish')), 'a new activation script the command made is removed');
});

test('the names are protected only where a virtual environment keeps them: bin/python in a venv, not a file called python elsewhere', async (t) => {
  const world = makeWorld(t);
  const written = await writeAll(world, ['src/python', 'docs/activate.md', 'tools/site-packages.txt', 'lib/x.pth'], 'plain\n');
  t.deepEqual(written, ['src/python', 'docs/activate.md', 'tools/site-packages.txt', 'lib/x.pth']);
});
