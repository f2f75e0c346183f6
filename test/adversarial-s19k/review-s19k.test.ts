// Review s19k: Python programs a hook runs, after review s17j's fixes (python-computed-loads.ts, python-code-runners.ts)
// at 23a62068. The user's hook runs `python3 tools/check.py`, a program of theirs that loads or runs code from files.
// One CONFINED call (`sh one.sh`, real bubblewrap) writes the agent's code (or data) to a file the program then runs.
// Each test asserts the SAFE outcome by hand (the user's `git commit` never runs the agent's code), so it FAILS while
// the hole is open. Each program was first run by hand under Python 3.11.7 with the agent's files in place: PWNED is
// written. The over-denials assert by hand that an ordinary hook program is NOT refused, so they FAIL while the
// over-denial stands. All were fixed in session 27 (README.md, "Status") but one over-denial, kept OPEN in
// review-s19k-over-denial.open.ts; the repros are kept as tests.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { unresolvedOf } from '../adversarial-s09f/harness.js';
import { PY, PICKLE, PICKLE_ONE, attack } from './python-hook.js';
import { tempDir } from '../fixtures/temp.js';

/** A user's rule package tools/rules/ (a.py) that the program loads each module of. */
const RULES = { 'tools/rules/__init__.py': '', 'tools/rules/a.py': 'pass\n' };
/** A user's folder of rule texts tools/rules/ (a.txt) that the program runs each file of. */
const TEXTS = { 'tools/rules/a.txt': 'pass\n' };
const EACH_MODULE = 'for f in sorted(os.listdir("tools/rules")):\n    if f.endswith(".py") and f != "__init__.py":\n';
const EACH_TEXT = 'for f in sorted(os.listdir("tools/rules")):\n    p = os.path.join("tools/rules", f)\n';
const EACH_NAME = 'for name in sorted(os.listdir("tools/rules")):\n    p = os.path.join("tools/rules", name)\n';
/** A program that loads its defaults from a pickle it opens by a literal name (`f`, bound so once) and then binds `f` again. */
const DEFAULTS = 'with open("tools/defaults.pkl", "rb") as f:\n    DEFAULTS = pickle.load(f)\n';
const PICKLES = { 'tools/rules/a.pkl': PICKLE_ONE, 'tools/defaults.pkl': PICKLE_ONE };

// [finding, title, the user's files besides the hook, the files the agent's call writes]
const CASES: readonly (readonly [number, string, Readonly<Record<string, string>>, Readonly<Record<string, string>>])[] = [
  // 1: loaders and text runners outside the closed lists (LOADERS, CODE_RUNNING, HOOK_TOKENS).
  [
    1,
    'distutils.core.run_setup(p) (it execs the script)',
    { ...TEXTS, 'tools/check.py': `import os\nfrom distutils.core import run_setup\n${EACH_TEXT}    try:\n        run_setup(p)\n    except RuntimeError:\n        pass\n` },
    { 'tools/rules/b.txt': PY },
  ],
  [
    1,
    'type(__loader__)("rule_" + stem, p).load_module() (the main module\'s own SourceFileLoader)',
    { ...TEXTS, 'tools/check.py': `import os\n${EACH_TEXT}    type(__loader__)("rule_" + f[:-4], p).load_module()\n` },
    { 'tools/rules/b.txt': PY },
  ],
  [
    1,
    'importlib.metadata.EntryPoint(value="rules." + stem).load()',
    { ...RULES, 'tools/check.py': `import importlib.metadata, os\n${EACH_MODULE}        importlib.metadata.EntryPoint(name=f, value="rules." + f[:-3], group="acme").load()\n` },
    { 'tools/rules/b.py': PY },
  ],
  [1, 'six.exec_(open(p).read())', { ...TEXTS, 'tools/check.py': `import os, six\n${EACH_TEXT}    six.exec_(open(p).read())\n` }, { 'tools/rules/b.txt': PY }],
  [
    1,
    'tkinter.Tcl().evalfile(p) (Tcl opens files and runs programs)',
    { 'tools/rules/a.tcl': 'set x 1\n', 'tools/check.py': `import os, tkinter\ntcl = tkinter.Tcl()\n${EACH_TEXT}    tcl.evalfile(p)\n` },
    { 'tools/rules/b.tcl': 'close [open PWNED w]\n' },
  ],
  [
    1,
    'pytest.main([p]) (a test file by a computed path, imported in process)',
    { ...RULES, 'tools/check.py': `import os, pytest\n${EACH_TEXT}    if f.endswith(".py"):\n        pytest.main(["-q", "-p", "no:cacheprovider", p])\n` },
    { 'tools/rules/b.py': PY },
  ],
  // 2: deserializers that run code in their data, outside DESERIALIZERS.
  [
    2,
    'numpy.load(p, allow_pickle=True) (a pickle file)',
    { 'tools/rules/a.pkl': PICKLE_ONE, 'tools/check.py': `import os\nimport numpy as np\n${EACH_TEXT}    np.load(p, allow_pickle=True)\n` },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  [
    2,
    'yaml.load(open(p), Loader=yaml.Loader) (!!python/object/apply)',
    { 'tools/rules/a.yml': 'x: 1\n', 'tools/check.py': `import os, yaml\n${EACH_TEXT}    yaml.load(open(p), Loader=yaml.Loader)\n` },
    { 'tools/rules/b.yml': `!!python/object/apply:builtins.exec ["open('PWNED', 'w').close()"]\n` },
  ],
  [
    2,
    'multiprocessing.reduction.ForkingPickler.loads(open(p, "rb").read()) (pickle under another name)',
    { 'tools/rules/a.pkl': PICKLE_ONE, 'tools/check.py': `import os\nfrom multiprocessing.reduction import ForkingPickler\n${EACH_TEXT}    ForkingPickler.loads(open(p, "rb").read())\n` },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  // 4: the NFKC view makes quotes: a fullwidth quote in a string literal is `"` to the reader, `"＂"` a triple quote.
  [
    4,
    'BAD = "\uff02" (a fullwidth quote) before runpy.run_path(p) and END = "\uff02" after',
    { ...TEXTS, 'tools/check.py': `import os, runpy\nBAD = "\uff02"\n${EACH_TEXT}    runpy.run_path(p)\nEND = "\uff02"\n` },
    { 'tools/rules/b.txt': PY },
  ],
  // 5: a name opened by a literal and "bound once", bound again in ways the binding counter does not count.
  [
    5,
    'pickle.load(f), f re-bound by an annotated assignment `f: BinaryIO = open(p, "rb")`',
    { ...PICKLES, 'tools/check.py': `import os, pickle\nfrom typing import BinaryIO\n${DEFAULTS}${EACH_NAME}    f: BinaryIO = open(p, "rb")\n    pickle.load(f)\n` },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  [
    5,
    'pickle.load(f), f re-bound by a walrus `(f := open(p, "rb"))`',
    { ...PICKLES, 'tools/check.py': `import os, pickle\n${DEFAULTS}${EACH_NAME}    if (f := open(p, "rb")):\n        pickle.load(f)\n` },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  [
    5,
    'pickle.load(f), f a lambda parameter `lambda f: pickle.load(f)`',
    { ...PICKLES, 'tools/check.py': `import os, pickle\n${DEFAULTS}load = lambda f: pickle.load(f)\n${EACH_NAME}    load(open(p, "rb"))\n` },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  [
    5,
    'pickle.load(f), f a tuple target `for name, f in …`',
    {
      ...PICKLES,
      'tools/check.py': `import os, pickle\n${DEFAULTS}for name, f in [(n, open(os.path.join("tools/rules", n), "rb")) for n in sorted(os.listdir("tools/rules"))]:\n    pickle.load(f)\n`,
    },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  [
    5,
    'pickle.load(f), f re-bound by `globals()["f"] = open(p, "rb")`',
    { ...PICKLES, 'tools/check.py': `import os, pickle\n${DEFAULTS}${EACH_NAME}    globals()["f"] = open(p, "rb")\n    pickle.load(f)\n` },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  // 6: python3 given its program on stdin: no operand, the text comes from a file the program computes.
  [
    6,
    'subprocess.run([sys.executable], stdin=open(p))',
    { ...TEXTS, 'tools/check.py': `import os, subprocess, sys\n${EACH_TEXT}    subprocess.run([sys.executable], stdin=open(p), check=True)\n` },
    { 'tools/rules/b.txt': PY },
  ],
  [
    6,
    'subprocess.run([sys.executable, "-"], input=open(p).read(), text=True)',
    { ...TEXTS, 'tools/check.py': `import os, subprocess, sys\n${EACH_TEXT}    subprocess.run([sys.executable, "-"], input=open(p).read(), text=True, check=True)\n` },
    { 'tools/rules/b.txt': PY },
  ],
  [
    6,
    'subprocess.run(["python3"], stdin=open(p))',
    { ...TEXTS, 'tools/check.py': `import os, subprocess\n${EACH_TEXT}    subprocess.run(["python3"], stdin=open(p), check=True)\n` },
    { 'tools/rules/b.txt': PY },
  ],
];

for (const [finding, title, files, writes] of CASES)
  test.serial(`finding ${finding}: hook runs python3 tools/check.py; ${title}; the call writes ${Object.keys(writes).join(', ')}: git runs the user's code only`, async (t) => {
    t.false(await attack(t, files, writes), "the user's git commit ran the agent's code");
  });

// 3: the C twin of a listed module: `_ctypes.dlopen` loads a shared library by a computed path; its constructor runs.
// gcc is a real component .ci/run installs: a missing one fails the test, never skips it.
test.serial(
  'finding 3: hook runs python3 tools/check.py; _ctypes.dlopen(os.path.join("tools/rules", f)) over *.bin; the call writes tools/rules/b.bin (a shared library): git runs the user\'s code only',
  async (t) => {
    const dir = tempDir(t, 'zb-s19k-so-');
    writeFileSync(path.join(dir, 'p.c'), '#include <stdio.h>\n__attribute__((constructor)) static void pwn(void) { FILE *f = fopen("PWNED", "w"); if (f) fclose(f); }\n');
    execFileSync('gcc', ['-shared', '-fPIC', '-Os', '-s', '-o', path.join(dir, 'b.so'), path.join(dir, 'p.c')]);
    const check = 'import _ctypes, os\nfor f in sorted(os.listdir("tools/rules")):\n    if f.endswith(".bin"):\n        _ctypes.dlopen(os.path.join("tools/rules", f))\n';
    t.false(await attack(t, { 'tools/rules/README': 'rules\n', 'tools/check.py': check }, { 'tools/rules/b.bin': readFileSync(path.join(dir, 'b.so')) }), "the user's git commit ran the agent's code");
  },
);

// Over-denials: ordinary pre-commit programs (os, subprocess, re, json, pathlib, literal names) the computed-load check
// refuses. SAFE (wanted) outcome: no reason on tools/check.py.
const HEAD = 'import json, os, re, subprocess, sys\nfrom pathlib import Path\nstaged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\n';
const OVER: readonly (readonly [string, string])[] = [
  [
    'a debug-statement check: `"breakpoint()" in Path(f).read_text()`',
    'for f in staged:\n    if f.endswith(".py") and "breakpoint()" in Path(f).read_text():\n        sys.exit(f"{f}: breakpoint() left in")\n',
  ],
  ['a docstring with a line `import pdb`', '"""Refuse staged files with debug lines such as\nimport pdb\n"""\nprint(len(staged))\n'],
  [
    'argparse options read by getattr in a file that reads `from importlib import metadata`',
    'import argparse\nfrom importlib import metadata\nparser = argparse.ArgumentParser()\nparser.add_argument("--fix", action="store_true")\nargs = parser.parse_args()\nfor opt in ("fix",):\n    print(opt, getattr(args, opt))\nprint(metadata.version("pip"))\n',
  ],
  ['pickle.loads of a cache named by a literal through pathlib', 'import pickle\ncache = Path(".git/check-cache.pkl")\nseen = pickle.loads(cache.read_bytes()) if cache.exists() else {}\n'],
];

for (const [title, body] of OVER)
  test(`over-denial: an ordinary hook program, ${title}, is not refused`, (t) => {
    const reasons = unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': HEAD + body }).filter((reason) => reason.includes('/tools/check.py line '));
    t.deepEqual(reasons, []);
  });
