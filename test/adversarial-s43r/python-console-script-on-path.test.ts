// Review s43r of issue 21: python-script-path.ts follows the PATH a hook sets (`. .venv/bin/activate`, `PATH=…`,
// `uv run`/`poetry run`) only for a bare `python`/`python3`. The venv's *console scripts* run by name on that PATH
// (`. .venv/bin/activate && mypkg-lint`, how most Python hooks call the project's own tools: pytest, ruff, the
// project's entry points) are not looked up there: `.venv/bin/mypkg-lint` is protected as part of the venv's bin/, but
// what it imports (`from mypkg.lint import main`, through the editable install's `.pth`, `<ws>/src`) is never named
// nor unresolved. The write tool rewrites `src/mypkg/lint.py`; the user's commit runs it. Fixed (script-path-programs.ts):
// a bare name on the PATH a hook sets is looked up in each entry there, and the file found is read by its #! line.
import test from 'ava';
import { attack, ordinaryWriteAccepted, pythonPayload, pythonProject } from './fixtures.js';

for (const [name, hook] of [
  ['after activate', '#!/bin/sh\n. .venv/bin/activate\nmypkg-lint\n'],
  ['with PATH set for the command', '#!/bin/sh\nPATH=.venv/bin:$PATH exec mypkg-lint\n'],
  ['after export PATH', '#!/bin/sh\nexport PATH="$PWD/.venv/bin:$PATH"\nexec mypkg-lint\n'],
] as const)
  test(`the project code a venv console script run by name imports is protected: ${name}`, async (t) => {
    await attack(t, pythonProject(t, { '.git/hooks/pre-commit': hook }), 'src/mypkg/lint.py', pythonPayload);
  });

test('control (passes today): the console script run by its path', async (t) => {
  await attack(t, pythonProject(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec .venv/bin/mypkg-lint\n' }), 'src/mypkg/lint.py', pythonPayload);
});

test('control: with the console script protected, an ordinary write is still accepted', async (t) => {
  await ordinaryWriteAccepted(t, pythonProject(t, { '.git/hooks/pre-commit': '#!/bin/sh\n. .venv/bin/activate\nmypkg-lint\n' }));
});
