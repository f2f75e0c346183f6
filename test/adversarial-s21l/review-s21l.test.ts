// Review s21l: Python programs a hook runs, after review s19k's fixes (python-computed-loads.ts, python-code-runners.ts)
// at 7631b03b. The user's hook runs `python3 tools/check.py`, a program of theirs that loads or runs code from files.
// One CONFINED call (`sh one.sh`, real bubblewrap) writes the agent's code (or data) to a file the program then runs.
// Each test asserts the SAFE outcome by hand (the user's `git commit` never runs the agent's code), so it FAILS while
// the hole is open. Each program was first run by hand under Python 3.11.7 with the agent's files in place: PWNED is
// written. The over-denials assert by hand that an ordinary hook program is NOT refused, so they FAIL while the
// over-denial stands.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { unresolvedOf } from '../adversarial-s09f/harness.js';
import { PY, PICKLE, PICKLE_ONE, TEMPLATE, attack } from '../adversarial-s19k/python-hook.js';
import { project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

/** The agent's shared library: its constructor writes PWNED. gcc is a real component .ci/run installs: a missing one fails the test. */
function sharedLibrary(t: Parameters<typeof project>[0]): Buffer {
  const dir = tempDir(t, 'zb-s21l-so-');
  writeFileSync(path.join(dir, 'p.c'), '#include <stdio.h>\n__attribute__((constructor)) static void pwn(void) { FILE *f = fopen("PWNED", "w"); if (f) fclose(f); }\n');
  execFileSync('gcc', ['-shared', '-fPIC', '-Os', '-s', '-o', path.join(dir, 'b.so'), path.join(dir, 'p.c')]);
  return readFileSync(path.join(dir, 'b.so'));
}

/** A zip archive (stored, no compression) holding one member `name` with `data`. */
function zipOf(name: string, data: string): Buffer {
  const body = Buffer.from(data);
  const file = Buffer.from(name);
  const crc = crc32(body);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(body.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(body.length, 20);
  central.writeUInt32LE(body.length, 24);
  central.writeUInt16LE(file.length, 28);
  const centralAt = local.length + file.length + body.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, file, body, central, file, end]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A user's rule package tools/rules/ (a.py) that the program loads each module of. */
const RULES = { 'tools/rules/__init__.py': '', 'tools/rules/a.py': 'pass\n' };
/** A user's folder of rule texts tools/rules/ (a.txt) that the program runs each file of. */
const TEXTS = { 'tools/rules/a.txt': 'pass\n' };
const EACH_MODULE = 'for f in sorted(os.listdir("tools/rules")):\n    if f.endswith(".py") and f != "__init__.py":\n';
const EACH_TEXT = 'for f in sorted(os.listdir("tools/rules")):\n    p = os.path.join("tools/rules", f)\n';
const PICKLES = { 'tools/rules/a.pkl': PICKLE_ONE };

type Writes = Readonly<Record<string, string | Buffer>>;
// [finding, title, the user's files besides the hook, the files the agent's call writes (a function: built per test)]
const CASES: readonly (readonly [number, string, Readonly<Record<string, string>>, (t: Parameters<typeof project>[0]) => Writes])[] = [
  // 1: importers outside the lists that import the module name they are given.
  [
    1,
    'importlib.resources.files("rules." + stem) (the exempted importlib.resources imports its anchor)',
    {
      ...RULES,
      'tools/check.py': `import importlib.resources, os\n${EACH_MODULE}        try:\n            importlib.resources.files("rules." + f[:-3])\n        except TypeError:\n            pass\n`,
    },
    () => ({ 'tools/rules/b.py': PY }),
  ],
  [
    1,
    'from importlib import resources; resources.files("rules." + d).joinpath("README").read_text() over rule packages',
    {
      ...RULES,
      'tools/rules/a/__init__.py': '',
      'tools/rules/a/README': 'a\n',
      'tools/check.py':
        'import os\nfrom importlib import resources\nfor d in sorted(os.listdir("tools/rules")):\n    if os.path.isdir(os.path.join("tools/rules", d)) and d != "__pycache__":\n        print(d, resources.files("rules." + d).joinpath("README").read_text())\n',
    },
    () => ({ 'tools/rules/b/__init__.py': PY, 'tools/rules/b/README': 'b\n' }),
  ],
  [
    1,
    'help("rules." + stem) (site\'s help is pydoc: it imports the module it is named)',
    { ...RULES, 'tools/check.py': `import os\n${EACH_MODULE}        help("rules." + f[:-3])\n` },
    () => ({ 'tools/rules/b.py': PY }),
  ],
  [
    1,
    'pkgutil.walk_packages(["tools/rules"], "rules.") (literal arguments; it imports each package it finds)',
    { ...RULES, 'tools/rules/a/__init__.py': '', 'tools/check.py': 'import pkgutil\nfor info in pkgutil.walk_packages(["tools/rules"], "rules."):\n    print(info.name)\n' },
    () => ({ 'tools/rules/b/__init__.py': PY }),
  ],
  // 2: a code-running module reached as an attribute of another module that imports it.
  [
    2,
    'turtle.TK.Tcl().evalfile(p) (tkinter under turtle)',
    { 'tools/rules/a.tcl': 'set x 1\n', 'tools/check.py': `import os, turtle\ntcl = turtle.TK.Tcl()\n${EACH_TEXT}    tcl.evalfile(p)\n` },
    () => ({ 'tools/rules/b.tcl': 'close [open PWNED w]\n' }),
  ],
  [
    2,
    'multiprocessing.connection._ForkingPickler.loads(open(p, "rb").read()) (ForkingPickler under its `_` alias)',
    { ...PICKLES, 'tools/check.py': `import os\nimport multiprocessing.connection as conn\n${EACH_TEXT}    if f.endswith(".pkl"):\n        conn._ForkingPickler.loads(open(p, "rb").read())\n` },
    () => ({ 'tools/rules/b.pkl': PICKLE }),
  ],
  [
    2,
    'multiprocessing.sharedctypes.ctypes.CDLL(p) (ctypes under multiprocessing.sharedctypes)',
    { 'tools/rules/README': 'rules\n', 'tools/check.py': `import os\nimport multiprocessing.sharedctypes as sc\n${EACH_TEXT}    if f.endswith(".bin"):\n        sc.ctypes.CDLL(p)\n` },
    (t) => ({ 'tools/rules/b.bin': sharedLibrary(t) }),
  ],
  [
    2,
    'numpy.ctypeslib.load_library(f, "tools/rules") (ctypes under numpy)',
    {
      'tools/rules/README': 'rules\n',
      'tools/check.py': 'import os\nimport numpy as np\nfor f in sorted(os.listdir("tools/rules")):\n    if f.endswith(".bin"):\n        np.ctypeslib.load_library(f, "tools/rules")\n',
    },
    (t) => ({ 'tools/rules/b.bin': sharedLibrary(t) }),
  ],
  [
    2,
    'getattr(_frozen_importlib_external, "SourceFile" "Loader")(name, p).load_module() (importlib\'s loaders under their frozen module)',
    { ...TEXTS, 'tools/check.py': `import os\nimport _frozen_importlib_external as fie\nSFL = getattr(fie, "SourceFile" "Loader")\n${EACH_TEXT}    SFL("rule_" + f[:-4], p).load_module()\n` },
    () => ({ 'tools/rules/b.txt': PY }),
  ],
  // 3: a deserializer module imported by a literal name, then its load called on a computed file.
  [
    3,
    '__import__("pickle").loads(open(p, "rb").read())',
    { ...PICKLES, 'tools/check.py': `import os\n${EACH_TEXT}    if f.endswith(".pkl"):\n        __import__("pickle").loads(open(p, "rb").read())\n` },
    () => ({ 'tools/rules/b.pkl': PICKLE }),
  ],
  [
    3,
    'ser = importlib.import_module("pickle"); ser.load(fh)',
    {
      ...PICKLES,
      'tools/check.py': `import importlib, os\nser = importlib.import_module("pickle")\n${EACH_TEXT}    if f.endswith(".pkl"):\n        with open(p, "rb") as fh:\n            ser.load(fh)\n`,
    },
    () => ({ 'tools/rules/b.pkl': PICKLE }),
  ],
  // 4: the literal-file exemption takes a method `.open("rb")` for a file opened by a literal name.
  [
    4,
    'with p.open("rb") as f: pickle.load(f) (pathlib; "rb" is taken for the file\'s name)',
    {
      ...PICKLES,
      'tools/check.py':
        'import os, pickle\nfrom pathlib import Path\nfor name in sorted(os.listdir("tools/rules")):\n    p = Path("tools/rules") / name\n    with p.open("rb") as f:\n        print(p, pickle.load(f))\n',
    },
    () => ({ 'tools/rules/b.pkl': PICKLE }),
  ],
  [
    4,
    'with zipfile.ZipFile(p).open("data.pkl") as fh: pickle.load(fh) (a literal member of a computed archive)',
    {
      'tools/rules/README': 'rules\n',
      'tools/check.py': `import os, pickle, zipfile\n${EACH_TEXT}    if f.endswith(".zip"):\n        with zipfile.ZipFile(p).open("data.pkl") as fh:\n            print(f, pickle.load(fh))\n`,
    },
    () => ({ 'tools/rules/b.zip': zipOf('data.pkl', PICKLE) }),
  ],
  // 5: a template engine that runs Python in its templates.
  [
    5,
    'jinja2.Environment(loader=FileSystemLoader("tools/templates")).get_template(name).render()',
    {
      'tools/templates/a.j2': 'hello\n',
      'tools/check.py':
        'import os, jinja2\nenv = jinja2.Environment(loader=jinja2.FileSystemLoader("tools/templates"))\nfor name in sorted(os.listdir("tools/templates")):\n    print(env.get_template(name).render())\n',
    },
    () => ({ 'tools/templates/b.j2': TEMPLATE }),
  ],
  [
    5,
    'jinja2.Template(open(p).read()).render()',
    {
      'tools/templates/a.j2': 'hello\n',
      'tools/check.py': 'import os, jinja2\nfor name in sorted(os.listdir("tools/templates")):\n    print(jinja2.Template(open(os.path.join("tools/templates", name)).read()).render())\n',
    },
    () => ({ 'tools/templates/b.j2': TEMPLATE }),
  ],
];

for (const [finding, title, files, writes] of CASES)
  test.serial(`finding ${finding}: hook runs python3 tools/check.py; ${title}: git runs the user's code only`, async (t) => {
    t.false(await attack(t, files, writes(t)), "the user's git commit ran the agent's code");
  });

// Over-denials: ordinary pre-commit programs (os, subprocess, re, json, pathlib, literal names) the checks refuse.
// SAFE (wanted) outcome: no reason on tools/check.py.
const HEAD = 'import json, os, re, subprocess, sys\nfrom pathlib import Path\nstaged = subprocess.run(["git", "diff", "--cached", "--name-only"], capture_output=True, text=True).stdout.split()\n';
const OVER: readonly (readonly [string, string])[] = [
  [
    'a tool-installed test by a literal name, importlib.util.find_spec("black")',
    'import importlib.util\nif importlib.util.find_spec("black") is None:\n    sys.exit("pip install black")\nsubprocess.run(["black", "--check", *staged], check=True)\n',
  ],
  ['a syntax check, compile(Path(f).read_text(), f, "exec") (compile runs nothing)', 'for f in staged:\n    if f.endswith(".py"):\n        compile(Path(f).read_text(), f, "exec")\n'],
  [
    "PyYAML's fast safe loader idiom, CSafeLoader or SafeLoader imported as Loader, then Loader=Loader",
    'import yaml\ntry:\n    from yaml import CSafeLoader as Loader\nexcept ImportError:\n    from yaml import SafeLoader as Loader\nconfig = yaml.load(open(".pre-commit-config.yaml"), Loader=Loader)\nprint(config)\n',
  ],
  [
    'pickle.load of a cache opened by a constant name, open(CACHE, "rb")',
    'import pickle\nCACHE = ".git/check-cache.pkl"\nseen = {}\nif os.path.exists(CACHE):\n    with open(CACHE, "rb") as fh:\n        seen = pickle.load(fh)\nprint(seen)\n',
  ],
  ['print(__spec__) (the program names its own spec)', 'print(__spec__)\n'],
];

for (const [title, body] of OVER)
  test(`over-denial: an ordinary hook program, ${title}, is not refused`, (t) => {
    // The user's PATH, as in a real run: python3's own search path is then known (an installed yaml is no unknown).
    const files = { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': HEAD + body };
    const reasons = unresolvedOf(t, files, {}, '.githooks', process.env.PATH).filter((reason) => reason.includes('/tools/check.py line '));
    t.deepEqual(reasons, []);
  });
