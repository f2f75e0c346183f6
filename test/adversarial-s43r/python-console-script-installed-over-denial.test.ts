// Open (found while fixing python-console-script-on-path): OVER-DENIAL. A console script of a package *installed* in
// the project's venv, run by name after activation (`. .venv/bin/activate && pytest`, the usual Python hook), is now
// read by its #! line, and what it imports is looked up on the venv's path: the installed package's files in
// site-packages are protected (site-packages is protected whole anyway) and read on, and installed code holds lines
// zotbox cannot work out (`sys.meta_path.insert(0, hook)` in pytest's _pytest/assertion/__init__.py): every writer is
// refused. Checked with the real pytest 8 copied into the venv: 1473 reasons; the same for `.venv/bin/pytest` by
// path and `python -m pytest` after activate, before this fix. Not reading on a file the lookup finds in a venv's
// site-packages (installed code, protected whole, as node-installed-bins.ts does for node) removes all of them. The
// stand-in holds the one pytest line that refuses. Second: where the script's name is its module's (`.venv/bin/pytest`:
// `from pytest import console_main`), the lookup at the script's sys.path[0] names `.venv/bin/pytest/__init__.py`, a
// name below a file, and protected-locations.ts's lstat of it throws ENOTDIR: every writer refused. Both are older
// than the fix (`.venv/bin/pytest` by path); the fix makes the usual bare-name hook reach them.
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
