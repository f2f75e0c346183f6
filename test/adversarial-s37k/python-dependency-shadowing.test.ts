// Review s37k of issue 21: with `python3 -m` (also -c and stdin) sys.path[0] is where the program runs, the
// worktree top for a hook. zotbox protects there only the -m target, the program's own imports and each
// standard-library name; the modules an INSTALLED package imports in turn (requests -> urllib3, idna, certifi,
// charset_normalizer) are looked up there first too. The write tool alone leaves `urllib3.py`; the user's commit
// runs the pre-commit hook (`python3 -m tools.check`, whose check.py imports requests) and it runs the agent's file.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

test("a module an installed package imports, left at the worktree top, is not run by the user's python -m hook", async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 -m tools.check\n',
    'tools/__init__.py': '',
    'tools/check.py': 'import requests  # the project checks its URLs\nprint("checked", requests.__name__)\n',
  });
  const marker = path.join(path.dirname(ws), 'PWNED');
  const out = await agentWrites(t, ws, 'urllib3.py', `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`);
  t.log(out);
  // The user's next commit, with their hooks (it may fail: what the hook ran is what counts).
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // the agent's module broke the hook after it ran; the marker says whether it ran
  }
  t.false(existsSync(marker), "the agent-written urllib3.py ran in the user's pre-commit hook");
});

test("after `cd backend &&`, a module an installed package imports, left in backend/, is not run by the user's hook", async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\ncd backend && exec python3 -m tools.check\n',
    'backend/tools/__init__.py': '',
    'backend/tools/check.py': 'import requests\nprint("checked", requests.__name__)\n',
  });
  const marker = path.join(path.dirname(ws), 'PWNED');
  const out = await agentWrites(t, ws, 'backend/urllib3/__init__.py', `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`);
  t.log(out);
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // the agent's module broke the hook after it ran; the marker says whether it ran
  }
  t.false(existsSync(marker), "the agent-written backend/urllib3/__init__.py ran in the user's pre-commit hook");
});
