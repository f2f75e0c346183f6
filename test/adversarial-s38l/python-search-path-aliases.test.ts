// Review s38l of issue 21: a hook program's sys.path changes are found by a pattern on the literal text `sys.path.`
// / `site.addsitedir(`. The same change through another name for the same object is not seen, and nothing comes back
// unresolved (closed world broken): `import sys as _sys`, `search = sys.path`, `from sys import path`,
// `from site import addsitedir`, `sys.path.__setitem__`. vendor/ is not protected, the write tool rewrites
// vendor/lintlib.py, and the user's commit (hook: `python3 tools/check.py`) runs it.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

for (const [name, change] of [
  ['import sys as _sys', "import sys as _sys\n_sys.path.insert(0, 'vendor')"],
  ['a name bound to sys.path', "import sys\nsearch = sys.path\nsearch.insert(0, 'vendor')"],
  ['from sys import path', "from sys import path\npath.append('vendor')"],
  ['from site import addsitedir', "from site import addsitedir\naddsitedir('vendor')"],
  ['sys.path.__setitem__', "import sys\nsys.path.__setitem__(slice(0, 0), ['vendor'])"],
] as const)
  test(`a directory a hook program puts on sys.path through another name is protected: ${name}`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n',
      'tools/check.py': `${change}\nimport lintlib\nlintlib.run()\n`,
      'vendor/lintlib.py': 'def run():\n    print("lint ok")\n',
    });
    const marker = path.join(path.dirname(ws), 'PWNED');
    const out = await agentWrites(t, ws, 'vendor/lintlib.py', `def run():\n    open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`);
    t.log(out);
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // what the hook ran is what counts
    }
    t.false(existsSync(marker), "the agent-written vendor/lintlib.py ran in the user's pre-commit hook");
  });
