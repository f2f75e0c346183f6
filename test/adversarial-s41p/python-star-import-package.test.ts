// Review s41p of issue 21: `from . import *` in a package's module imports every submodule its package's `__init__.py`
// lists in `__all__` (the language reference, "The import statement": names in `__all__` not yet bound are imported as
// submodules). A hook that runs `python3 -m tools.check`, whose `tools/check.py` says `from . import *`, loads
// `tools/fmt.py` when `tools/__init__.py` has `__all__ = ["fmt"]`. zotbox reads `from .plugins import *` as the whole
// `tools/plugins/` package and `from tools import *` with the submodules `__all__` names (controls), but `from . import *` only as the package's own `__init__.py`: the submodules
// `__all__` names stay writable. The write tool rewrites `tools/fmt.py`; the user's commit runs it.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

async function attack(t: ExecutionContext, files: Readonly<Record<string, string>>, target: string): Promise<void> {
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 -m tools.check\n', ...files });
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, target, `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written submodule ran in the user's pre-commit hook");
}

test('a submodule the package __all__ names is protected for `from . import *`', async (t) => {
  await attack(t, { 'tools/__init__.py': '__all__ = ["fmt"]\n', 'tools/check.py': 'from . import *\n', 'tools/fmt.py': '\n' }, 'tools/fmt.py');
});

test('control (passes today): the absolute `from tools import *` protects the submodule __all__ names', async (t) => {
  await attack(t, { 'tools/__init__.py': '__all__ = ["fmt"]\n', 'tools/check.py': 'from tools import *\n', 'tools/fmt.py': '\n' }, 'tools/fmt.py');
});

test('control (passes today): `from .plugins import *` protects the subpackage', async (t) => {
  await attack(t, { 'tools/__init__.py': '', 'tools/check.py': 'from .plugins import *\n', 'tools/plugins/__init__.py': '__all__ = ["fmt"]\n', 'tools/plugins/fmt.py': '\n' }, 'tools/plugins/fmt.py');
});
