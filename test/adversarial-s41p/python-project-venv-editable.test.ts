// Review s41p of issue 21: the usual modern Python project keeps its virtual environment in the project (`python -m
// venv .venv`, uv's and poetry's in-project `.venv`) with the project installed in it editable (`pip install -e .`,
// `uv sync`): the venv's site-packages holds `__editable__.mypkg-0.1.pth` naming `<ws>/src`. A hook that runs the
// project's tool with that interpreter (`.venv/bin/python -m mypkg.lint`, pre-commit's `language: system` entry)
// loads `src/mypkg/lint.py`. zotbox never runs an interpreter inside the write scopes to list its path, and then "adds
// no directories" (docs/security.md): the `.pth` files of the venv's site-packages, which are protected whole and so
// readable without running anything, are never read, and nothing is unresolved either, so the editable install's
// modules stay writable (the s39n fix covers only an interpreter outside the project). The write tool rewrites
// `src/mypkg/lint.py`; the user's commit runs it.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

async function attack(t: ExecutionContext, hook: string, target: string, files: Readonly<Record<string, string>>): Promise<void> {
  const ws = project(t, { '.git/hooks/pre-commit': hook, '.gitignore': '.venv/\n', ...files });
  // The venv (untracked), and the editable install `pip install -e .` leaves in it (src layout).
  execFileSync('python3', ['-m', 'venv', '--without-pip', path.join(ws, '.venv')]);
  const lib = path.join(ws, '.venv', 'lib');
  const site = path.join(lib, readdirSync(lib)[0]!, 'site-packages');
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  // The venv's interpreter finds the package where it is (src/ through the .pth; the flat layout from where -m runs).
  const found = execFileSync(path.join(ws, '.venv/bin/python'), ['-c', 'import importlib.util as u; print(u.find_spec("mypkg.lint").origin)'], { cwd: ws, encoding: 'utf8' });
  t.is(found.trim(), path.join(ws, target));
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, target, `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written module of the editable install ran in the user's pre-commit hook");
}

for (const [name, code] of [
  ['from mypkg import lint', 'from mypkg import lint\n'],
  ['import mypkg.lint', 'import mypkg.lint\n'],
] as const)
  test(`a module of the project venv's editable install that a hook program imports is protected: ${name}`, async (t) => {
    await attack(t, '#!/bin/sh\nexec .venv/bin/python tools/check.py\n', 'src/mypkg/lint.py', { 'tools/check.py': code, 'src/mypkg/__init__.py': '', 'src/mypkg/lint.py': 'print("lint ok")\n' });
  });

test('control: the same module run with -m from the venv interpreter (the module file is refused)', async (t) => {
  await attack(t, '#!/bin/sh\nexec .venv/bin/python -m mypkg.lint\n', 'src/mypkg/lint.py', { 'src/mypkg/__init__.py': '', 'src/mypkg/lint.py': 'print("lint ok")\n' });
});

test('control: the flat layout, mypkg/ at the top where -m runs (the module file is refused)', async (t) => {
  await attack(t, '#!/bin/sh\nexec .venv/bin/python -m mypkg.lint\n', 'mypkg/lint.py', { 'mypkg/__init__.py': '', 'mypkg/lint.py': 'print("lint ok")\n', 'src/.keep': '' });
});
