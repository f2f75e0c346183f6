// Severity: high. Class: "module-search-root" — the imports of a file `python3 -m PKG.MOD` runs are resolved by the
// reader from the FILE's directory (tool-file-references.ts programCodeNames), but `-m` puts the working directory
// first on sys.path (as `python3 -c 'import PKG.MOD'` does), so `import helper` in tools/check.py loads ./helper.py
// from the top of the repository. The reader protects tools/helper.py and leaves ./helper.py writable; the hook runs it.
// Fix direction: resolve a program file's absolute imports from every directory on the sys.path it runs with
// (the cwd for -m/-c/stdin, the script's directory for a script operand), not only its own directory.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

test('a module a `python3 -m` hook imports from the working directory is not writable', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\npython3 -m tools.check\n',
    'tools/__init__.py': '',
    // An ordinary optional-settings import.
    'tools/check.py': 'try:\n    import local_overrides\nexcept ImportError:\n    pass\nprint("check ok")\n',
    'a.txt': 'a\n',
  });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'local_overrides.py', `open(${JSON.stringify(pwned)}, "w").write("ran")\n`);
  t.regex(output, /denied/u, output);
  // The user's commit, later: the hook must not run what the agent wrote.
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  t.false(existsSync(pwned), 'the pre-commit hook ran local_overrides.py written by the agent');
});
