// Review s40o of issue 21: two spellings of a hook program's relative import that python-imports.ts does not read,
// so the module they load is not protected: a `from . import a, \` line continued with a backslash (the names after
// the line break), and `importlib.import_module(".b", __package__)` (a literal relative name with its anchor: the
// absolute `import_module("tools.b")` and `__import__("tools.b")` are read). The hook runs `python3 -m tools.check`;
// the write tool rewrites tools/b.py; the user's commit runs it. The parenthesized form is refused (control).
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

for (const [name, code] of [
  ['a backslash-continued from-import', 'from . import a, \\\n    b\n'],
  ['importlib.import_module(".b", __package__)', 'import importlib\nimportlib.import_module(".b", __package__)\n'],
  ['control (passes today): a parenthesized from-import', 'from . import (\n    a,\n    b,\n)\n'],
] as const)
  test(`a module a hook program imports relatively is protected: ${name}`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 -m tools.check\n',
      'tools/__init__.py': '',
      'tools/check.py': code,
      'tools/a.py': '',
      'tools/b.py': '',
    });
    t.log(await agentWrites(t, ws, 'tools/b.py', 'open("PWNED", "w").write("agent code ran")\n'));
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // what the hook ran is what counts
    }
    t.false(existsSync(path.join(ws, 'PWNED')), "the agent-written tools/b.py ran in the user's pre-commit hook");
  });
