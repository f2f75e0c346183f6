// Review s45t of issue 21: installed Python code is protected but not read on (python-installed-files.ts, today: it
// replaced reading site-packages, which refused every writer), so what it imports is known only through the
// module-entries rule (a top-level `NAME.py` / `NAME/__init__.py` of ANY importable name refused on an agent-writable
// directory of the interpreter's path: "installed code also imports names that are not installed, in a try"). Two holes:
// (1) the editable install's `src/` (on the path through its `.pth`) gets no such rule at all: names the readers never
// saw are writable there, top-level files included; (2) a directory NAME/ without `__init__.py` is a namespace package,
// and where NAME is installed nowhere `from NAME import sub` / `import NAME.sub` runs `NAME/sub.py`, which the rule does
// not cover (at `-m`'s working directory either). Optional imports are ordinary in installed code (`try: import
// chardet` in requests, `try: from IPython.display import display` in rich, `try: from lxml import etree` in mypy's
// report module). The installed linter's console script (`. .venv/bin/activate; acme-lint`) or `python -m` runs the
// installed code, which tries its optional imports; the write tool created the module; the user's commit runs it
// (python3 here, end to end). (2) is what docs/security.md lists as "Not covered" (a namespace portion of a name no
// installed package provides) for sys.path[0]; its cases are kept, marked, because today's rule (installed code never
// read) makes every installed package's optional `from X import y` a way in. Controls: the same names in `.venv/bin`
// (the script's sys.path[0]) refused; an ordinary write accepted.
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { pythonProject } from '../adversarial-s43r/fixtures.js';
import { ordinaryWriteAccepted, writeThenCommit } from './fixtures.js';

/** The project venv with an installed linter (`acmelint`, console script `acme-lint`) whose code tries an optional import. */
function project(t: ExecutionContext, hook = '#!/bin/sh\n. .venv/bin/activate\nacme-lint -q\n'): string {
  const ws = pythonProject(t, { '.git/hooks/pre-commit': hook });
  const lib = path.join(ws, '.venv/lib');
  const site = path.join(lib, readdirSync(lib).find((each) => each.startsWith('python3'))!, 'site-packages');
  mkdirSync(path.join(site, 'acmelint'));
  writeFileSync(path.join(site, 'acmelint/__init__.py'), '');
  writeFileSync(
    path.join(site, 'acmelint/cli.py'),
    'try:\n    import acme_speedups\nexcept ImportError:\n    acme_speedups = None\ntry:\n    from acme_colors import palette\nexcept ImportError:\n    palette = None\n\n\ndef main():\n    print("lint ok")\n    return 0\n',
  );
  const script = path.join(ws, '.venv/bin/acme-lint');
  writeFileSync(script, `#!${path.join(ws, '.venv/bin/python')}\nimport sys\nfrom acmelint.cli import main\nsys.exit(main())\n`);
  chmodSync(script, 0o755);
  return ws;
}

const payload = (marker: string) => `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n`;

const MODULE = '#!/bin/sh\n.venv/bin/python -m acmelint.cli\n';

for (const [target, hook] of [
  ['src/acme_speedups.py', undefined],
  ['src/acme_colors/palette.py', undefined],
  ['acme_colors/palette.py', MODULE],
] as const)
  test(`a module installed code tries, in an agent-writable path entry, is refused: ${target}${hook === undefined ? '' : ' (python -m)'}${target.includes('/palette') ? ' (namespace portion: documented as not covered)' : ''}`, async (t) => {
    await writeThenCommit(t, project(t, hook), target, payload);
  });

for (const [target, hook] of [
  ['.venv/bin/acme_speedups.py', undefined],
  ['.venv/bin/acme_colors/palette.py', undefined],
  ['acme_speedups.py', MODULE],
] as const)
  test(`control (passes today): ${target}${hook === undefined ? '' : ' (python -m)'} is refused`, async (t) => {
    await writeThenCommit(t, project(t, hook), target, payload);
  });

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, project(t));
});
