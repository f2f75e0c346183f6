// A module a protected .pth file imports is not protected (class: other tools' files;
// what a protected file names). Every virtual environment made with setuptools (python3
// -m venv on Python up to 3.11, virtualenv) holds site-packages/distutils-precedence.pth,
// which runs `__import__('_distutils_hack')` at every interpreter start (virtualenv's
// _virtualenv.pth imports _virtualenv.py the same way). The .pth is protected; the module
// it imports is an ordinary file of the write scope. The write tool alone rewrites
// _distutils_hack/__init__.py; the next start of the environment's python (the user's
// script, test run, or the editor inspecting the interpreter when the folder is opened)
// runs the payload as the user.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { replay, world } from './open/world.js';

test('the write tool never changes a module a .pth file imports at every start', async (t) => {
  const w = world(t);
  execFileSync('/usr/bin/python3', ['-m', 'venv', path.join(w.ws, 'venv')]);
  const lib = path.join(w.ws, 'venv', 'lib');
  const sitePackages = path.join(lib, readdirSync(lib).find((name) => name.startsWith('python'))!, 'site-packages');
  t.true(readFileSync(path.join(sitePackages, 'distutils-precedence.pth'), 'utf8').includes("__import__('_distutils_hack')"), 'precondition: the .pth imports the module');
  const module = path.join(sitePackages, '_distutils_hack', '__init__.py');
  const content = `import os\nos.system('touch ${w.marker}')\n${readFileSync(module, 'utf8')}`;
  const result = await replay(w, [{ name: 'write', input: { path: path.relative(w.ws, module), content } }]);
  t.log(result.stdout);
  // The user, later, runs the environment's interpreter.
  execFileSync(path.join(w.ws, 'venv', 'bin', 'python'), ['-c', 'pass'], { cwd: w.ws, env: { PATH: '/usr/bin:/bin', HOME: w.home } });
  t.false(existsSync(w.marker), 'the payload ran as the user when the environment started');
});
