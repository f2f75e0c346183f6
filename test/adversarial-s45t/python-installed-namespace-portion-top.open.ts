// Review s45t of issue 21, the part python-installed-namespace-portion.test.ts leaves open: a namespace portion at
// `python -m`'s working directory (sys.path[0], the project top). Installed code's optional `from acme_colors import
// palette` finds `acme_colors/palette.py` there when no entry holds acme_colors as a regular module. docs/security.md
// lists it as "Not covered": protecting every directory without __init__.py at the project top whole (docs/, tests/,
// scripts/) would refuse ordinary work in any project whose hook runs `python -m` there, and a new directory cannot
// be refused by the finite name sets sys.path[0]'s rule keeps without that over-denial.
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { pythonProject } from '../adversarial-s43r/fixtures.js';
import { writeThenCommit } from './fixtures.js';

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

test("a namespace portion installed code tries, at -m's working directory, is refused: acme_colors/palette.py (python -m)", async (t) => {
  await writeThenCommit(t, project(t, MODULE), 'acme_colors/palette.py', payload);
});
