// adv27d finding 3 (high where it applies): a Python environment outside the workspace
// into which the workspace's project is installed editable (pip install -e, poetry
// install, pipenv: the usual way to work on a Python project; in a python:3 container
// image, the system site-packages under /usr/local, on the fixed path) holds a .pth
// file naming a directory of the workspace. Every Python program of that environment
// then has the workspace on sys.path, and Python imports sitecustomize from sys.path at
// startup (a name protected only inside site-packages): `pip list`, allowed
// unconfined, runs the agent's <workspace>/src/sitecustomize.py on the host. Any other
// module such a program imports and the earlier entries lack is found there too: with
// Debian's python3 (which has a sitecustomize) outside a venv, usercustomize plays that
// part, so /usr/bin/pip on the fixed path runs it when the .pth is in
// /usr/local/lib/python3.X/dist-packages (pip install -e as root in a container). Class:
// the program's own lookup (the interpreter's module path) leads into a write scope;
// the checks walk only the path to the program's file.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { runUnconfined, world } from './unconfined-world.js';

/** A Python 3 whose own paths hold no sitecustomize (python.org's, pyenv's, uv's, the python:3 images'; Debian's has one). */
function pythonWithoutSitecustomize(): string | undefined {
  const versions = path.join(homedir(), '.pyenv', 'versions');
  const candidates = [...(existsSync(versions) ? readdirSync(versions).map((version) => path.join(versions, version, 'bin', 'python3')) : []), '/usr/local/bin/python3', '/usr/bin/python3'];
  return candidates.find((python) => {
    if (!existsSync(python)) return false;
    const probe = 'import importlib.util,sys; sys.exit(0 if sys.version_info >= (3, 8) and importlib.util.find_spec("sitecustomize") is None else 1)';
    try {
      execFileSync(python, ['-I', '-c', probe], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

test('pip of a virtualenv with an editable install of the workspace does not import the workspace sitecustomize unconfined', async (t) => {
  const python = pythonWithoutSitecustomize();
  if (python === undefined) return t.fail('this repro needs a Python 3 without a sitecustomize module of its own');
  const w = world(t);
  const venv = path.join(w.root, 'venv');
  execFileSync(python, ['-m', 'venv', venv], { stdio: 'ignore' });
  const sitePackages = execFileSync(path.join(venv, 'bin', 'python3'), ['-c', 'import sysconfig; print(sysconfig.get_path("purelib"))'], { encoding: 'utf8' }).trim();
  // What an editable install of a src-layout project writes (setuptools, hatchling): the source directory, as a path line.
  writeFileSync(path.join(sitePackages, '__editable__.project-0.1.0.pth'), `${path.join(w.workspace, 'src')}\n`);
  await runUnconfined(
    t,
    w,
    [{ write: 'src/sitecustomize.py', content: `open(${JSON.stringify(w.marker)}, "a").write("agent code ran on the host\\n")\n` }, { bash: 'pip list' }],
    [path.join(venv, 'bin')],
  );
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});
