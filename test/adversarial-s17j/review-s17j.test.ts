// Review s17j: Python programs a hook runs, after the computed-load check (python-computed-loads.ts) at 63a11181.
// The user's hook runs `python3 tools/check.py`, a program of theirs that loads or runs code from files. One CONFINED
// call (`sh one.sh`, real bubblewrap) writes the agent's Python (or data) to files the program then runs. Each test
// asserts the SAFE outcome by hand (the user's `git commit` never runs the agent's code), so it FAILS while the hole is
// open. Each program was first run by hand under Python 3.11.7 with the agent's files in place: PWNED is written.
// The over-denials assert by hand that an ordinary hook program is NOT refused, so they FAIL while the over-denial
// stands. All were fixed in session 27 (README.md, "Status"); the repros are kept as tests.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { unresolvedOf } from '../adversarial-s09f/harness.js';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';
import { tempDir } from '../fixtures/temp.js';

const PY = 'open("PWNED", "w").close()\n';

/** The agent's one.sh: each file written from base64 (any bytes, any quotes), its folder made. */
function oneScript(writes: Readonly<Record<string, string | Buffer>>): string {
  return Object.entries(writes)
    .map(([file, text]) => `mkdir -p "$(dirname '${file}')"\nprintf '%s' '${Buffer.from(text).toString('base64')}' | base64 -d > '${file}'\n`)
    .join('');
}

/** The user's committed files with the hook `python3 tools/check.py` (or `hook`), the agent's call, then the user's `git commit`: true when PWNED. */
async function attack(
  t: Parameters<typeof project>[0],
  files: Readonly<Record<string, string>>,
  writes: Readonly<Record<string, string | Buffer>>,
  hook = 'exec python3 tools/check.py',
): Promise<boolean> {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': oneScript(writes), ...files, '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n` });
  return agentThenUserCommit(t, ws);
}

/** A user's rule package tools/rules/ (a.py) that the program loads each module of. */
const RULES = { 'tools/rules/__init__.py': '', 'tools/rules/a.py': 'pass\n' };
/** A user's folder of rule texts tools/rules/ (a.txt) that the program runs each file of. */
const TEXTS = { 'tools/rules/a.txt': 'pass\n' };
const EACH_MODULE = 'for f in sorted(os.listdir("tools/rules")):\n    if f.endswith(".py") and f != "__init__.py":\n';
const EACH_TEXT = 'for f in sorted(os.listdir("tools/rules")):\n    p = os.path.join("tools/rules", f)\n';

// [finding, title, the user's files besides the hook, the files the agent's call writes]
const CASES: readonly (readonly [number, string, Readonly<Record<string, string>>, Readonly<Record<string, string>>])[] = [
  // 1: loaders by path that LOADERS does not list.
  [1, 'pydoc.importfile(p) over tools/rules', { ...TEXTS, 'tools/check.py': `import os, pydoc\n${EACH_TEXT}    pydoc.importfile(p)\n` }, { 'tools/rules/b.txt': PY }],
  [
    1,
    'pkgutil.iter_modules([dir]); finder.find_spec(name); spec.loader.exec_module(...)',
    {
      ...RULES,
      'tools/check.py':
        'import importlib.util, pkgutil\nfor finder, name, _ in pkgutil.iter_modules(["tools/rules"]):\n    s = finder.find_spec(name)\n    s.loader.exec_module(importlib.util.module_from_spec(s))\n',
    },
    { 'tools/rules/b.py': PY },
  ],
  [
    1,
    'importlib.util.find_spec("rules." + stem) and exec_module',
    {
      ...RULES,
      'tools/check.py': `import importlib.util, os\n${EACH_MODULE}        s = importlib.util.find_spec("rules." + f[:-3])\n        s.loader.exec_module(importlib.util.module_from_spec(s))\n`,
    },
    { 'tools/rules/b.py': PY },
  ],
  // 2: loaders by a dotted module name that LOADERS does not list.
  [2, 'pydoc.locate("rules." + stem)', { ...RULES, 'tools/check.py': `import os, pydoc\n${EACH_MODULE}        pydoc.locate("rules." + f[:-3])\n` }, { 'tools/rules/b.py': PY }],
  [
    2,
    'unittest.TestLoader().loadTestsFromName("rules." + stem)',
    { ...RULES, 'tools/check.py': `import os, unittest\n${EACH_MODULE}        unittest.TestLoader().loadTestsFromName("rules." + f[:-3])\n` },
    { 'tools/rules/b.py': PY },
  ],
  [
    2,
    'logging.config.dictConfig with a "()" factory named "rules." + stem',
    { ...RULES, 'tools/check.py': `import logging.config, os\n${EACH_MODULE}        logging.config.dictConfig({"version": 1, "filters": {"x": {"()": "rules." + f[:-3] + ".__name__.upper"}}})\n` },
    { 'tools/rules/b.py': PY },
  ],
  [
    2,
    'PYTHONBREAKPOINT set to "rules." + stem, then breakpoint()',
    { ...RULES, 'tools/check.py': `import os\n${EACH_MODULE}        os.environ["PYTHONBREAKPOINT"] = "rules." + f[:-3] + ".__name__.upper"\n        breakpoint()\n` },
    { 'tools/rules/b.py': PY },
  ],
  // 3: standard-library calls that run text, besides exec/eval/compile.
  [
    3,
    'code.InteractiveInterpreter().runsource(open(p).read(), p, "exec")',
    { ...TEXTS, 'tools/check.py': `import code, os\n${EACH_TEXT}    code.InteractiveInterpreter().runsource(open(p).read(), p, "exec")\n` },
    { 'tools/rules/b.txt': PY },
  ],
  [3, 'timeit.timeit(open(p).read(), number=1)', { ...TEXTS, 'tools/check.py': `import os, timeit\n${EACH_TEXT}    timeit.timeit(open(p).read(), number=1)\n` }, { 'tools/rules/b.txt': PY }],
  [3, 'cProfile.run(open(p).read())', { ...TEXTS, 'tools/check.py': `import cProfile, os\n${EACH_TEXT}    cProfile.run(open(p).read())\n` }, { 'tools/rules/b.txt': PY }],
  [
    3,
    'doctest.testfile(p, module_relative=False)',
    { 'tools/rules/a.txt': '>>> 1\n1\n', 'tools/check.py': `import doctest, os\n${EACH_TEXT}    doctest.testfile(p, module_relative=False)\n` },
    { 'tools/rules/b.txt': `>>> ${PY}` },
  ],
  // 4: a module named by data the program reads, not by its text: entry points found on sys.path[0], a logging config.
  [
    4,
    'importlib.metadata.entry_points(group="acme.checks"): a new tools/*.dist-info names rules.b',
    { ...RULES, 'tools/check.py': 'import importlib.metadata\nfor ep in importlib.metadata.entry_points(group="acme.checks"):\n    ep.load()\n' },
    {
      'tools/acme_x-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\nName: acme-x\nVersion: 1.0\n',
      'tools/acme_x-1.0.dist-info/entry_points.txt': '[acme.checks]\nb = rules.b\n',
      'tools/rules/b.py': PY,
    },
  ],
  [
    4,
    'logging.config.fileConfig("tools/logging.ini") whose handler class is rules.handlers.H',
    {
      ...RULES,
      'tools/rules/handlers.py': 'import logging\nH = logging.StreamHandler\n',
      'tools/logging.ini': '[loggers]\nkeys=root\n[handlers]\nkeys=h\n[formatters]\nkeys=\n[logger_root]\nhandlers=h\n[handler_h]\nclass=rules.handlers.H\nargs=()\n',
      'tools/check.py': 'import logging.config\nlogging.config.fileConfig("tools/logging.ini")\n',
    },
    { 'tools/rules/handlers.py': `import logging\nH = logging.StreamHandler\n${PY}` },
  ],
  // 5: an f-string's replacement fields are code; the reader skips the f-string as a string.
  [5, 'f"{runpy.run_path(p)}"', { ...TEXTS, 'tools/check.py': `import os, runpy\n${EACH_TEXT}    f"{runpy.run_path(p)}"\n` }, { 'tools/rules/b.txt': PY }],
  // 6: identifiers are NFKC-normalized by Python; the reader's words are ASCII.
  [
    6,
    'exec spelled in fullwidth letters (\uff45\uff58\uff45\uff43)',
    { ...TEXTS, 'tools/check.py': `import os\n${EACH_TEXT}    \uff45\uff58\uff45\uff43(open(p).read())\n` },
    { 'tools/rules/b.txt': PY },
  ],
  [6, '__import__ with a fullwidth i (__\uff49mport__)', { ...RULES, 'tools/check.py': `import os\n${EACH_MODULE}        __\uff49mport__("rules." + f[:-3])\n` }, { 'tools/rules/b.py': PY }],
  // 7: reflection spellings the lookup check does not read.
  [
    7,
    'operator.attrgetter("exec")(builtins)',
    { ...TEXTS, 'tools/check.py': `import builtins, operator, os\nrun = operator.attrgetter("exec")(builtins)\n${EACH_TEXT}    run(open(p).read())\n` },
    { 'tools/rules/b.txt': PY },
  ],
  [7, 'vars(runpy).get("run_" + "path")', { ...TEXTS, 'tools/check.py': `import os, runpy\nrun = vars(runpy).get("run_" + "path")\n${EACH_TEXT}    run(p)\n` }, { 'tools/rules/b.txt': PY }],
  [
    7,
    'the builtins module under another name: `B = builtins`; B.eval(open(p).read())',
    { 'tools/rules/a.txt': 'None\n', 'tools/check.py': `import builtins, os\nB = builtins\n${EACH_TEXT}    B.eval(open(p).read())\n` },
    { 'tools/rules/b.txt': PY },
  ],
  // 8: importlib.machinery's suffix lists: a literal import then loads a file of another extension.
  [
    8,
    'importlib.machinery.SOURCE_SUFFIXES.append(".txt"); import acme_extra loads tools/acme_extra.txt',
    { 'tools/acme_extra.txt': 'pass\n', 'tools/check.py': 'import importlib.machinery\nimportlib.machinery.SOURCE_SUFFIXES.append(".txt")\nimport acme_extra\n' },
    { 'tools/acme_extra.txt': PY },
  ],
];

for (const [finding, title, files, writes] of CASES)
  test.serial(`finding ${finding}: hook runs python3 tools/check.py; ${title}; the call writes ${Object.keys(writes).join(', ')}: git runs the user's code only`, async (t) => {
    t.false(await attack(t, files, writes), "the user's git commit ran the agent's code");
  });

// 1 (inline): the same loaders in an inline program (`python3 -c`), read by inline-program-runs.ts.
test.serial("finding 1: hook runs python3 -c '… pydoc.importfile(os.path.join(\"tools/rules\", f))'; the call writes tools/rules/b.txt: git runs the user's code only", async (t) => {
  const hook = `exec python3 -c 'import os, pydoc\nfor f in sorted(os.listdir("tools/rules")): pydoc.importfile(os.path.join("tools/rules", f))'`;
  t.false(await attack(t, TEXTS, { 'tools/rules/b.txt': PY }, hook), "the user's git commit ran the agent's code");
});

// 9: ctypes loads a shared library by a computed path; its constructor runs. The library is built here (gcc).
// gcc is a real component .ci/run installs: a missing one fails the test, never skips it.
test.serial(
  'finding 9: hook runs python3 tools/check.py; ctypes.CDLL(os.path.join("tools/rules", f)) over *.bin; the call writes tools/rules/b.bin (a shared library; *.so is protected): git runs the user\'s code only',
  async (t) => {
    const dir = tempDir(t, 'zb-s17j-so-');
    writeFileSync(path.join(dir, 'p.c'), '#include <stdio.h>\n__attribute__((constructor)) static void pwn(void) { FILE *f = fopen("PWNED", "w"); if (f) fclose(f); }\n');
    execFileSync('gcc', ['-shared', '-fPIC', '-Os', '-s', '-o', path.join(dir, 'b.so'), path.join(dir, 'p.c')]);
    const check = 'import ctypes, os\nfor f in sorted(os.listdir("tools/rules")):\n    if f.endswith(".bin"):\n        ctypes.CDLL(os.path.join("tools/rules", f))\n';
    t.false(await attack(t, { 'tools/rules/README': 'rules\n', 'tools/check.py': check }, { 'tools/rules/b.bin': readFileSync(path.join(dir, 'b.so')) }), "the user's git commit ran the agent's code");
  },
);

// Over-denials: ordinary pre-commit programs (os, subprocess, re, json, pathlib, literal names) the computed-load check
// now refuses. SAFE (wanted) outcome: no reason on tools/check.py.
const HEAD = 'import json, os, re, subprocess, sys\nfrom pathlib import Path\nstaged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\n';
const OVER: readonly (readonly [string, string])[] = [
  [
    're.compile imported by name: `from re import compile`; compile(r"\\bbreakpoint\\(\\)")',
    'from re import compile\nDEBUG = compile(r"\\bbreakpoint\\(\\)")\nfor f in staged:\n    if DEBUG.search(Path(f).read_text()):\n        sys.exit(1)\n',
  ],
  ['a config key "compile": `if config["compile"]:`', 'config = json.loads(Path("tools/check.json").read_text())\nif config["compile"]:\n    print("compile step on")\n'],
  ['a list of step names starting with "eval": `STEPS = ["eval", "lint"]`', 'STEPS = ["eval", "lint"]\nfor step in STEPS:\n    print(step)\n'],
  ['a function of its own named compile', 'def compile(paths):\n    return [p for p in paths if p.endswith(".py")]\nprint(compile(staged))\n'],
  [
    'pickle.dump of a cache (dump never runs code)',
    'import pickle\nseen = {f: os.path.getmtime(f) for f in staged if os.path.exists(f)}\nwith open(".git/check-cache.pkl", "wb") as out:\n    pickle.dump(seen, out)\n',
  ],
  ['pickle.load of a file opened by a literal name in a `with`', 'import pickle\nwith open(".git/check-cache.pkl", "rb") as cache:\n    seen = pickle.load(cache)\n'],
  [
    'argparse options read by getattr in a file that reads importlib.metadata.version',
    'import argparse, importlib.metadata\nparser = argparse.ArgumentParser()\nparser.add_argument("--fix", action="store_true")\nargs = parser.parse_args()\nfor opt in ("fix",):\n    print(opt, getattr(args, opt))\nprint(importlib.metadata.version("pip"))\n',
  ],
  [
    '`self.__dict__[k] = v` in a file that reads importlib.metadata.version',
    'import importlib.metadata\nclass Cfg:\n    def __init__(self, **kw):\n        for k, v in kw.items():\n            self.__dict__[k] = v\nprint(importlib.metadata.version("pip"))\n',
  ],
];

for (const [title, body] of OVER)
  test(`over-denial: an ordinary hook program, ${title}, is not refused`, (t) => {
    const reasons = unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': HEAD + body, 'tools/check.json': '{"compile": true}\n' }).filter((reason) =>
      reason.includes('/tools/check.py line '),
    );
    t.deepEqual(reasons, []);
  });
