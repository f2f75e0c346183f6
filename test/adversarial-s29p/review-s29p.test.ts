// Review s29p: Python programs a hook runs, after review s25n's fixes (python-computed-loads.ts,
// python-code-runners.ts, python-reflection.ts) at 4d6e2fc4 (last python-* commit ed549a5a). The user's hook runs `python3 tools/check.py`, a program
// of theirs that loads or runs code (or calls) named by files. One CONFINED call (`sh one.sh`, real bubblewrap) writes
// the agent's file; each test asserts the SAFE outcome by hand (the user's `git commit` never runs the agent's code),
// so it FAILED while the hole was open (all 14 on 4d6e2fc4; FIXED in session 29, README.md "Status"). Each program was
// first run by hand under Python 3.11.7 with the agent's file in place: PWNED is written. The sympy and pydantic cases
// need those packages, which a CI machine may lack (the attack would then prove nothing): they are unit cases in
// test/host/executors/confine/python-computed-loads.test.ts. The over-denials assert by hand that an ordinary hook
// program is NOT refused.
import test from 'ava';
import { attack, overDenialTests, PY } from '../adversarial-s19k/python-hook.js';

const EACH_RULE = 'for f in sorted(os.listdir("tools/rules")):\n    p = os.path.join("tools/rules", f)\n';
/** The user's harmless rule, and the agent's (PY writes PWNED). */
const RULES = { 'tools/rules/a.py': 'print("rule a")\n' };
const AGENT_RULE = { 'tools/rules/b.py': PY };
/** Each schema in tools/schemas read into `fields` (a name to a type's name). */
const EACH_SCHEMA = 'for f in sorted(os.listdir("tools/schemas")):\n    fields = json.load(open(os.path.join("tools/schemas", f)))\n';
/** A type expression that writes PWNED when Python evaluates it, and is `int` after. */
const EVIL_TYPE = '__import__("os").system("touch PWNED") or int';

// [finding, title, the user's files besides the hook, the files the agent's call writes]
const CASES: readonly (readonly [number, string, Readonly<Record<string, string>>, Readonly<Record<string, string>>])[] = [
  // 1: lookupInert reads `and`/`or` before a lookup as a condition, but `x = a or getattr(…)` binds the result.
  [
    1,
    'B = None or getattr(os, "_" "_builtins__") (an `or` operand at the end of an assignment is "inert"), then B["ex" "ec"] runs each rule',
    { ...RULES, 'tools/check.py': `import os\nB = None or getattr(os, "_" "_builtins__")\n${EACH_RULE}    B["ex" "ec"](open(p).read())\n` },
    AGENT_RULE,
  ],
  [
    1,
    'def member(name): return CACHE.get(name) or getattr(os, name) (returned, "inert"), then member("_" "_builtins__")["ex" "ec"] runs each rule',
    {
      ...RULES,
      'tools/check.py': `import os\nCACHE = {}\ndef member(name):\n    return CACHE.get(name) or getattr(os, name)\nB = member("_" "_builtins__")\n${EACH_RULE}    B["ex" "ec"](open(p).read())\n`,
    },
    AGENT_RULE,
  ],
  // 2: a lookup by a computed name spelled other than getattr(…)/__getattribute__(…)/vars(…)[…]/__dict__[…].
  [
    2,
    'the dotted-name resolver functools.reduce(getattr, rule["call"].split("."), os) over a folder of JSON rules (getattr as a value is no lookup)',
    {
      'tools/rules/a.json': '{"call": "path.exists", "args": ["src.txt"]}\n',
      'tools/check.py':
        'import functools, json, os\nfor f in sorted(os.listdir("tools/rules")):\n    rule = json.load(open(os.path.join("tools/rules", f)))\n    check = functools.reduce(getattr, rule["call"].split("."), os)\n    print(rule["call"], check(*rule["args"]))\n',
    },
    { 'tools/rules/b.json': '{"call": "system", "args": ["touch PWNED"]}\n' },
  ],
  [
    2,
    'operator.attrgetter("_" "_builtins__")(os)["ex" "ec"] runs each rule',
    { ...RULES, 'tools/check.py': `import operator, os\nB = operator.attrgetter("_" "_builtins__")(os)\n${EACH_RULE}    B["ex" "ec"](open(p).read())\n` },
    AGENT_RULE,
  ],
  [
    2,
    'os.__dict__.get("_" "_builtins__")["ex" "ec"] runs each rule (only __dict__[…] is read, not .get)',
    { ...RULES, 'tools/check.py': `import os\nB = os.__dict__.get("_" "_builtins__")\n${EACH_RULE}    B["ex" "ec"](open(p).read())\n` },
    AGENT_RULE,
  ],
  [
    2,
    'vars(os).get("_" "_builtins__")["ex" "ec"] runs each rule',
    { ...RULES, 'tools/check.py': `import os\nB = vars(os).get("_" "_builtins__")\n${EACH_RULE}    B["ex" "ec"](open(p).read())\n` },
    AGENT_RULE,
  ],
  [
    2,
    'dict(inspect.getmembers(os))["_" "_builtins__"]["ex" "ec"] runs each rule',
    { ...RULES, 'tools/check.py': `import inspect, os\nB = dict(inspect.getmembers(os))["_" "_builtins__"]\n${EACH_RULE}    B["ex" "ec"](open(p).read())\n` },
    AGENT_RULE,
  ],
  // 3: APIs that evaluate a file's text as Python, none listed: sympy's sympify, typing's and inspect's annotation
  // evaluation, pydantic's string types.
  [
    3,
    "typing.get_type_hints of a class whose __annotations__ come from a folder of JSON schemas (each string is eval'd)",
    {
      'tools/schemas/a.json': '{"name": "str", "count": "int"}\n',
      'tools/check.py': `import json, os, typing\n${EACH_SCHEMA}    Schema = type("Schema", (), {"__annotations__": fields})\n    print(f, typing.get_type_hints(Schema))\n`,
    },
    { 'tools/schemas/b.json': JSON.stringify({ name: EVIL_TYPE }) },
  ],
  [
    3,
    'inspect.get_annotations(Schema, eval_str=True) of annotations from a folder of JSON schemas',
    {
      'tools/schemas/a.json': '{"name": "str", "count": "int"}\n',
      'tools/check.py': `import inspect, json, os\n${EACH_SCHEMA}    Schema = type("Schema", (), {"__annotations__": fields})\n    print(f, inspect.get_annotations(Schema, eval_str=True))\n`,
    },
    { 'tools/schemas/b.json': JSON.stringify({ name: EVIL_TYPE }) },
  ],
];

for (const [finding, title, files, writes] of CASES)
  test.serial(`finding ${finding}: hook runs python3 tools/check.py; ${title}: git runs the user's code only`, async (t) => {
    t.false(await attack(t, files, writes), "the user's git commit ran the agent's code");
  });

// Over-denials: ordinary pre-commit programs (os, subprocess, re, json, pathlib, literal names) the checks refuse.
// SAFE (wanted) outcome: no reason on tools/check.py.
const OVER: readonly (readonly [string, string])[] = [
  [
    'argparse options gathered by getattr(args, name) over a literal tuple in a dict comprehension',
    'import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("--fix", action="store_true")\nparser.add_argument("--strict", action="store_true")\nargs = parser.parse_args()\noptions = {name: getattr(args, name) for name in ("fix", "strict")}\nprint(json.dumps(options))\n',
  ],
  [
    "logging's level idiom logging.basicConfig(level=getattr(logging, level))",
    'import logging\nlevel = os.environ.get("CHECK_LOG", "INFO").upper()\nlogging.basicConfig(level=getattr(logging, level))\nlogging.info("%d staged", len(staged))\n',
  ],
  [
    'a leftover-debugger check whose words are the string "breakpoint"',
    'for name in staged:\n    if name.endswith(".py") and Path(name).exists():\n        text = Path(name).read_text()\n        for word in ("breakpoint", "set_trace"):\n            if word + "(" in text:\n                sys.exit(f"{name}: leftover {word}()")\n',
  ],
];

overDenialTests(OVER);
