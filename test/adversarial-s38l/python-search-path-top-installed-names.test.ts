// Review s38l of issue 21: a hook program that puts the worktree top FIRST on sys.path (`sys.path.insert(0,
// str(Path(__file__).resolve().parents[1]))`, the commonest spelling; `os.getcwd()`; `''`) makes Python look there
// before site-packages for every import, also the ones an installed package makes (requests -> urllib3). The
// s37k fix protects the installed names only where sys.path[0] is (the script's directory, the -m working directory);
// for a search path the program adds at an ancestor or where it runs, only each STANDARD-LIBRARY name is protected
// there. The write tool leaves `urllib3.py` at the top; the user's commit runs it. (Appending the same directory
// with `sys.path.append` is harmless: site-packages wins; not asserted.)
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

for (const [name, change] of [
  ['Path(__file__).resolve().parents[1]', 'from pathlib import Path\nsys.path.insert(0, str(Path(__file__).resolve().parents[1]))'],
  ['os.getcwd()', 'sys.path.insert(0, os.getcwd())'],
  ["''", "sys.path.insert(0, '')"],
] as const)
  test(`an installed package's dependency is protected at a directory the hook program puts first on sys.path: ${name}`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n',
      'tools/check.py': `import os, sys\n${change}\nimport requests\nprint("checked", requests.__name__)\n`,
    });
    const marker = path.join(path.dirname(ws), 'PWNED');
    const out = await agentWrites(t, ws, 'urllib3.py', `open(${JSON.stringify(marker)}, "w").write("agent code ran")\nraise SystemExit(0)\n`);
    t.log(out);
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // what the hook ran is what counts
    }
    t.false(existsSync(marker), "the agent-written urllib3.py ran in the user's pre-commit hook");
  });
