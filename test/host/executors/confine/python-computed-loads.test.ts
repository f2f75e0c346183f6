import test from 'ava';
import { pythonComputedLoads } from '../../../../src/host/executors/confine/python-computed-loads.js';

const calls = (source: string) => pythonComputedLoads(source).map(({ line, call }) => `${line}:${call}`);

test('a load by a path, module name or text the program computes is one: runpy, importlib, imp, zipimport, the builtins', (t) => {
  t.deepEqual(calls('import os, runpy\nfor f in os.listdir("rules"):\n    runpy.run_path(os.path.join("rules", f))\n'), ['2:run_path']);
  t.deepEqual(calls('import importlib\nimportlib.import_module("rules." + name)\n'), ['1:import_module']);
  t.deepEqual(calls('m = __import__(name)\n'), ['0:__import__']);
  t.deepEqual(calls('import importlib.util as u\ns = u.spec_from_file_location("m", path)\n'), ['1:spec_from_file_location']);
  t.deepEqual(calls('from importlib.machinery import SourceFileLoader\nSourceFileLoader("m", p).load_module()\n'), ['1:SourceFileLoader']);
  t.deepEqual(calls('import imp\nimp.load_source("m", p)\n'), ['1:load_source']);
  t.deepEqual(calls('import zipimport\nzipimport.zipimporter(p)\n'), ['1:zipimporter']);
  t.deepEqual(calls('runpy.run_module(f"rules.{name}")\n'), ['0:run_module']);
  t.deepEqual(calls('runpy.run_path("./rules/" + name)\n'), ['0:run_path']);
  t.deepEqual(calls('exec(open("tools/" + name).read())\n'), ['0:exec']);
  t.deepEqual(calls('exec(open(p).read())\n'), ['0:exec']);
  t.deepEqual(calls('code = compile(text, "x", "exec")\neval(code)\n'), ['0:compile', '1:eval']);
  t.deepEqual(calls('import builtins\nbuiltins.exec(text)\n'), ['1:exec']);
  // Across lines inside the call's brackets: the line the loader is on.
  t.deepEqual(calls('runpy.run_path(\n    os.path.join(d,\n                 f))\n'), ['0:run_path']);
});

test('a loader taken as a value is computed: an alias, a name handed on, reflection by its name', (t) => {
  t.deepEqual(calls('from runpy import run_path as rp\nrp("x.py")\n'), ['0:run_path']);
  t.deepEqual(calls('import runpy\nrp = runpy.run_path\nrp("x.py")\n'), ['1:run_path']);
  t.deepEqual(calls('import runpy\nf = getattr(runpy, "run_path")\n'), ['1:"run_path"', '1:getattr(', '1:runpy']);
  t.deepEqual(calls('handlers = [exec]\n'), ['0:exec']);
  t.deepEqual(calls('import builtins\nrun = getattr(builtins, "exec")\nrun = vars(builtins)["eval"]\n'), ['1:"exec"', '2:"eval"', '1:getattr(', '2:vars(builtins)[', '1:builtins', '2:builtins']);
});

test('where a loader module is in the file, a lookup by a computed name is a load; __builtins__ is every builtin', (t) => {
  t.deepEqual(calls('import runpy\nf = getattr(runpy, "run_" + "path")\n'), ['1:getattr(', '1:runpy']);
  t.deepEqual(calls('import importlib.util as u\nf = vars(u)[name]\n'), ['1:vars(u)[']);
  t.deepEqual(calls('import builtins\nf = builtins.__dict__[name]\n'), ['1:__dict__[', '1:builtins']);
  t.deepEqual(calls('f = __builtins__.get(name)\n'), ['0:__builtins__']);
  // Literal names are read as above. With no loader module in the file, a computed lookup refuses unless its result
  // goes nowhere that runs it (session 28: `getattr(os, "__built" "ins__")` is the builtins, `getattr(os, "sy" "s")` sys).
  t.deepEqual(calls('import runpy\nv = getattr(config, "name", None)\n'), []);
  t.deepEqual(calls('import os\nv = getattr(os, name)\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\nd = getattr(os, "__built" "ins__")\nd["ex" "ec"](text)\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\ngetattr(os, "sy" "s").modules\n'), ['1:getattr(', '1:sys.modules']);
  for (const inert of ['print(opt, getattr(args, opt))', 'if getattr(args, opt):\n    pass', 'self.__dict__[k] = v', 'ok = getattr(args, opt) is None', 'n = len(vars(args)[k])'])
    t.deepEqual(calls(`${inert}\n`), [], inert);
  for (const used of ['getattr(args, opt)()', 'v = getattr(args, opt)', 'f(getattr(m, n))', 'print(getattr(m, n)())', 'x = vars(m)[k].y'])
    t.deepEqual(calls(`${used}\n`), ['0:' + (used.includes('vars') ? 'vars(m)[' : 'getattr(')], used);
  // sys as a value: its module table goes by a name zotbox does not follow.
  t.deepEqual(calls('import os\nS = os.sys\nt = vars(sys)\nu = sys.__dict__\n'), ['2:vars(sys)', '3:__dict__', '1:sys', '2:sys', '3:sys']);
  t.deepEqual(calls('from os import sys as S\nt = S.modules\n'), ['1:sys.modules']);
});

test('a deserializer that runs code in its data (pickle, marshal, shelve, dill) loads a computed path: it is a load', (t) => {
  t.deepEqual(calls('import os, pickle\nfor f in os.listdir("cache"):\n    pickle.load(open(os.path.join("cache", f), "rb"))\n'), ['2:pickle']);
  t.deepEqual(calls('import pickle as pk\npk.loads(data)\n'), ['0:pickle']);
  t.deepEqual(calls('from marshal import loads\n'), ['0:marshal']);
  t.deepEqual(calls('import yaml\nyaml.unsafe_load(text)\n'), ['1:unsafe_load']);
  t.deepEqual(calls('import pkgutil\npkgutil.resolve_name(name)\n'), ['1:resolve_name']);
  t.deepEqual(calls('import pickle\nwith open("cache.pkl", "rb") as f:\n    pass\nv = pickle.load(open("cache.pkl", "rb"))\n'), []);
});

test('what zotbox reads is none: literal arguments, a plain import, the guard, other objects` compile and eval, comments', (t) => {
  t.deepEqual(
    calls(
      [
        'import runpy, re, ast',
        'from importlib import import_module',
        'from runpy import run_path',
        'import_module("tools.lint")',
        'import_module(".lint", __package__)',
        'runpy.run_path("tools/lint.py", run_name="__main__")',
        'spec = importlib.util.spec_from_file_location("lint", "tools/lint.py")',
        'PATTERN = re.compile(r"\\d+")',
        'value = ast.literal_eval(text)',
        'frame = pd.eval(expression)',
        'exec("import os")',
        'exec(open("tools/d.py").read())',
        '# runpy.run_path(path) in a comment',
        'print("eval failed: " + reason)',
        'def load_module(self, name):',
        'if __name__ == "__main__":',
        '    run_path("x.py")',
      ].join('\n'),
    ),
    [],
  );
});

test('review s17j: modules that run text or load by a name they are given refuse where imported; the import system`s hooks where named', (t) => {
  t.deepEqual(calls('import os, timeit\n'), ['0:import timeit']);
  t.deepEqual(calls('try: import pdb\nexcept ImportError: pass\n'), ['0:import pdb']);
  t.deepEqual(calls('if debug: from pydoc import locate\n'), ['0:import pydoc']);
  t.deepEqual(calls('from pydoc import locate\n'), ['0:import pydoc']);
  t.deepEqual(calls('from logging import config\n'), ['0:import logging.config']);
  t.deepEqual(calls('import logging.config\n'), ['0:import logging.config']);
  t.deepEqual(calls('import ctypes\n'), ['0:import ctypes']);
  t.deepEqual(calls('m = __import__("code")\n'), ['0:__import__']);
  t.deepEqual(calls('from importlib.metadata import entry_points\n'), ['0:entry_points']);
  t.deepEqual(calls('import importlib.util\ns = importlib.util.find_spec("rules." + name)\n'), ['1:find_spec']);
  t.deepEqual(calls('import sys\nsys.meta_path.insert(0, Finder())\n'), ['1:meta_path']);
  t.deepEqual(calls('import os\nos.environ["PYTHONBREAKPOINT"] = hook\nbreakpoint()\n'), ['2:breakpoint', '1:"PYTHONBREAKPOINT"']);
  // Modules named like them as words, not imported: nothing.
  t.deepEqual(calls('code = 1\nprofile = {"trace": True}\nimport logging\nimport importlib.metadata\nprint(importlib.metadata.version("pip"))\n'), []);
});

test('review s17j: a loader module used as a value (an alias, vars(), __dict__, an argument) hands its loaders on', (t) => {
  t.deepEqual(calls('import builtins\nB = builtins\n'), ['1:builtins']);
  t.deepEqual(calls('import operator, builtins\nrun = operator.attrgetter("exec")(builtins)\n'), ['1:builtins', '1:attrgetter']);
  t.deepEqual(calls('import runpy\nrun = vars(runpy).get(name)\n'), ['1:vars(runpy)', '1:runpy']);
  t.deepEqual(calls('import runpy\nrun = runpy.__dict__.get(name)\n'), ['1:__dict__', '1:runpy']);
  t.deepEqual(calls('import runpy as r\n'), ['0:runpy']);
});

test('review s17j: Python`s identifiers are read NFKC-normalized, and an f-string`s fields as code', (t) => {
  t.deepEqual(calls('\uff45\uff58\uff45\uff43(text)\n'), ['0:exec']);
  // A normalized identifier of another length keeps the lines after it (`ﬁ` is `fi`).
  t.deepEqual(calls('\ufb01\ufb01\ufb01\ufb01\ufb01 = 1\nrun = exec\n'), ['1:exec']);
  t.deepEqual(calls('import runpy\nrunpy.\uff52un_path(p)\n'), ['1:run_path']);
  t.deepEqual(calls('import runpy\nf"{runpy.run_path(p)}"\n'), ['1:run_path']);
  t.deepEqual(calls('import runpy\nrf"{{runpy.run_path(p)}}"\n'), []);
});

test('review s17j over-denials: a shadowed compile, a config key or step named eval, pickle.dump, a file opened by a literal', (t) => {
  t.deepEqual(calls('from re import compile\nDEBUG = compile(r"x")\n'), []);
  t.deepEqual(calls('def compile(paths):\n    return paths\nprint(compile(staged))\n'), []);
  t.deepEqual(calls('if config["compile"]:\n    pass\nSTEPS = ["eval", "lint"]\n'), []);
  t.deepEqual(calls('import pickle\nwith open(".git/c.pkl", "wb") as out:\n    pickle.dump(seen, out)\n'), []);
  t.deepEqual(calls('import pickle\nwith open(".git/c.pkl", "rb") as cache:\n    seen = pickle.load(cache)\n'), []);
  // A method of a class named compile shadows nothing at the top; a name opened twice is no literal file.
  t.deepEqual(calls('class A:\n    def compile(self):\n        pass\ncode = compile(text)\n'), ['3:compile']);
  // A shadowing undone (del, or the builtins module named) leaves the builtin.
  t.deepEqual(calls('from re import compile\ndel compile\ncode = compile(text)\n'), ['1:compile', '2:compile']);
  t.deepEqual(calls('from re import compile\nfrom builtins import compile\ncode = compile(text)\n'), ['2:compile']);
  t.deepEqual(calls('import pickle\ncache = open("a.pkl", "rb")\ncache = open(name, "rb")\npickle.load(cache)\n'), ['3:pickle']);
});

test('review s19k: more modules and hooks (C twins, pytest, six, tkinter, __loader__, EntryPoint), unsafe YAML, pickled numpy', (t) => {
  t.deepEqual(calls('import _ctypes\n'), ['0:import _ctypes']);
  t.deepEqual(calls('import pytest\n'), ['0:import pytest']);
  t.deepEqual(calls('from six import exec_\n'), ['0:import six', '0:exec_']);
  t.deepEqual(calls('import tkinter\n'), ['0:import tkinter']);
  t.deepEqual(calls('m = type(__loader__)(n, p)\n'), ['0:__loader__']);
  t.deepEqual(calls('import yaml\nv = yaml.load(text, Loader=yaml.Loader)\n'), ['1:yaml.Loader', '1:Loader=']);
  t.deepEqual(calls('import yaml\nv = yaml.load(text, Loader=yaml.SafeLoader)\n'), []);
  t.deepEqual(calls('import numpy as np\nv = np.load(p, allow_pickle=True)\n'), ['1:allow_pickle']);
});

test('review s19k: an interpreter given no program, or -, runs its standard input', (t) => {
  t.deepEqual(calls('import subprocess, sys\nsubprocess.run([sys.executable], stdin=open(p))\n'), ['1:[sys.executable]']);
  t.deepEqual(calls('import subprocess\nsubprocess.run(["python3", "-"], input=text)\n'), ['1:["python3", "-"]']);
  t.deepEqual(calls('import subprocess\nsubprocess.run(["python3", "tools/x.py"])\n'), []);
});

test('review s19k: identifiers are normalized, not quotes; strings are text to the import and hook checks', (t) => {
  // A fullwidth quote is a character of the string, not its end: the call after the string is read.
  t.deepEqual(calls('import runpy\nx = "\uff02"; runpy.run_path(p); y = "\uff02"\n'), ['1:run_path']);
  t.deepEqual(calls('"""Refuse staged files with lines such as\nimport pdb\n"""\n'), []);
  t.deepEqual(calls('import sys\nif "breakpoint()" in text:\n    sys.exit(f"{name}: breakpoint() left in")\n'), []);
  t.deepEqual(calls('import sys\nhook = getattr(sys, "meta_path")\n'), ['1:"meta_path"', '1:sys']);
  t.deepEqual(calls('print(f"{breakpoint()}")\n'), ['0:breakpoint']);
  t.deepEqual(calls('import argparse\nfrom importlib import metadata\nprint(getattr(args, opt))\n'), []);
});

test('review s19k: a name bound to a literal file is that file only where every mention is the binding or a read', (t) => {
  t.deepEqual(calls('import pickle\ncache = Path(".git/c.pkl")\nseen = pickle.loads(cache.read_bytes()) if cache.exists() else {}\n'), []);
  t.deepEqual(calls('import pickle\nwith open("c.pkl", "rb") as f:\n    seen = pickle.load(f)\n'), []);
  // Bound to two files, each named by literals: either is protected as the program's words.
  t.deepEqual(calls('import pickle\nf = open("a.pkl", "rb")\nf = open("b.pkl", "rb")\nseen = pickle.load(f)\n'), []);
  for (const rebinding of ['f: object = open(p, "rb")', '(f := open(p, "rb"))', 'g = lambda f: f', 'for name, f in pairs: pass', 'globals()["f"] = open(p, "rb")'])
    t.deepEqual(
      calls(`import pickle\nwith open("c.pkl", "rb") as f:\n    pass\n${rebinding}\nseen = pickle.load(f)\n`),
      rebinding.startsWith('globals()') ? ['4:pickle', '3:globals()'] : ['4:pickle'],
      rebinding,
    );
});

test('a module reached without its name: the import system`s private modules, the module table, namespaces, reflection', (t) => {
  // Each ran the agent's file under Python 3.11.7 by hand (session 28).
  t.deepEqual(calls('import sys\nm = sys.modules["_frozen_importlib_external"]\nL = getattr(m, "Source" "File" "Loader")\n'), ['2:getattr(', '1:_frozen_importlib_external', '1:sys.modules']);
  t.deepEqual(calls('import _imp\n_imp.create_dynamic(spec)\n'), ['0:_imp', '1:_imp']);
  t.deepEqual(calls('from importlib import _bootstrap_external as b\n'), ['0:_bootstrap_external']);
  t.deepEqual(calls('import sys\nm = sys.modules["run" "py"]\n'), ['1:sys.modules']);
  t.deepEqual(calls('import sys as s\nfor m in s.modules.values():\n    pass\n'), ['1:sys.modules']);
  t.deepEqual(calls('from sys import modules\nm = modules.get(name)\n'), ['1:sys.modules']);
  t.deepEqual(calls('from sys import modules as table\n'), ['0:sys.modules']);
  t.deepEqual(calls('b = globals()["__built" "ins__"]\n'), ['0:globals()']);
  t.deepEqual(calls('b = vars().get(name)\n'), ['0:vars()']);
  t.deepEqual(calls('run = getattr(print.__self__, "ex" "ec")\n'), ['0:getattr(', '0:__self__']);
  t.deepEqual(calls('g = check.__globals__\n'), ['0:__globals__']);
  t.deepEqual(calls('for c in object.__subclasses__():\n    pass\n'), ['0:__subclasses__']);
  t.deepEqual(calls('import sys\nb = sys._getframe().f_builtins\n'), ['1:_getframe', '1:f_builtins']);
  t.deepEqual(calls('import gc\nobjs = gc.get_objects()\n'), ['1:gc.get_objects']);
  t.deepEqual(calls('import types\nf = types.FunctionType(types.CodeType(*parts), {})\n'), ['1:CodeType']);
  // A loader base class runs whatever source its subclass hands back.
  t.deepEqual(calls('import importlib.abc\nclass L(importlib.abc.SourceLoader):\n    pass\n'), ['1:SourceLoader']);
  // The table read as zotbox can: a membership test, a literal module that is no loader.
  t.deepEqual(calls('import sys\nif "yaml" in sys.modules:\n    pass\nif "x" not in sys.modules:\n    pass\n'), []);
  t.deepEqual(calls('import sys\nser = sys.modules["pickle"]\n'), ['1:sys.modules']);
  t.deepEqual(calls('import sys\nmain = sys.modules["__main__"]\n'), ['1:sys.modules']);
  t.deepEqual(calls('count = globals()["COUNT"]\n'), ['0:globals()']);
  t.deepEqual(calls('print("{count} files".format(**locals()))\n'), []);
  t.deepEqual(calls('d = dict(**globals())\n'), ['0:globals()']);
  // A class's bases, past a sandbox's subclass (review s25n row 3); .modules of another object; the table by its name.
  t.deepEqual(calls('from jinja2.sandbox import SandboxedEnvironment\nE = SandboxedEnvironment.__base__\nM = SandboxedEnvironment.__mro__[1]\n'), ['1:__base__', '2:__mro__']);
  t.deepEqual(calls('import argparse\nargs = p.parse_args()\nfor m in args.modules:\n    pass\n'), []);
  t.deepEqual(calls('import sys as s\nt = s.modules\n'), ['1:sys.modules']);
  t.deepEqual(calls('import importlib\nm = importlib.import_module("sys")\n'), ['1:import_module']);
  t.deepEqual(calls('import sys\nt = getattr(sys, "modules")\n'), ['1:getattr(', '1:sys.modules', '1:sys']);
  t.deepEqual(calls('import importlib.metadata as md\nprint(md.version("pip"))\n'), []);
});

test('review s21l: importers by a name they are given, code-running modules under other modules, literal imports of a deserializer', (t) => {
  t.deepEqual(calls('from importlib import resources\n'), ['0:import importlib.resources']);
  t.deepEqual(calls('import importlib\nimportlib.resources.files("rules." + stem)\n'), ['1:importlib.resources']);
  t.deepEqual(calls('help("rules." + stem)\n'), ['0:help']);
  t.deepEqual(calls('import pkgutil\nfor m in pkgutil.walk_packages(["tools/rules"], "rules."):\n    pass\n'), ['1:walk_packages']);
  t.deepEqual(calls('import turtle\n'), ['0:import turtle']);
  t.deepEqual(calls('import multiprocessing.sharedctypes as s\ns.ctypes.CDLL(p)\n'), ['1:ctypes']);
  t.deepEqual(calls('from multiprocessing.sharedctypes import ctypes as c\n'), ['0:ctypes']);
  t.deepEqual(calls('import numpy.ctypeslib\n'), ['0:import numpy.ctypeslib']);
  t.deepEqual(calls('import numpy as np\nnp.ctypeslib.load_library(f, "tools/rules")\n'), ['1:ctypeslib']);
  t.deepEqual(calls('import multiprocessing.connection as c\nc._ForkingPickler.loads(data)\n'), ['1:_ForkingPickler']);
  t.deepEqual(calls('ser = __import__("pickle")\n'), ['0:__import__']);
  t.deepEqual(calls('import importlib\nser = importlib.import_module("pickle")\n'), ['1:import_module']);
  t.deepEqual(calls('import jinja2\n'), ['0:import jinja2']);
  t.deepEqual(calls('from jinja2 import Environment\n'), ['0:import jinja2']);
  t.deepEqual(calls('from jinja2.sandbox import SandboxedEnvironment\nenv = SandboxedEnvironment()\n'), []);
});

test('review s21l: a method`s open names no file; a constant file name is the literal it is bound to, where nothing binds it again', (t) => {
  t.deepEqual(calls('import pickle\nwith p.open("rb") as f:\n    v = pickle.load(f)\n'), ['2:pickle']);
  t.deepEqual(calls('import pickle, zipfile\nwith zipfile.ZipFile(p).open("d.pkl") as fh:\n    v = pickle.load(fh)\n'), ['2:pickle']);
  const cache = 'import os, pickle\nCACHE = ".git/c.pkl"\nif os.path.exists(CACHE):\n    with open(CACHE, "rb") as fh:\n        seen = pickle.load(fh)\n';
  t.deepEqual(calls(cache), []);
  // Bound again (anywhere, any form), or used other than as a call's first argument: a name, not the literal.
  t.deepEqual(calls(`${cache}CACHE = sys.argv[1]\n`), ['4:pickle']);
  t.deepEqual(calls(`${cache}def f():\n    global CACHE\n`), ['4:pickle']);
  t.deepEqual(calls(`${cache}for CACHE in staged:\n    pass\n`), ['4:pickle']);
  t.deepEqual(calls(`${cache}setattr(mod, "CACHE", p)\n`), ['4:pickle']);
  t.deepEqual(calls(`${cache}paths = [CACHE]\n`), ['4:pickle']);
});

test('review s21l over-denials: find_spec of one name, a syntax check by compile, safe YAML loaders under an alias, a printed __spec__', (t) => {
  t.deepEqual(calls('import importlib.util\nif importlib.util.find_spec("black") is None:\n    pass\n'), []);
  t.deepEqual(calls('import importlib.util\nimportlib.util.find_spec("rules." + stem)\n'), ['1:find_spec']);
  t.deepEqual(calls('import importlib.util\nimportlib.util.find_spec("rules.a")\n'), ['1:find_spec']);
  t.deepEqual(calls('from importlib.machinery import PathFinder\ns = PathFinder.find_spec("x", ["tools/rules"])\n'), ['1:find_spec']);
  t.deepEqual(calls('for f in staged:\n    compile(Path(f).read_text(), f, "exec")\n'), []);
  t.deepEqual(calls('for f in staged:\n    code = compile(Path(f).read_text(), f, "exec")\n'), ['1:compile']);
  // Its result kept across lines (a list's item, an argument) is kept: only a whole statement drops it.
  t.deepEqual(calls('codes = [\n    compile(text, "x", "exec"),\n]\nrun = types.FunctionType(codes[0], {})\n'), ['1:compile']);
  // A statement that hands the result on past its `)` (an operator whose other side runs it: `code @ runner`).
  t.deepEqual(calls('compile(text, "x", "exec") @ runner\n'), ['0:compile']);
  const yaml = 'import yaml\ntry:\n    from yaml import CSafeLoader as Loader\nexcept ImportError:\n    from yaml import SafeLoader as Loader\n';
  t.deepEqual(calls(`${yaml}config = yaml.load(open("c.yaml"), Loader=Loader)\n`), []);
  t.deepEqual(calls(`${yaml}Loader = yaml.UnsafeLoader\nconfig = yaml.load(text, Loader=Loader)\n`), ['5:UnsafeLoader', '5:yaml.UnsafeLoader', '5:Loader =', '6:Loader=']);
  t.deepEqual(calls(`${yaml}from yaml import FullLoader as Loader\nconfig = yaml.load(text, Loader=Loader)\n`), ['5:FullLoader', '6:Loader=', '5:from yaml import FullLoader as Loader']);
  // The loader by position, an unsafe loader imported under the safe alias's name, a star import (review s25n row 2).
  t.deepEqual(calls('import yaml\nfrom yaml import Loader\nconfig = yaml.load(text, Loader)\n'), ['2:load(text, Loader', '1:from yaml import Loader']);
  t.deepEqual(calls('import yaml\nconfig = yaml.load(text, yaml.SafeLoader)\nsafe = yaml.load(text, Loader=yaml.CSafeLoader)\n'), []);
  t.deepEqual(calls(`${yaml}from yaml.loader import *\nconfig = yaml.load(text, Loader=Loader)\n`), ['6:Loader=', '5:from yaml.loader import *']);
  // A tuple of tool names is no process call (review s25n over-denials 1-2); an interpreter alone in a call's arguments is.
  t.deepEqual(calls('import shutil\nfor tool in ("node", "npm"):\n    shutil.which(tool)\nshutil.which("bash")\n'), []);
  t.deepEqual(calls('import os, sys\nos.execv(sys.executable, [sys.executable])\n'), ['1:(sys.executable,', '1:[sys.executable]']);
  t.deepEqual(calls('print(__spec__)\nif __spec__ is None:\n    pass\n'), []);
  t.deepEqual(calls('m = type(__spec__.loader)(n, p)\n'), ['0:__spec__']);
});

test('review s19k over-denial 5: in a with-block`s body, the name it binds to a literal file is that file, if nothing else can bind it meanwhile', (t) => {
  const body = 'import pickle\nwith open(".git/c.pkl", "rb") as f:\n    seen = pickle.load(f)\n';
  t.deepEqual(calls(`${body}for f in staged:\n    print(f, f in seen)\n`), []);
  t.deepEqual(calls(`${body}for f in staged:\n    print(f"{f}")\n`), []);
  // A body that defers its read (a function, a lambda, a generator read later), or a binding from outside the body.
  t.deepEqual(calls('import pickle\nwith open("c.pkl", "rb") as f:\n    def g(): return pickle.load(f)\nf = open(p, "rb")\ng()\n'), ['2:pickle']);
  t.deepEqual(calls('import pickle\nwith open("c.pkl", "rb") as f:\n    g = (pickle.load(f) for _ in [0])\nf = open(p, "rb")\n'), ['2:pickle']);
  t.deepEqual(calls('import pickle\nwith open("c.pkl", "rb") as f:\n    h()\n    v = pickle.load(f)\nfor f in s:\n    pass\ndef h():\n    global f\n    f = open(p, "rb")\n'), ['3:pickle']);
  t.deepEqual(calls('import pickle\nwith open("c.pkl", "rb") as f:\n    h()\n    v = pickle.load(f)\nfor f in s:\n    pass\ndef h():\n    globals()["f"] = open(p, "rb")\n'), [
    '3:pickle',
    '7:globals()',
  ]);
  t.deepEqual(calls('import pickle, __main__\nwith open("c.pkl", "rb") as f:\n    h()\n    v = pickle.load(f)\nfor f in s:\n    pass\n'), ['3:pickle']);
  // Bound again inside the body.
  t.deepEqual(calls('import pickle\nwith open("c.pkl", "rb") as f:\n    f = open(p, "rb")\n    v = pickle.load(f)\n'), ['3:pickle']);
});

test('review s25n: a def`s parameter or a case pattern named as a constant binds it: no literal', (t) => {
  t.deepEqual(calls('import pickle\nCACHE = "c.pkl"\ndef load(CACHE):\n    with open(CACHE, "rb") as fh:\n        return pickle.load(fh)\n'), ['4:pickle']);
  t.deepEqual(calls('import pickle\nCACHE = "c.pkl"\nmatch p:\n    case str(CACHE):\n        v = pickle.load(open(CACHE, "rb"))\n'), ['4:pickle']);
  t.deepEqual(calls('import pickle\nCACHE = "c.pkl"\nf = lambda CACHE: pickle.load(open(CACHE, "rb"))\n'), ['2:pickle']);
});

test('review s25n over-denial 5: a loop`s name over literal module names is one name to find_spec, where nothing else binds it', (t) => {
  const loop = 'import importlib.util, sys\nfor mod in ("black", "isort"):\n';
  t.deepEqual(calls(`${loop}    if importlib.util.find_spec(mod) is None:\n        sys.exit(f"pip install {mod}")\n`), []);
  t.deepEqual(calls('import importlib.util\nfor mod in ["black"]:\n    importlib.util.find_spec(mod)\n'), []);
  // A dotted literal imports its parent package; a name rebound in the body, by a walrus, a second loop or a string.
  t.deepEqual(calls('import importlib.util\nfor mod in ("rules.a", "b"):\n    importlib.util.find_spec(mod)\n'), ['2:find_spec']);
  t.deepEqual(calls('import importlib.util\nfor mod in ("b", "rules.a"):\n    importlib.util.find_spec(mod)\n'), ['2:find_spec']);
  t.deepEqual(calls(`${loop}    mod = "rules." + mod\n    importlib.util.find_spec(mod)\n`), ['3:find_spec']);
  t.deepEqual(calls(`${loop}    print(f"{(mod := 'rules.a')}")\n    importlib.util.find_spec(mod)\n`), ['3:find_spec']);
  t.deepEqual(calls(`${loop}    seen = {mod := "rules.a"}\n    importlib.util.find_spec(mod)\n`), ['3:find_spec']);
  t.deepEqual(calls(`${loop}    importlib.util.find_spec(mod)\nfor mod in staged:\n    importlib.util.find_spec(mod)\n`), ['2:find_spec', '4:find_spec']);
  t.deepEqual(calls(`${loop}    exec("mod = 'rules.a'")\n    importlib.util.find_spec(mod)\n`), ['3:find_spec']);
  t.deepEqual(calls(`${loop}    setattr(sys.modules[__name__], "mod", "rules.a")\n    importlib.util.find_spec(mod)\n`).includes('3:find_spec'), true);
  t.deepEqual(calls('import importlib.util\nfor mod in ("black", "isort"):\n    pass\ndef find_spec(mod):\n    return importlib.util.find_spec(mod)\n'), ['4:find_spec']);
  // Another loader given the name still refuses.
  t.deepEqual(calls('import importlib\nfor mod in ("black", "isort"):\n    importlib.import_module(mod)\n'), ['2:import_module']);
});

test('review s29p row 1: a lookup is a condition only as a statement`s whole condition, never an and/or`s value', (t) => {
  t.deepEqual(calls('import os\nB = None or getattr(os, "_" "_builtins__")\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\ndef member(name):\n    return CACHE.get(name) or getattr(os, name)\n'), ['2:getattr(']);
  t.deepEqual(calls('import os\nif f(x or getattr(os, k) or y):\n    pass\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\nif (B := None or getattr(os, k)):\n    pass\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\nx = f("print(", getattr(os, k))\n'), ['1:getattr(']);
  // A print, str or len the file binds is its own function.
  t.deepEqual(calls('import os\ndef print(f):\n    f(text)\nprint(getattr(os, k))\n'), ['3:getattr(']);
  t.deepEqual(calls('import os\nfrom x import runner as print\nprint(getattr(os, k))\n'), ['2:getattr(']);
  t.deepEqual(calls('import os\nobj.print(getattr(os, k))\n'), ['1:getattr(']);
  // Still inert: the whole condition, printed, compared, stored into.
  t.deepEqual(calls('import os\nif x and getattr(args, k):\n    pass\nwhile not getattr(args, k) or y:\n    pass\nassert getattr(args, k)\n'), []);
  t.deepEqual(calls('print(k, getattr(args, k))\nv = getattr(args, k) == 3\nself.__dict__[k] = v\n'), []);
});

test('review s29p row 2: every spelling of a lookup by a computed name: getattr as a value, a namespace as a mapping, attrgetter, members', (t) => {
  t.deepEqual(calls('import functools, os\ncheck = functools.reduce(getattr, rule["call"].split("."), os)\n'), ['1:getattr']);
  t.deepEqual(calls('import os\nf = object.__getattribute__\n'), ['1:__getattribute__']);
  t.deepEqual(calls('import os\nB = os.__dict__.get(k)\n'), ['1:__dict__']);
  t.deepEqual(calls('import os\nB = vars(os).get(k)\n'), ['1:vars(os)']);
  t.deepEqual(calls('import os\nfor k, v in vars(os).items():\n    v(text)\n'), ['1:vars(os)']);
  t.deepEqual(calls('import os\nd = dict(vars(os))\n'), ['1:vars(os)']);
  t.deepEqual(calls('import operator, os\nB = operator.attrgetter(k)(os)\n'), ['1:attrgetter']);
  t.deepEqual(calls('import inspect, os\nB = dict(inspect.getmembers(os))[k]\n'), ['1:getmembers']);
  t.deepEqual(calls('import string, os\nB = string.Formatter().get_field(k, [os], {})\n'), ['1:get_field']);
  // A namespace stored into, updated, its keys, printed, or spread into a string's format hands nothing on.
  t.deepEqual(calls('self.__dict__.update(kw)\nnames = vars(args).keys()\nprint(vars(args))\nmsg = "{fix}".format(**vars(args))\nclass A:\n    def __getattribute__(self, name):\n        pass\n'), []);
});

test('review s29p row 3: what evaluates a string as Python: sympy, numexpr, annotations evaluated, pydantic models from names', (t) => {
  t.deepEqual(calls('import os, sympy\nv = sympy.sympify(text)\n'), ['0:import sympy', '1:sympify']);
  t.deepEqual(calls('import typing\nh = typing.get_type_hints(Schema)\n'), ['1:get_type_hints']);
  t.deepEqual(calls('import inspect\nh = inspect.get_annotations(Schema, eval_str=True)\n'), ['1:get_annotations', '1:eval_str']);
  t.deepEqual(calls('import typing\nt = typing._eval_type(r, g, l)\n'), ['1:_eval_type']);
  t.deepEqual(calls('import pydantic\nM = pydantic.create_model("M", **fields)\n'), ['1:create_model']);
  t.deepEqual(calls('from pydantic import TypeAdapter\nA = TypeAdapter(kind)\n'), ['0:TypeAdapter', '1:TypeAdapter']);
  t.deepEqual(calls('import numexpr\nv = numexpr.evaluate(text)\n'), ['0:import numexpr']);
});

test('review s29p over-denials: getattr over a literal loop, logging`s level idiom, a hook`s name as a word the program looks for', (t) => {
  t.deepEqual(calls('options = {name: getattr(args, name) for name in ("fix", "strict")}\n'), []);
  t.deepEqual(calls('for name in ("fix", "strict"):\n    v = getattr(args, name)\n'), []);
  t.deepEqual(calls('import logging, os\nlevel = os.environ.get("L", "INFO").upper()\nlogging.basicConfig(level=getattr(logging, level))\n'), []);
  t.deepEqual(calls('import sys\nfor word in ("breakpoint", "set_trace"):\n    if word + "(" in text:\n        sys.exit(f"leftover {word}()")\n'), []);
  // A dunder or concatenated literal, a second for or a lambda in the comprehension, a logging that is not the module,
  // a loop name handed on or bound by a second loop: as before.
  t.deepEqual(calls('o = {name: getattr(os, name) for name in ("_" "_builtins__",)}\n'), ['0:getattr(']);
  t.deepEqual(calls('o = [getattr(os, name) for name in ("a", "b") for name in x]\n'), ['0:getattr(']);
  t.deepEqual(calls('o = [(lambda name: getattr(os, name))(k) for name in ("a", "b")]\n'), ['0:getattr(']);
  t.deepEqual(calls('import logging\nlogging = obj\nlogging.basicConfig(level=getattr(logging, level))\n'), ['2:getattr(']);
  t.deepEqual(calls('import sys\nfor word in ("breakpoint",):\n    setattr(hooks, word + "hook", h)\n'), ['1:"breakpoint"']);
  t.deepEqual(calls('import sys\nfor word in ("breakpoint",):\n    pass\nfor word in names:\n    run(word)\n'), ['1:"breakpoint"']);
  t.deepEqual(calls('for name in ("fix",):\n    pass\nfor name in staged:\n    v = getattr(args, name)\n'), ['3:getattr(']);
});

test('review s31q: a one-line body is no condition; sys, the builtins and runners reached by an attribute or a literal lookup; more evaluators', (t) => {
  t.deepEqual(calls('import os\nif True: B = None or getattr(os, "_" "_builtins__")\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\ndef m(name):\n    if name: return None or getattr(os, name)\n'), ['2:getattr(']);
  t.deepEqual(calls('import inspect\nB = inspect.builtins\n'), ['1:builtins']);
  t.deepEqual(calls('import inspect\ninspect.builtins.eval(text)\n'), ['1:eval', '1:builtins']);
  t.deepEqual(calls('import os\nS = getattr(os, "sys")\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\ngetattr(os, "system")(open(p).read())\n'), ['1:getattr(']);
  t.deepEqual(calls('import subprocess\ngetattr(subprocess, "run")(text, shell=True)\n'), ['1:getattr(']);
  t.deepEqual(calls('import os\nfor name in ("system",):\n    getattr(os, name)(text)\n'), ['2:getattr(']);
  t.deepEqual(calls('import os\nf = [getattr(os, name) for name in ("popen", "x")]\n'), ['1:getattr(']);
  t.deepEqual(calls('import inspect\ns = inspect.signature(f, eval_str=True)\n'), ['1:eval_str']);
  t.deepEqual(calls('import functools\n@functools.singledispatch\ndef f(x):\n    pass\n'), ['1:singledispatch']);
  t.deepEqual(calls('S = type("S", (Base,), {"__annotations__": fields})\n'), ['0:"__annotations__"']);
  // Still read as the literals they are: a data attribute, printed or tested.
  t.deepEqual(calls('v = getattr(args, "fix", False)\nif getattr(args, "run", False):\n    pass\nprint(getattr(os, "system"))\n'), []);
});

test('review s31q over-denial 3: a logger`s setLevel takes a logging level, where the file defines no setLevel', (t) => {
  t.deepEqual(calls('import logging, os\nlog = logging.getLogger("check")\nlog.setLevel(getattr(logging, os.environ.get("L", "INFO").upper()))\n'), []);
  t.deepEqual(calls('import logging\nclass X:\n    def setLevel(self, f):\n        f(text)\nX().setLevel(getattr(logging, name))\n'), ['4:getattr(']);
});

test('review s31q over-denials 1-2: a namespace dumped as JSON, or looped over with its values only read', (t) => {
  t.deepEqual(calls('import json\nprint(json.dumps(vars(args)))\nfor key, value in vars(args).items():\n    print(key, value)\n'), []);
  t.deepEqual(calls('for value in vars(args).values():\n    if value:\n        pass\n'), []);
  // A value handed on, called, bound elsewhere; a JSON encoder of the program's; json rebound; a loader module in the file.
  t.deepEqual(calls('for key, value in vars(os).items():\n    run(value)\n'), ['0:vars(os)']);
  t.deepEqual(calls('for key, value in vars(os).items():\n    print(value(text))\n'), ['0:vars(os)']);
  t.deepEqual(calls('for key, value in vars(os).items():\n    pass\nf = value\n'), ['0:vars(os)']);
  t.deepEqual(calls('for key in vars(os).items():\n    print(key)\n'), ['0:vars(os)']);
  t.deepEqual(calls('import json\ns = json.dumps(vars(os), default=lambda o: o(text))\n'), ['1:vars(os)']);
  t.deepEqual(calls('import json\njson = obj\ns = json.dumps(vars(os))\n'), ['2:vars(os)']);
  t.deepEqual(calls('import json, runpy\ns = json.dumps(vars(args))\n'), ['1:vars(args)']);
  t.deepEqual(calls('import runpy\nfor key, value in vars(args).items():\n    print(key, value)\n'), ['1:vars(args)']);
});

test('review s31q over-denial 4: a top-level constant of words looped over once, its words only compared, is words too', (t) => {
  const loop = 'for word in DEBUG_CALLS:\n    if word + "(" in text:\n        sys.exit(f"leftover {word}()")\n';
  t.deepEqual(calls(`import sys\nDEBUG_CALLS = ("breakpoint", "set_trace")\n${loop}`), []);
  t.deepEqual(calls('import os\nFLAGS = ("fix", "strict")\nfor name in FLAGS:\n    print(getattr(args, name))\n'), []);
  // The constant used again, bound again or named by a string; the word handed on; a runner among getattr's words.
  t.deepEqual(calls(`import sys\nDEBUG_CALLS = ("breakpoint", "set_trace")\n${loop}hooks(DEBUG_CALLS)\n`), ['1:"breakpoint"']);
  t.deepEqual(calls(`import sys\nDEBUG_CALLS = ("breakpoint", "set_trace")\n${loop}def f():\n    global DEBUG_CALLS\n`), ['1:"breakpoint"']);
  t.deepEqual(calls(`import sys\nDEBUG_CALLS = ("breakpoint", "set_trace")\nsetattr(m, "DEBUG_CALLS", x)\n${loop}`), ['1:"breakpoint"']);
  t.deepEqual(calls('import sys\nDEBUG_CALLS = ("breakpoint",)\nfor word in DEBUG_CALLS:\n    setattr(h, word, f)\n'), ['1:"breakpoint"']);
  t.deepEqual(calls('import os\nRUN = ("system",)\nfor name in RUN:\n    getattr(os, name)(text)\n'), ['3:getattr(']);
});
