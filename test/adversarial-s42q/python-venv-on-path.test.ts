// Review s42q of issue 21: the project's venv (`python -m venv .venv`, uv's/poetry's in-project `.venv`) with the
// project installed editable (`__editable__.mypkg-0.1.pth` naming `<ws>/src`), reached by a hook *without* writing
// the interpreter's path: the venv activated (`. .venv/bin/activate`), its bin put first on PATH, or a console script
// pip wrote into `.venv/bin` (`#!<ws>/.venv/bin/python` + `from mypkg.lint import main`). The write tool rewrites
// `src/mypkg/lint.py`; the user's commit runs it.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites } from '../adversarial-s36i/harness.js';
import { commitAfterWrite, pythonProject } from '../adversarial-s43r/fixtures.js';

/** The hook in s43r's venv project (editable install, pip's console script); the agent rewrites the installed module. */
async function attack(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>> = {}): Promise<void> {
  const ws = pythonProject(t, { '.git/hooks/pre-commit': hook, 'tools/check.py': 'from mypkg import lint\n', ...files });
  await commitAfterWrite(t, ws, 'src/mypkg/lint.py', (marker) => `def main():\n    open(${JSON.stringify(marker)}, "w").write("agent code ran")\n\nmain()\n`);
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
  const ws = pythonProject(t, { '.git/hooks/pre-commit': '#!/bin/sh\n. .venv/bin/activate\npython tools/check.py\n', 'tools/check.py': 'from mypkg import lint\n', 'docs/keep.txt': '\n' });
  t.log(await agentWrites(t, ws, 'docs/notes.md', '# notes\n'));
  t.true(existsSync(path.join(ws, 'docs', 'notes.md')), 'a write no hook names was refused');
});
