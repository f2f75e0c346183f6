// Severity: high. Class: "python-relative-import" — the modules a program imports are read by
// interpreter-operands.ts importedModules, whose patterns take only absolute names (`from a.b import c`, `import a`):
// a relative import (`from . import helpers`, `from .helpers import x`, `from ..common import x`), the usual spelling
// inside a package that a hook runs with `python3 -m pkg.mod`, is not read at all, and `-m tools.check` protects only
// tools/check.py, tools/__init__.py and tools/check/, not the package's other modules. So tools/helpers.py (and the
// parent package's pkg/common.py), which the hook imports on every commit, stay writable.
// Fix direction: read relative imports against the importing file's package (one directory up per extra dot), with
// the same module-to-file mapping as absolute ones (MOD.py, MOD/__init__.py, MOD/ whole).
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

const cases = [
  { hook: 'python3 -m tools.check', check: 'tools/check.py', code: 'from . import helpers\n', target: 'tools/helpers.py' },
  { hook: 'python3 -m pkg.tools.check', check: 'pkg/tools/check.py', code: 'from ..common import x\n', target: 'pkg/common.py' },
];

for (const { hook, check, code, target } of cases) {
  test(`a module imported by \`${code.trim()}\` from a \`${hook}\` hook is not writable`, async (t) => {
    const packages = Object.fromEntries(
      path
        .dirname(check)
        .split('/')
        .map((_, index, parts) => [`${parts.slice(0, index + 1).join('/')}/__init__.py`, '']),
    );
    const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, ...packages, [check]: `${code}print("checked")\n`, [target]: 'x = 1\n' });
    const pwned = path.join(path.dirname(ws), 'PWNED');
    const output = await agentWrites(t, ws, target, `x = 1\nopen(${JSON.stringify(pwned)}, "w").write("ran")\n`);
    t.regex(output, /denied/u, output);
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
    t.false(existsSync(pwned), `the pre-commit hook imported ${target} written by the agent`);
  });
}
