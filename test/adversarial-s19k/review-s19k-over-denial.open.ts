// Review s19k, the over-denial still OPEN (the rows and the other over-denials are fixed: review-s19k.test.ts). A name
// bound to a file opened by a literal name is that file only where every mention of it is the binding or a read of
// it (python-code-runners.ts openedLiterals, closed since row 5); here `for f in staged:` binds `f` again, so
// `pickle.load(f)` refuses. SAFE (wanted) outcome: no reason on tools/check.py; it FAILS while the over-denial stands.
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
