// Review s19k's last over-denial, FIXED in session 28 (python-code-runners.ts openedWithBodies). A name bound to a
// file opened by a literal name was that file only where every mention of it in the whole file is the binding or a
// read of it (openedLiterals, closed since row 5), so `for f in staged:` elsewhere made `pickle.load(f)` refuse; in the
// with-block's own body it is now that file where nothing can bind it meanwhile. SAFE (wanted) outcome: no reason on
// tools/check.py; it FAILED while the over-denial stood.
import test from 'ava';
import { unresolvedOf } from '../adversarial-s09f/harness.js';

const HEAD = 'import json, os, re, subprocess, sys\nfrom pathlib import Path\nstaged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\n';
const OVER: readonly (readonly [string, string])[] = [
  [
    'pickle.load of a file opened by a literal name, with `for f in staged:` elsewhere in the file',
    'import pickle\nseen = {}\nif os.path.exists(".git/check-cache.pkl"):\n    with open(".git/check-cache.pkl", "rb") as f:\n        seen = pickle.load(f)\nfor f in staged:\n    print(f, f in seen)\n',
  ],
];

for (const [title, body] of OVER)
  test(`over-denial: an ordinary hook program, ${title}, is not refused`, (t) => {
    const reasons = unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': HEAD + body }).filter((reason) => reason.includes('/tools/check.py line '));
    t.deepEqual(reasons, []);
  });
