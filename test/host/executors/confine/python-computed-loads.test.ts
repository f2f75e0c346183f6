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
  t.deepEqual(calls('import runpy\nf = getattr(runpy, "run_path")\n'), ['1:"run_path"']);
  t.deepEqual(calls('handlers = [exec]\n'), ['0:exec']);
  t.deepEqual(calls('import builtins\nrun = getattr(builtins, "exec")\nrun = vars(builtins)["eval"]\n'), ['1:"exec"', '2:"eval"']);
});

test('where a loader module is in the file, a lookup by a computed name is a load; __builtins__ is every builtin', (t) => {
  t.deepEqual(calls('import runpy\nf = getattr(runpy, "run_" + "path")\n'), ['1:getattr(']);
  t.deepEqual(calls('import importlib.util as u\nf = vars(u)[name]\n'), ['1:vars(u)[']);
  t.deepEqual(calls('import builtins\nf = builtins.__dict__[name]\n'), ['1:__dict__[']);
  t.deepEqual(calls('f = __builtins__.get(name)\n'), ['0:__builtins__']);
  // Literal names are read as above; with no loader module in the file a computed getattr loads nothing.
  t.deepEqual(calls('import runpy\nv = getattr(runpy, "__name__", None)\n'), []);
  t.deepEqual(calls('import os\nv = getattr(os, name)\n'), []);
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
