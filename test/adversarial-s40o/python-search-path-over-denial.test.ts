// Review s40o of issue 21, an OVER-DENIAL: two ordinary spellings of "the lib/ beside my parent directory" on a
// hook program's sys.path are outside the closed path grammar (file-relative-paths.ts), so the search path is taken as
// computed and EVERY write and command is refused in the project: an f-string built from `os.path.dirname(__file__)`
// (`f"{os.path.dirname(__file__)}/../lib"`) and `os.path.split(os.path.abspath(__file__))[0]` (os.path.dirname's
// older spelling). Both name one directory (tools/../lib), as the `os.path.join(os.path.dirname(__file__), "..",
// "lib")` control does, which is read. Safe-and-usable outcome asserted: an unrelated file stays writable (and
// lib/checker.py is refused, as for the control).
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const [name, code] of [
  ['an f-string of os.path.dirname(__file__)', 'import os, sys\nsys.path.insert(0, f"{os.path.dirname(__file__)}/../lib")\n'],
  ['os.path.split(…)[0]', 'import os, sys\nsys.path.insert(0, os.path.join(os.path.split(os.path.abspath(__file__))[0], "..", "lib"))\n'],
  ['control (passes today): os.path.join(os.path.dirname(__file__), …)', 'import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))\n'],
] as const) {
  const files = {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n',
    'tools/check.py': `${code}import checker\nchecker.run()\n`,
    'lib/checker.py': 'def run():\n    pass\n',
    'README.md': 'project\n',
  };
  test(`${name}: an ordinary edit is written`, async (t) => {
    const ws = project(t, files);
    t.log(await agentWrites(t, ws, 'README.md', 'project, edited\n'));
    t.is(readFileSync(path.join(ws, 'README.md'), 'utf8'), 'project, edited\n', 'every write was refused');
  });
  test(`${name}: the module the hook imports from lib/ is refused`, async (t) => {
    const ws = project(t, files);
    t.log(await agentWrites(t, ws, 'lib/checker.py', 'import os\ndef run():\n    os.system("touch /tmp/PWNED")\n'));
    t.is(readFileSync(path.join(ws, 'lib/checker.py'), 'utf8'), files['lib/checker.py']);
  });
}
