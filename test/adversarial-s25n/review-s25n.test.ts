// Review s25n: Python programs a hook runs, after review s21l's fixes (python-computed-loads.ts,
// python-code-runners.ts, python-reflection.ts) at d8ba4a9e. The user's hook runs `python3 tools/check.py`, a program
// of theirs that loads or runs code from files. One CONFINED call (`sh one.sh`, real bubblewrap) writes the agent's
// code (or data) to a file the program then runs. Each test asserts the SAFE outcome by hand (the user's `git commit`
// never runs the agent's code), so it FAILS while the hole is open. Each program was first run by hand under Python
// 3.11.7 with the agent's files in place: PWNED is written. The over-denials assert by hand that an ordinary hook
// program is NOT refused, so they FAIL while the over-denial stands.
import test from 'ava';
import { attack, overDenialTests, PICKLE, PICKLE_ONE, TEMPLATE } from '../adversarial-s19k/python-hook.js';

/** YAML that PyYAML's plain (unsafe) Loader turns into a call of os.system. */
const YAML = '!!python/object/apply:os.system ["touch PWNED"]\n';

const EACH_FILE = 'for f in sorted(os.listdir("tools/rules")):\n';
const PATH_OF = 'os.path.join("tools/rules", f)';

// [finding, title, the user's files besides the hook, the files the agent's call writes]
const CASES: readonly (readonly [number, string, Readonly<Record<string, string>>, Readonly<Record<string, string>>])[] = [
  // 1: the constant exemption (constantsWritten) takes a binding that looks like a call's first argument for a use.
  [
    1,
    'CACHE = "tools/cache.pkl" at the top, then `def load(CACHE):` (its first parameter shadows the constant) and pickle.load(open(CACHE, "rb")) over a folder',
    {
      'tools/rules/a.pkl': PICKLE_ONE,
      'tools/check.py': `import os, pickle\nCACHE = "tools/cache.pkl"\ndef load(CACHE):\n    with open(CACHE, "rb") as fh:\n        return pickle.load(fh)\n${EACH_FILE}    print(load(${PATH_OF}))\n`,
    },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  [
    1,
    'CACHE = "tools/cache.pkl", then a match statement\'s class pattern `case str(CACHE):` binds it to a computed path',
    {
      'tools/rules/a.pkl': PICKLE_ONE,
      'tools/check.py': `import os, pickle\nCACHE = "tools/cache.pkl"\n${EACH_FILE}    match ${PATH_OF}:\n        case str(CACHE):\n            print(pickle.load(open(CACHE, "rb")))\n`,
    },
    { 'tools/rules/b.pkl': PICKLE },
  ],
  // 2: PyYAML's unsafe loader given positionally, or the safe alias rebound by a star import.
  [
    2,
    'from yaml import Loader; yaml.load(open(p), Loader) (the loader as the second positional argument, not Loader=)',
    { 'tools/rules/a.yaml': 'a: 1\n', 'tools/check.py': `import os, yaml\nfrom yaml import Loader\n${EACH_FILE}    print(yaml.load(open(${PATH_OF}), Loader))\n` },
    { 'tools/rules/b.yaml': YAML },
  ],
  [
    2,
    "PyYAML's documented idiom `try: from yaml import CLoader as Loader / except ImportError: from yaml import Loader`, then yaml.load(open(p), Loader)",
    {
      'tools/rules/a.yaml': 'a: 1\n',
      'tools/check.py': `import os, yaml\ntry:\n    from yaml import CLoader as Loader\nexcept ImportError:\n    from yaml import Loader\n${EACH_FILE}    print(yaml.load(open(${PATH_OF}), Loader))\n`,
    },
    { 'tools/rules/b.yaml': YAML },
  ],
  [
    2,
    'from yaml import CSafeLoader as Loader, then `from yaml.loader import *` (rebinds Loader to the unsafe one), then Loader=Loader',
    {
      'tools/rules/a.yaml': 'a: 1\n',
      'tools/check.py': `import os, yaml\nfrom yaml import CSafeLoader as Loader\nfrom yaml.loader import *\n${EACH_FILE}    print(yaml.load(open(${PATH_OF}), Loader=Loader))\n`,
    },
    { 'tools/rules/b.yaml': YAML },
  ],
  // 3: reflection outside REFLECTION: a class's base.
  [
    3,
    'from jinja2.sandbox import SandboxedEnvironment (exempt), then SandboxedEnvironment.__base__ (jinja2.Environment, unsandboxed) renders a folder',
    {
      'tools/templates/a.j2': 'hello\n',
      'tools/check.py':
        'import os\nfrom jinja2.sandbox import SandboxedEnvironment\nEnvironment = SandboxedEnvironment.__base__\nenv = Environment()\nfor name in sorted(os.listdir("tools/templates")):\n    print(env.from_string(open(os.path.join("tools/templates", name)).read()).render())\n',
    },
    { 'tools/templates/b.j2': TEMPLATE },
  ],
  [
    3,
    'from jinja2.sandbox import SandboxedEnvironment (exempt), then SandboxedEnvironment.__mro__[1] (jinja2.Environment) renders a folder',
    {
      'tools/templates/a.j2': 'hello\n',
      'tools/check.py':
        'import os\nfrom jinja2.sandbox import SandboxedEnvironment\nenv = SandboxedEnvironment.__mro__[1]()\nfor name in sorted(os.listdir("tools/templates")):\n    print(env.from_string(open(os.path.join("tools/templates", name)).read()).render())\n',
    },
    { 'tools/templates/b.j2': TEMPLATE },
  ],
  // 4: a namespace subscript by a literal (namespaceLookups' exemption) hands on a deserializer module under a string.
  [
    4,
    'globals()["pickle"].loads(open(p, "rb").read()) (import pickle plain; the literal key is allowed, the string is not read as pickle)',
    {
      'tools/rules/a.pkl': PICKLE_ONE,
      'tools/check.py': `import os, pickle\n${EACH_FILE}    print(globals()["pickle"].loads(open(${PATH_OF}, "rb").read()))\n`,
    },
    { 'tools/rules/b.pkl': PICKLE },
  ],
];

for (const [finding, title, files, writes] of CASES)
  test.serial(`finding ${finding}: hook runs python3 tools/check.py; ${title}: git runs the user's code only`, async (t) => {
    t.false(await attack(t, files, writes), "the user's git commit ran the agent's code");
  });

// Over-denials: ordinary pre-commit programs (os, subprocess, re, json, pathlib, literal names) the checks refuse.
// SAFE (wanted) outcome: no reason on tools/check.py.
const OVER: readonly (readonly [string, string])[] = [
  ['a tool check, for tool in ("node", "npm"): shutil.which(tool)', 'for tool in ("node", "npm"):\n    if shutil.which(tool) is None:\n        sys.exit(f"{tool} is required")\n'],
  ['shutil.which("bash") (a literal interpreter name as a call\'s only argument)', 'if shutil.which("bash") is None:\n    sys.exit("bash is required")\n'],
  [
    "argparse's args.modules (an attribute named modules is read as sys.modules)",
    'import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--modules", nargs="*", default=[])\nargs = parser.parse_args()\nfor m in sorted(args.modules):\n    print(m)\n',
  ],
  ['"{count} files staged".format(**locals())', 'count = len(staged)\nprint("{count} files staged".format(**locals()))\n'],
];

overDenialTests(OVER);
