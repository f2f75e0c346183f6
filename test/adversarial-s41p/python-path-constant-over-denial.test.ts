// Review s41p of issue 21, OVER-DENIAL: a Python hook program's module-level constant named like a search path
// (`ROOT`, `BASE_DIR`, `SCRIPT_DIR`, `REPO_ROOT`: PEP 8 constants, Django's `BASE_DIR = Path(__file__).resolve().parent.parent`)
// bound to an expression refuses EVERY write in the project: tool-file-references.ts runs pathEntries (the reader of
// settings files' environment blocks, `"PATH": "…"`, mise's `[env]`) over program files too, so `ROOT = Path(__file__)…`
// reads as a variable `ROOT` set to a value it cannot spell out ("it puts … on ROOT, and zotbox cannot work out which
// directory that is"). The same line with a lower-case name is read fine (control), and the s40o path grammar reads the
// expression itself. The write tool writes `src/app.py`, a file no hook names: refused today.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

async function ordinaryWrite(t: ExecutionContext, program: string): Promise<void> {
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': program, 'src/keep.txt': '\n' });
  t.log(await agentWrites(t, ws, 'src/app.py', 'x = 1\n'));
  t.true(existsSync(path.join(ws, 'src', 'app.py')), 'a write no hook names was refused');
}

for (const [name, line] of [
  ['ROOT = Path(__file__).resolve().parent.parent', 'from pathlib import Path\nROOT = Path(__file__).resolve().parent.parent\n'],
  ['BASE_DIR = Path(__file__).resolve().parent.parent (Django)', 'from pathlib import Path\nBASE_DIR = Path(__file__).resolve().parent.parent\n'],
  ['SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))', 'import os\nSCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))\n'],
  ['REPO_ROOT = subprocess.check_output(...)', 'import subprocess\nREPO_ROOT = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()\n'],
] as const)
  test(`a path constant in a Python hook program refuses no ordinary write: ${name}`, async (t) => {
    await ordinaryWrite(t, `${line}print("checked")\n`);
  });

test('control (passes today): the same line with a lower-case name', async (t) => {
  await ordinaryWrite(t, 'from pathlib import Path\nroot = Path(__file__).resolve().parent.parent\nprint("checked")\n');
});
