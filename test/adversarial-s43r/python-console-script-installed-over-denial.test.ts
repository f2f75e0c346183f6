// Found while fixing python-console-script-on-path, fixed with it: OVER-DENIAL. A console script of a package
// *installed* in the project's venv, run by name after activation (`. .venv/bin/activate && pytest`, the usual Python
// hook), is read by its #! line; what it imports was looked up on the venv's path and the installed package's files in
// site-packages were read on, and installed code holds lines zotbox cannot work out (`sys.meta_path.insert(0, hook)` in
// pytest's _pytest/assertion/__init__.py): every writer refused (1473 reasons with the real pytest 8). A file in a
// site-packages is now protected (site-packages is protected whole) and not read on (python-installed-files.ts). Second:
// where the script's name is its module's (`.venv/bin/pytest`: `from pytest import console_main`), the lookup at the
// script's sys.path[0] names `.venv/bin/pytest/__init__.py`, a name below a file, whose lstat threw ENOTDIR: every
// writer refused. Such a path is now protected as the file on the way (paths-below-files.ts).
import test from 'ava';
import { readdirSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { ordinaryWriteAccepted, pythonProject } from './fixtures.js';

for (const [name, script] of [
  ['its name is not its module (site-packages read on)', 'acme-test'],
  ['its name is its module, as pytest, black, mypy, isort (a name below the script file: ENOTDIR)', 'acmetest'],
] as const)
  test(`an installed console script run by name after activate: an ordinary write is accepted: ${name}`, async (t) => {
    const ws = pythonProject(t, { '.git/hooks/pre-commit': `#!/bin/sh\n. .venv/bin/activate\n${script} -q\n` });
    const lib = path.join(ws, '.venv/lib');
    const site = path.join(lib, readdirSync(lib).find((each) => each.startsWith('python3'))!, 'site-packages');
    writeFileSync(path.join(site, 'acmetest.py'), 'import sys\n\ndef main():\n    hook = object()\n    sys.meta_path.insert(0, hook)\n    return 0\n');
    const file = path.join(ws, '.venv/bin', script);
    writeFileSync(file, `#!${path.join(ws, '.venv/bin/python')}\nimport sys\nfrom acmetest import main\nsys.exit(main())\n`);
    chmodSync(file, 0o755);
    await ordinaryWriteAccepted(t, ws);
  });

test('control (passes): the same hook with a console script of the project itself (editable install)', async (t) => {
  await ordinaryWriteAccepted(t, pythonProject(t, { '.git/hooks/pre-commit': '#!/bin/sh\n. .venv/bin/activate\nmypkg-lint\n' }));
});
