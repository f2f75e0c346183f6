// Found by the fresh adversarial review of issue 21, second round (failed on d860bcf;
// fixed: __pycache__ and *.pyc are protected files, and commands run with PYTHONDONTWRITEBYTECODE=1).
// For files it does not protect, zotbox relies on the user's review ("review an agent's
// changes before running the project's tools on them", docs/security.md), and lists as
// known gaps only ignore rules an agent adds. But tools run caches that stand for a
// source without reading the source: Python imports `__pycache__/MOD.cpython-3X.pyc`
// whenever its header's source mtime and size match `MOD.py`. A command writes the
// agent's bytecode there, stamped with the unchanged source's mtime and size. The
// source is untouched, `__pycache__/` is ignored by the user's own .gitignore (as in
// nearly every Python project), so `git status` and `git diff` show nothing, and the
// user's `python3 main.py` runs the agent's code. (Same class, by reading: build
// caches whose freshness is a timestamp, such as cargo's `target/`.)
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack } from './world.js';

/** Run by the agent's allowlisted python3: compiles EVIL + MODULE.py into MODULE's cache entry, stamped as the source; removes itself. */
const FORGE = `import importlib.util, os, sys
from importlib._bootstrap_external import _code_to_timestamp_pyc
module, evil = sys.argv[1], sys.argv[2]
src = module + '.py'
st = os.stat(src)
code = compile(evil + '\\n' + open(src).read(), os.path.abspath(src), 'exec')
out = importlib.util.cache_from_source(src)
os.makedirs(os.path.dirname(out), exist_ok=True)
open(out, 'wb').write(_code_to_timestamp_pyc(code, st.st_mtime, st.st_size))
os.remove(sys.argv[0])
print('wrote', out)
`;

test("bytecode stamped with an unchanged source's mtime and size runs in place of the source, unseen by git status", async (t) => {
  const world = makeWorld(t);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: world.root };
  writeFileSync(path.join(world.workspace, 'app.py'), 'def greet():\n    return "hello"\n');
  writeFileSync(path.join(world.workspace, 'main.py'), 'import app\nprint(app.greet())\n');
  writeFileSync(path.join(world.workspace, '.gitignore'), '__pycache__/\n');
  world.git('add', '-A');
  world.git('commit', '-qm', 'init');
  // The user ran the project once: its own cache is there, as in any Python checkout.
  execFileSync('python3', ['main.py'], { cwd: world.workspace, env });

  const result = await runAttack(world, { mode: 'allowlist', allow: ['python3'] }, [
    { tool: 'write', input: { path: 'forge.py', content: FORGE } },
    { tool: 'bash', input: { command: `python3 forge.py app "open('${world.mark}', 'w').close()"` } },
  ]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result') || line.includes('run.end'))
      .join('\n'),
  );

  // The user's review shows nothing; then the user runs the project.
  t.log({ status: world.git('status', '--porcelain'), diff: world.git('diff') });
  execFileSync('python3', ['main.py'], { cwd: world.workspace, env, stdio: 'ignore' });

  // Expected: what runs is what the user can review. Either a cache a call wrote that does not
  // compile from its source is removed after the call (and the run stops), or such caches are
  // protected like a virtual environment's site-packages; the user's run of main.py runs app.py.
  t.false(existsSync(world.mark), "the user's python3 main.py ran bytecode the agent wrote for an unchanged app.py");
});

test('a bytecode cache a command creates is removed after the call and stops the run; an honest python run writes none', async (t) => {
  const world = makeWorld(t);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: world.root };
  writeFileSync(path.join(world.workspace, 'app.py'), 'def greet():\n    return "hello"\n');
  writeFileSync(path.join(world.workspace, 'main.py'), 'import app\nprint(app.greet())\n');
  writeFileSync(path.join(world.workspace, '.gitignore'), '__pycache__/\n');
  world.git('add', '-A');
  world.git('commit', '-qm', 'init');

  // The agent's own honest run of the project: python imports app and writes no cache (PYTHONDONTWRITEBYTECODE).
  const honest = await runAttack(world, { mode: 'allowlist', allow: ['python3'] }, [{ tool: 'bash', input: { command: 'python3 main.py' } }]);
  t.regex(honest.stdout, /hello/u);
  t.regex(honest.stdout, /"status":"completed"/u);
  t.false(existsSync(path.join(world.workspace, '__pycache__')), 'an honest python run left a bytecode cache');

  // No cache yet: the forged one lands in a new __pycache__, which the aftercare finds and removes.
  const result = await runAttack(world, { mode: 'allowlist', allow: ['python3'] }, [
    { tool: 'write', input: { path: 'forge.py', content: FORGE } },
    { tool: 'bash', input: { command: `python3 forge.py app "open('${world.mark}', 'w').close()"` } },
  ]);
  t.regex(result.stdout, /ZB_CONFINEMENT_PROTECTED_FILE/u);
  t.regex(result.stdout, /__pycache__/u);
  t.false(existsSync(path.join(world.workspace, '__pycache__')), 'the bytecode cache the command wrote is still there');
  execFileSync('python3', ['main.py'], { cwd: world.workspace, env, stdio: 'ignore' });
  t.false(existsSync(world.mark), "the user's python3 main.py ran bytecode the agent wrote");
});

test('the write tool refuses bytecode, beside a source and in __pycache__', async (t) => {
  const world = makeWorld(t);
  writeFileSync(path.join(world.workspace, 'app.py'), 'x = 1\n');
  world.git('add', '-A');
  world.git('commit', '-qm', 'init');
  const result = await runAttack(world, { mode: 'none' }, [
    { tool: 'write', input: { path: 'app.pyc', content: 'x' } },
    { tool: 'write', input: { path: '__pycache__/app.cpython-311.pyc', content: 'x' } },
  ]);
  t.is(result.stdout.match(/"tool":"write","ok":false/gu)?.length, 2, result.stdout);
  t.false(existsSync(path.join(world.workspace, 'app.pyc')));
  t.false(existsSync(path.join(world.workspace, '__pycache__')));
});
