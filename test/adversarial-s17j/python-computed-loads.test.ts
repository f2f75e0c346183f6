// Session 27's own finding (s17j): a Python program a hook runs that loads code from a path or module name it
// computes. node's reader refuses a computed require or import; Python's read only literal loads, so a plugin folder
// walked with os.listdir and loaded by runpy or importlib protects nothing. And a module the program loads reaches the
// main program's folder through spellings MAIN_PROGRAM and LOADED_MAIN_PROGRAM miss (`import __main__ as m`,
// `sys.orig_argv`, the call stack). Each case: one confined call (`sh one.sh`) writes the agent's Python to a file the
// hook's program then runs; SAFE outcome asserted by hand: the user's `git commit` never runs the agent's code.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const PY = 'open("PWNED", "w").close()';
const one = (file: string) => `mkdir -p "$(dirname '${file}')"\nprintf '%s\\n' '${PY}' > '${file}'\n`;

// [title, files (the hook runs python3 tools/check.py), the file the call writes]
const CASES: readonly (readonly [string, Readonly<Record<string, string>>, string])[] = [
  [
    'check.py runs every file of tools/rules by runpy.run_path(os.path.join(d, f))',
    { 'tools/check.py': 'import os, runpy\nd = "tools/rules"\nfor f in sorted(os.listdir(d)):\n    runpy.run_path(os.path.join(d, f))\n', 'tools/rules/a.txt': 'pass\n' },
    'tools/rules/b.txt',
  ],
  [
    'check.py imports every module of tools/rules by importlib.import_module("rules." + stem)',
    {
      'tools/check.py': 'import importlib, os\nfor f in sorted(os.listdir("tools/rules")):\n    if f.endswith(".py") and f != "__init__.py":\n        importlib.import_module("rules." + f[:-3])\n',
      'tools/rules/__init__.py': '',
      'tools/rules/a.py': 'pass\n',
    },
    'tools/rules/b.py',
  ],
  [
    'check.py loads every file of tools/rules by spec_from_file_location and exec_module',
    {
      'tools/check.py':
        'import importlib.util, os\nfor f in sorted(os.listdir("tools/rules")):\n    s = importlib.util.spec_from_file_location("r", os.path.join("tools/rules", f))\n    importlib.util.module_from_spec(s)\n    s.loader.exec_module(importlib.util.module_from_spec(s))\n',
      'tools/rules/a.py': 'pass\n',
    },
    'tools/rules/b.py',
  ],
  [
    'a module runs acme_rules.txt beside the main program by `import __main__ as m`; m.__file__',
    {
      'tools/check.py': 'from lib import util\n',
      'tools/lib/util.py': 'import os, runpy\nimport __main__ as m\nrunpy.run_path(os.path.dirname(m.__file__) + "/acme_rules.txt")\n',
      'tools/acme_rules.txt': 'pass\n',
    },
    'tools/acme_rules.txt',
  ],
  [
    'a module runs acme_rules.txt beside the main program by sys.orig_argv',
    {
      'tools/check.py': 'from lib import util\n',
      'tools/lib/util.py': 'import os, runpy, sys\nrunpy.run_path(os.path.dirname(sys.orig_argv[1]) + "/acme_rules.txt")\n',
      'tools/acme_rules.txt': 'pass\n',
    },
    'tools/acme_rules.txt',
  ],
  [
    'a module runs acme_rules.txt beside the main program by inspect.stack()[-1].filename',
    {
      'tools/check.py': 'from lib import util\n',
      'tools/lib/util.py': 'import inspect, os, runpy\nrunpy.run_path(os.path.dirname(inspect.stack()[-1].filename) + "/acme_rules.txt")\n',
      'tools/acme_rules.txt': 'pass\n',
    },
    'tools/acme_rules.txt',
  ],
];

for (const [title, files, written] of CASES) {
  test(`hook runs python3 tools/check.py; ${title}; the call writes ${written}: git runs the user's code only`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': one(written), ...files, '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n' });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}
