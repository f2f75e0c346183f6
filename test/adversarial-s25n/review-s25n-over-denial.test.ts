// Review s25n's over-denial 5, FIXED (the rows and the other over-denials: review-s25n.test.ts): a loop's name over a
// literal tuple of plain module names is one of them to find_spec (python-loop-names.ts). SAFE (wanted) outcome: no
// reason on tools/check.py.
import test from 'ava';
import { unresolvedOf } from '../adversarial-s09f/harness.js';

const HEAD =
  'import json, os, re, shutil, subprocess, sys\nfrom pathlib import Path\nstaged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\n';
const OVER: readonly (readonly [string, string])[] = [
  [
    'importlib.util.find_spec(mod) over a literal tuple of names',
    'import importlib.util\nfor mod in ("black", "isort"):\n    if importlib.util.find_spec(mod) is None:\n        sys.exit(f"pip install {mod}")\n',
  ],
];

for (const [title, body] of OVER)
  test(`over-denial: an ordinary hook program, ${title}, is not refused`, (t) => {
    // The user's PATH, as in a real run: python3's own search path is then known.
    const files = { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': HEAD + body };
    const reasons = unresolvedOf(t, files, {}, '.githooks', process.env.PATH).filter((reason) => reason.includes('/tools/check.py line '));
    t.deepEqual(reasons, []);
  });
