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
// (python3 here, end to end). Fixed: every agent-writable entry of the interpreter's path has the any-name rule, and a
// namespace portion there of a name no entry holds as a regular module is protected whole
// (python-path-entry-modules.ts). The same portion at `-m`'s working directory (the project top, sys.path[0]) stays a
// documented limit: python-installed-namespace-portion-top.open.ts. Controls: the same names in `.venv/bin` (the
// script's sys.path[0]) refused; an ordinary write, and the project's own package's modules, accepted.
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

for (const target of ['src/acme_speedups.py', 'src/acme_colors/palette.py'])
  test(`a module installed code tries, in an agent-writable path entry, is refused: ${target}${target.includes('/palette') ? ' (namespace portion)' : ''}`, async (t) => {
    await writeThenCommit(t, project(t), target, payload);
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

// The project's own package (src/mypkg, a regular package no other entry holds) is not what installed code imports:
// its modules, old and new, stay the agent's where the hook does not import them.
for (const file of ['src/mypkg/lint.py', 'src/mypkg/newmod.py', 'src/mypkg/sub/helpers.py'])
  test(`control: the project's own package stays writable: ${file}`, async (t) => {
    await ordinaryWriteAccepted(t, project(t), file);
  });
