// Severity: medium (over-denial, an ordinary project). Class: "absent-directory-word" — pre-commit's usual local hook
// `entry: python -m pytest tests` names the directory `tests`. While tests/ exists, a words file's directory is not
// protected (tool-file-references.ts: "A directory a setting names ... is not protected") and the agent may add a test;
// before it exists, the word is protected as a FILE, the gate lets the write tool create tests/test_x.py, and then
// the aftercare finds the protected path created, puts it back and stops the run (ZB_CONFINEMENT_PROTECTED_FILE,
// reported as "the command changed files"). So an agent cannot add a project's first test, and the run dies mid-way.
// The same for any word of the file that names a directory not made yet: pre-commit's usual
// `exclude: ^(docs/|migrations/)` regex stops the run when the agent writes the project's first docs/usage.md.
// Fix direction: decide a word that names nothing yet the same way as the directory it becomes (or refuse it at the
// gate with the reason, never allow-then-stop); the gate and the aftercare must use one rule.
import test from 'ava';
import { agentWrites, project } from './harness.js';

test("an agent adds the project's first test under the directory a pre-commit entry names", async (t) => {
  const ws = project(t, {
    '.pre-commit-config.yaml':
      'repos:\n  - repo: local\n    hooks:\n      - id: pytest\n        name: pytest\n        entry: python -m pytest tests\n        language: system\n        pass_filenames: false\n',
    'src/app.py': 'def add(a, b):\n    return a + b\n',
  });
  const output = await agentWrites(t, ws, 'tests/test_app.py', 'from src.app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n');
  t.notRegex(output, /ZB_CONFINEMENT_PROTECTED_FILE|denied|failed/u, output);
  t.regex(output, /write tests\/test_app\.py \(\d+ B written\)/u, output);
});

test('an agent writes the first file of a directory a pre-commit exclude regex names', async (t) => {
  const ws = project(t, {
    '.pre-commit-config.yaml': 'exclude: ^(docs/|migrations/)\nrepos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.4.4\n    hooks:\n      - id: ruff\n',
    'src/app.py': 'def add(a, b):\n    return a + b\n',
  });
  const output = await agentWrites(t, ws, 'docs/usage.md', '# Usage\n');
  t.notRegex(output, /ZB_CONFINEMENT_PROTECTED_FILE|denied|failed/u, output);
  t.regex(output, /write docs\/usage\.md \(\d+ B written\)/u, output);
});
