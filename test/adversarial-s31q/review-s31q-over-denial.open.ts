// Review s31q's over-denial 4 still OPEN (1-3 are fixed: review-s31q.test.ts). SAFE
// (wanted) outcome: no reason on tools/check.py; each FAILS while the over-denial stands.
import test from 'ava';
import { unresolvedOf } from '../adversarial-s09f/harness.js';

const HEAD =
  'import json, os, re, shutil, subprocess, sys\nfrom pathlib import Path\nstaged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\n';
const OVER: readonly (readonly [string, string])[] = [
  [
    'a leftover-debugger check whose words are a named tuple constant DEBUG_CALLS = ("breakpoint", "set_trace")',
    'DEBUG_CALLS = ("breakpoint", "set_trace")\nfor name in staged:\n    if name.endswith(".py") and Path(name).exists():\n        text = Path(name).read_text()\n        for word in DEBUG_CALLS:\n            if word + "(" in text:\n                sys.exit(f"{name}: leftover {word}()")\n',
  ],
];

for (const [title, body] of OVER)
  test(`over-denial: an ordinary hook program, ${title}, is not refused`, (t) => {
    // The user's PATH, as in a real run: python3's own search path is then known.
    const files = { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': HEAD + body };
    const reasons = unresolvedOf(t, files, {}, '.githooks', process.env.PATH).filter((reason) => reason.includes('/tools/check.py line '));
    t.deepEqual(reasons, []);
  });
