// Review s42q of issue 21: the project's venv (`python -m venv .venv`, uv's/poetry's in-project `.venv`) with the
// project installed editable (`__editable__.mypkg-0.1.pth` naming `<ws>/src`), reached by a hook *without* writing
// the interpreter's path: the venv activated (`. .venv/bin/activate`), its bin put first on PATH, or a console script
// pip wrote into `.venv/bin` (`#!<ws>/.venv/bin/python` + `from mypkg.lint import main`). The write tool rewrites
// `src/mypkg/lint.py`; the user's commit runs it.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

async function attack(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>> = {}): Promise<void> {
  const ws = project(t, {
    '.git/hooks/pre-commit': hook,
    '.gitignore': '.venv/\n',
    'tools/check.py': 'from mypkg import lint\n',
    'src/mypkg/__init__.py': '',
    'src/mypkg/lint.py': 'def main():\n    print("lint ok")\n',
    ...files,
  });
  execFileSync('python3', ['-m', 'venv', '--without-pip', path.join(ws, '.venv')]);
  const lib = path.join(ws, '.venv', 'lib');
  const site = path.join(lib, readdirSync(lib)[0]!, 'site-packages');
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  // The console script pip writes for `[project.scripts] mypkg-lint = "mypkg.lint:main"`.
  const script = path.join(ws, '.venv/bin/mypkg-lint');
  writeFileSync(script, `#!${path.join(ws, '.venv/bin/python')}\nimport sys\nfrom mypkg.lint import main\nif __name__ == "__main__":\n    sys.exit(main())\n`);
  chmodSync(script, 0o755);
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, 'src/mypkg/lint.py', `def main():\n    open(${JSON.stringify(marker)}, "w").write("agent code ran")\n\nmain()\n`));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written module of the editable install ran in the user's pre-commit hook");
}

for (const [name, hook] of [
  ['the venv activated', '#!/bin/sh\n. .venv/bin/activate\npython tools/check.py\n'],
  ['the venv bin exported first on PATH', '#!/bin/sh\nexport PATH="$PWD/.venv/bin:$PATH"\npython tools/check.py\n'],
  ['the venv bin on PATH for the command', '#!/bin/sh\nPATH=.venv/bin:$PATH python tools/check.py\n'],
] as const)
  test(`a module of the project venv's editable install a hook runs is protected: ${name}`, async (t) => {
    await attack(t, hook);
  });

test('control (passes today): a console script pip wrote into the venv (read through its shebang)', async (t) => {
  await attack(t, '#!/bin/sh\nexec .venv/bin/mypkg-lint\n');
});

test('control (passes today): the venv interpreter named', async (t) => {
  await attack(t, '#!/bin/sh\nexec .venv/bin/python tools/check.py\n');
});

test('over-denial control: with the venv activated, a write no hook names (docs/notes.md) is allowed', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\n. .venv/bin/activate\npython tools/check.py\n',
    '.gitignore': '.venv/\n',
    'tools/check.py': 'from mypkg import lint\n',
    'src/mypkg/__init__.py': '',
    'src/mypkg/lint.py': 'def main():\n    print("lint ok")\n',
    'docs/keep.txt': '\n',
  });
  execFileSync('python3', ['-m', 'venv', '--without-pip', path.join(ws, '.venv')]);
  const lib = path.join(ws, '.venv', 'lib');
  writeFileSync(path.join(lib, readdirSync(lib)[0]!, 'site-packages', '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  t.log(await agentWrites(t, ws, 'docs/notes.md', '# notes\n'));
  t.true(existsSync(path.join(ws, 'docs', 'notes.md')), 'a write no hook names was refused');
});
