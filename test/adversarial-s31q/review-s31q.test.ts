// Review s31q: Python programs a hook runs, after review s29p's fixes (python-lookups.ts, python-loop-names.ts,
// python-reflection.ts, python-code-runners.ts) at 8599deb1 (last python-* commit 75cdb585). The user's hook runs
// `python3 tools/check.py`, a program of theirs that loads or runs code (or calls) named by files. One CONFINED call
// (`sh one.sh`, real bubblewrap) writes the agent's file; each test asserts the SAFE outcome by hand (the user's `git
// commit` never runs the agent's code); all FAILED on 8599deb1 and pass since session 29's fix (README.md "Status").
// Each program was first run by hand under Python 3.11.7 with the agent's file in place: PWNED is written. The pydantic
// case needs pydantic, so it is a unit case in python-computed-loads.test.ts. The over-denials assert by hand that an
// ordinary hook program is NOT refused.
import test from 'ava';
import { attack, overDenialTests } from '../adversarial-s19k/python-hook.js';

const EACH_RULE = 'for f in sorted(os.listdir("tools/rules")):\n    p = os.path.join("tools/rules", f)\n';
/** The user's harmless rule, and the agent's: an expression (eval runs it too) that writes PWNED. */
const RULES = { 'tools/rules/a.py': 'print("rule a")\n' };
const AGENT_RULE = { 'tools/rules/b.py': 'open("PWNED", "w").close()\n' };
/** Shell rules: the user's, and the agent's. */
const SHELL_RULES = { 'tools/rules/a.sh': 'true\n' };
const AGENT_SHELL_RULE = { 'tools/rules/b.sh': 'touch PWNED\n' };
/** Each schema in tools/schemas read into `fields` (a name to a type's name). */
const EACH_SCHEMA = 'for f in sorted(os.listdir("tools/schemas")):\n    fields = json.load(open(os.path.join("tools/schemas", f)))\n';
const SCHEMAS = { 'tools/schemas/a.json': '{"name": "str", "count": "int"}\n' };
/** A type expression that writes PWNED when Python evaluates it, and is `int` after. */
const AGENT_SCHEMA = { 'tools/schemas/b.json': JSON.stringify({ name: '__import__("os").system("touch PWNED") or int' }) };

// [finding, title, the user's files besides the hook, the files the agent's call writes]
const CASES: readonly (readonly [number, string, Readonly<Record<string, string>>, Readonly<Record<string, string>>])[] = [
  // 1: lookupInert's condition test reads the line from `if`, so a one-line compound statement's BODY after `and`/`or` is "the condition".
  [
    1,
    'if True: B = None or getattr(os, "_" "_builtins__") (the body of a one-line if is read as its condition), then B["ex" "ec"] runs each rule',
    { ...RULES, 'tools/check.py': `import os\nif True: B = None or getattr(os, "_" "_builtins__")\n${EACH_RULE}    B["ex" "ec"](open(p).read())\n` },
    AGENT_RULE,
  ],
  [
    1,
    'def member(name): if name: return None or getattr(os, name) (a returned lookup after a one-line if), then member("_" "_builtins__")["ev" "al"]',
    {
      ...RULES,
      'tools/check.py': `import os\ndef member(name):\n    if name: return None or getattr(os, name)\nB = member("_" "_builtins__")\n${EACH_RULE}    B["ev" "al"](open(p).read())\n`,
    },
    AGENT_RULE,
  ],
  // 2: the builtins module (or sys) reached as another module's attribute or by a literal getattr, then its eval as a method.
  [
    2,
    'B = inspect.builtins (the builtins module as an attribute of inspect), then B.eval(text) of each rule',
    { ...RULES, 'tools/check.py': `import inspect, os\nB = inspect.builtins\n${EACH_RULE}    B.eval(open(p).read())\n` },
    AGENT_RULE,
  ],
  [
    2,
    'S = getattr(os, "sys") (sys by a literal name), B = S.modules["built" "ins"], then B.eval(text) of each rule',
    { ...RULES, 'tools/check.py': `import os\nS = getattr(os, "sys")\nB = S.modules["built" "ins"]\n${EACH_RULE}    B.eval(open(p).read())\n` },
    AGENT_RULE,
  ],
  // 3: a process runner taken by a literal getattr: the lookup check passes a literal name, the command readers see no call.
  [
    3,
    'getattr(os, "system")(open(p).read()) over a folder of shell rules',
    { ...SHELL_RULES, 'tools/check.py': `import os\n${EACH_RULE}    getattr(os, "system")(open(p).read())\n` },
    AGENT_SHELL_RULE,
  ],
  [
    3,
    'getattr(subprocess, "run")(open(p).read(), shell=True) over a folder of shell rules',
    { ...SHELL_RULES, 'tools/check.py': `import os, subprocess\n${EACH_RULE}    getattr(subprocess, "run")(open(p).read(), shell=True)\n` },
    AGENT_SHELL_RULE,
  ],
  // 4: string annotations evaluated by APIs outside the lists.
  [
    4,
    'inspect.signature(check, eval_str=True) of annotations from a folder of JSON schemas',
    {
      ...SCHEMAS,
      'tools/check.py': `import inspect, json, os\n${EACH_SCHEMA}    def check(**kw):\n        pass\n    check.__annotations__ = fields\n    print(f, inspect.signature(check, eval_str=True))\n`,
    },
    AGENT_SCHEMA,
  ],
  [
    4,
    "functools.singledispatch's register(handler) of a handler annotated from a folder of JSON schemas (get_type_hints inside)",
    {
      ...SCHEMAS,
      'tools/check.py': `import functools, json, os\n@functools.singledispatch\ndef describe(value):\n    return "value"\n${EACH_SCHEMA}    def handler(value):\n        return f\n    handler.__annotations__ = {"value": fields["name"]}\n    describe.register(handler)\n`,
    },
    AGENT_SCHEMA,
  ],
];

for (const [finding, title, files, writes] of CASES)
  test.serial(`finding ${finding}: hook runs python3 tools/check.py; ${title}: git runs the user's code only`, async (t) => {
    t.false(await attack(t, files, writes), "the user's git commit ran the agent's code");
  });

// Over-denials: ordinary pre-commit programs (os, subprocess, re, json, pathlib, literal names) the checks refuse.
// SAFE (wanted) outcome: no reason on tools/check.py.
const ARGS = 'import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--fix", action="store_true")\nargs = parser.parse_args()\n';
const OVER: readonly (readonly [string, string])[] = [
  ["argparse's options printed as JSON, json.dumps(vars(args))", `${ARGS}print(json.dumps(vars(args)))\n`],
  ["argparse's options listed, for key, value in vars(args).items()", `${ARGS}for key, value in vars(args).items():\n    print(key, value)\n`],
  [
    'a leftover-debugger check whose words are a named tuple constant DEBUG_CALLS = ("breakpoint", "set_trace")',
    'DEBUG_CALLS = ("breakpoint", "set_trace")\nfor name in staged:\n    if name.endswith(".py") and Path(name).exists():\n        text = Path(name).read_text()\n        for word in DEBUG_CALLS:\n            if word + "(" in text:\n                sys.exit(f"{name}: leftover {word}()")\n',
  ],
  [
    "logging's level idiom on a logger, log.setLevel(getattr(logging, level))",
    'import logging\nlog = logging.getLogger("check")\nlog.setLevel(getattr(logging, os.environ.get("CHECK_LOG", "INFO").upper()))\nlog.info("%d staged", len(staged))\n',
  ],
];

overDenialTests(OVER);
