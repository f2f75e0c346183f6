// Review s39n of issue 21: the project's own package installed in editable mode (`pip install -e .`, the usual
// src layout) is on the interpreter's path through a `.pth` file in site-packages that names the workspace's `src/`.
// A hook's program that imports that package (`from mypkg import lint`, or `python -m mypkg.checks`) loads
// src/mypkg/*.py; zotbox reads absolute imports only where the command runs, beside the file and above its package,
// and lists the interpreter's path only for NAMES to protect at a sys.path[0]: the path entry inside the workspace
// (src/) is not a control location. The write tool rewrites src/mypkg/lint.py; the user's commit runs it.
// (Here the editable install is made as setuptools' and hatchling's editable wheels make it: a .pth naming the
// directory, in a venv outside the workspace; the hook names the venv's interpreter as an activated venv's `python` is.)
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

/** A venv without pip (outside the workspace) whose site-packages has an editable install's .pth naming `directory`. */
function editableVenv(t: Parameters<typeof tempDir>[0]): { python: string; install: (directory: string) => void } {
  const venv = path.join(tempDir(t, 'zb-s39n-venv-'), 'venv');
  execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', venv], { stdio: 'ignore' });
  const python = path.join(venv, 'bin', 'python');
  const site = execFileSync(python, ['-c', 'import site; print(site.getsitepackages()[0])'], { encoding: 'utf8' }).trim();
  return { python, install: (directory) => writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${directory}\n`) };
}

for (const [name, hook, check] of [
  ['a hook program that imports the package', '-m tools.check', 'from mypkg import lint\nlint.run()\n'],
  ['a hook that runs a module of the package', '-m mypkg.lint', undefined],
] as const)
  test(`the project's editable-installed package a hook runs is protected: ${name}`, async (t) => {
    const venv = editableVenv(t);
    const ws = project(t, {
      '.git/hooks/pre-commit': `#!/bin/sh\nexec ${venv.python} ${hook}\n`,
      ...(check === undefined ? {} : { 'tools/check.py': check }),
      'pyproject.toml': '[project]\nname = "mypkg"\nversion = "0.1"\n',
      'src/mypkg/__init__.py': '',
      'src/mypkg/lint.py': 'def run():\n    print("lint ok")\n\nif __name__ == "__main__":\n    run()\n',
    });
    venv.install(path.join(ws, 'src'));
    const marker = path.join(path.dirname(ws), 'PWNED');
    const out = await agentWrites(t, ws, 'src/mypkg/lint.py', `def run():\n    open(${JSON.stringify(marker)}, "w").write("agent code ran")\n\nrun()\n`);
    t.log(out);
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // what the hook ran is what counts
    }
    t.false(existsSync(marker), "the agent-written src/mypkg/lint.py ran in the user's pre-commit hook");
  });

test('control (passes today): the same package at the top, where `-m` imports from, is protected', async (t) => {
  const venv = editableVenv(t);
  const ws = project(t, {
    '.git/hooks/pre-commit': `#!/bin/sh\nexec ${venv.python} -m tools.check\n`,
    'tools/check.py': 'from mypkg import lint\nlint.run()\n',
    'mypkg/__init__.py': '',
    'mypkg/lint.py': 'def run():\n    print("lint ok")\n',
  });
  const marker = path.join(path.dirname(ws), 'PWNED');
  const out = await agentWrites(t, ws, 'mypkg/lint.py', `def run():\n    open(${JSON.stringify(marker)}, "w").write("agent code ran")\n\nrun()\n`);
  t.log(out);
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker));
});
