// Review s25n's over-denial 5, FIXED (the rows and the other over-denials: review-s25n.test.ts): a loop's name over a
// literal tuple of plain module names is one of them to find_spec (python-loop-names.ts). SAFE (wanted) outcome: no
// reason on tools/check.py.
import { overDenialTests } from '../adversarial-s19k/python-hook.js';

const OVER: readonly (readonly [string, string])[] = [
  [
    'importlib.util.find_spec(mod) over a literal tuple of names',
    'import importlib.util\nfor mod in ("black", "isort"):\n    if importlib.util.find_spec(mod) is None:\n        sys.exit(f"pip install {mod}")\n',
  ],
];

overDenialTests(OVER);
