// Review s42q of issue 21, OVER-DENIAL: python-venv-entries.ts reads a project venv's site-packages `.pth` files and
// takes any `import` line (other than setuptools' editable finder line) as "unreadable", which refuses EVERY writer in
// the project as soon as a hook program run by that venv's interpreter imports anything outside the standard library.
// Two such lines are in nearly every venv: setuptools' `distutils-precedence.pth` (`import os; var =
// 'SETUPTOOLS_USE_DISTUTILS'; ...`: every `python3 -m venv .venv` on Python <= 3.11, and any venv setuptools is
// installed in) and virtualenv's `_virtualenv.pth` (`import _virtualenv`: every venv poetry, pipenv, hatch, tox and
// `virtualenv` make). Both files sit in the venv's protected site-packages and add no path entry. The write tool
// writes `docs/notes.md`, a file no hook names: refused today. (The lines are written as those tools write them; the
// venv is made `--without-pip` so the test runs offline and fast.)
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const DISTUTILS_PRECEDENCE = "import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, 'local') == 'local'; enabled and __import__('_distutils_hack').add_shim(); \n";

async function ordinaryWrite(t: ExecutionContext, pth: Readonly<Record<string, string>>): Promise<void> {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec .venv/bin/python tools/check.py\n',
    '.gitignore': '.venv/\n',
    'tools/check.py': 'from mypkg import lint\n',
    'src/mypkg/__init__.py': '',
    'src/mypkg/lint.py': 'print("lint ok")\n',
    'docs/keep.txt': '\n',
  });
  execFileSync('python3', ['-m', 'venv', '--without-pip', path.join(ws, '.venv')]);
  const lib = path.join(ws, '.venv', 'lib');
  const site = path.join(lib, readdirSync(lib)[0]!, 'site-packages');
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  for (const [name, text] of Object.entries(pth)) {
    mkdirSync(path.dirname(path.join(site, name)), { recursive: true });
    writeFileSync(path.join(site, name), text);
  }
  t.log(await agentWrites(t, ws, 'docs/notes.md', '# notes\n'));
  t.true(existsSync(path.join(ws, 'docs', 'notes.md')), 'a write no hook names was refused');
}

test("a venv with setuptools' distutils-precedence.pth refuses no ordinary write", async (t) => {
  await ordinaryWrite(t, { 'distutils-precedence.pth': DISTUTILS_PRECEDENCE, '_distutils_hack/__init__.py': '' });
});

test('a venv virtualenv made (_virtualenv.pth: poetry, pipenv, hatch, tox) refuses no ordinary write', async (t) => {
  await ordinaryWrite(t, { '_virtualenv.pth': 'import _virtualenv\n', '_virtualenv.py': '"""Patches that are applied at runtime to the virtual environment."""\n' });
});

test('control (passes today): the same venv without those files', async (t) => {
  await ordinaryWrite(t, {});
});
