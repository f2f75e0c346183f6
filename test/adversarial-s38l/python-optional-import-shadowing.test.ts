// Review s38l of issue 21: with `python3 -m` sys.path[0] is where the program runs (the worktree top for a hook).
// zotbox now protects there each standard-library name and each top-level name INSTALLED on the interpreter's path.
// An installed package also imports names that are NOT installed, inside `try: ... except ImportError`: requests'
// __init__ tries `from chardet import __version__` (and urllib3 tries brotli, zstandard, socks...). Such a name is in
// neither list, and Python finds it in sys.path[0]: the write tool alone leaves `chardet.py` at the top and the
// user's commit, whose hook runs `python3 -m tools.check` (check.py imports requests), runs it.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

for (const [name, file, hook] of [
  ['python -m at the top', 'chardet.py', 'exec python3 -m tools.check'],
  ['a package directory', 'chardet/__init__.py', 'exec python3 -m tools.check'],
  ['python -c at the top', 'chardet.py', 'exec python3 -c "import tools.check"'],
] as const)
  test(`a module an installed package imports optionally (requests -> chardet), left at the worktree top, is not run by the user's hook: ${name}`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
      'tools/__init__.py': '',
      'tools/check.py': 'import requests  # the project checks its URLs\nprint("checked", requests.__name__)\n',
    });
    const marker = path.join(path.dirname(ws), 'PWNED');
    const out = await agentWrites(t, ws, file, `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`);
    t.log(out);
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // the agent's module may break the hook after it ran; the marker says whether it ran
    }
    t.false(existsSync(marker), `the agent-written ${file} ran in the user's pre-commit hook (requests imports it when present)`);
  });
