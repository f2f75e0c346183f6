// The directories Python code puts on sys.path (python-search-paths.ts), by the closed grammar of paths anchored at
// the program file. Each expectation is worked out by hand from os.path's and pathlib's rules.
import test from 'ava';
import { pythonSearchPaths } from '../../../../src/host/executors/confine/python-search-paths.js';
import { PYTHON_STDLIB_NAMES } from '../../../../src/host/executors/confine/python-stdlib-names.js';

const HEAD = 'import os, sys, site\nimport os.path as osp\nfrom os.path import dirname, abspath, join\nfrom pathlib import Path\nimport pathlib\n';
/** A module of the standard library (the program's own imports here are all of it) in a directory. */
const isModule = (text: string) =>
  PYTHON_STDLIB_NAMES.includes(
    text
      .split('/')
      .find((part) => PYTHON_STDLIB_NAMES.includes(part.replace(/\.py$/u, '')))
      ?.replace(/\.py$/u, '') ?? '',
  );
/** The directories (`file:` relative to the program file's directory) a change puts on sys.path, whole. */
const directories = (change: string) => {
  const found = pythonSearchPaths(`${HEAD}${change}\n`);
  return { trees: found.names.filter((name) => name.tree && !isModule(name.text)).map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}`), computed: found.computed.length };
};

for (const [change, expected] of [
  ['sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))', 'file:../src'],
  ['sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src"))', 'file:../src'],
  ['sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))', 'file:../src'],
  ['sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))', 'file:../src'],
  ['sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))', 'file:lib'],
  ['sys.path.append(str(pathlib.Path(__file__).absolute().parents[2] / "vendor"))', 'file:../../vendor'],
  ['sys.path.insert(0, str(Path(__file__).parents[0].joinpath("..", "lib")))', 'file:../lib'],
  ['sys.path.insert(0, os.path.realpath(os.path.join(dirname(abspath(__file__)), os.path.pardir)) + "/src")', 'file:../src'],
  ['sys.path.insert(0, osp.join(osp.dirname(__file__), "lib"))', 'file:lib'],
  ['sys.path.insert(0, join(dirname(__file__), "lib"))', 'file:lib'],
  ['sys.path.insert(0, os.path.dirname(__file__) + "/../src")', 'file:../src'],
  ['sys.path.insert(0, str(Path(__file__).resolve(strict=True).parent / "lib"))', 'file:lib'],
  ['ROOT = Path(__file__).resolve().parent.parent\nsys.path.insert(0, str(ROOT / "src"))', 'file:../src'],
  ['HERE = os.path.dirname(os.path.abspath(__file__))\nROOT = os.path.dirname(HERE)\nsys.path.append(ROOT)', 'file:..'],
  ['sys.path[:0] = [str(Path(__file__).parent / "lib")]', 'file:lib'],
  ['sys.path = [os.path.join(os.getcwd(), "lib")] + sys.path', 'lib'],
  ['sys.path += ["vendor"]', 'vendor'],
  ['sys.path.insert(len(sys.path), "vendor")', 'vendor'],
  ['site.addsitedir(str(Path.cwd() / "lib"))', 'lib'],
  ['sys.path.insert(0, "/opt/tools/lib")', '/opt/tools/lib'],
  // f-strings whose every substitution is a grammar path; os.path.split(P)[0] is os.path.dirname(P).
  ['sys.path.insert(0, f"{os.path.dirname(__file__)}/lib")', 'file:lib'],
  ['sys.path.insert(0, f"{os.path.dirname(__file__)}/../lib")', 'file:../lib'],
  ['sys.path.insert(0, rf\'{Path(__file__).parent / "src"}/x\')', 'file:src/x'],
  ['sys.path.insert(0, os.path.join(os.path.split(os.path.abspath(__file__))[0], "..", "lib"))', 'file:../lib'],
  ['sys.path.append(os.path.split(os.path.split(os.path.abspath(__file__))[0])[0])', 'file:..'],
  // Logical lines: after `;`, continued with a backslash or inside brackets, after a compound statement's header.
  ['import sys; sys.path.insert(0, "tools/vendor"); x = 1', 'tools/vendor'],
  ['import site; site.addsitedir("tools/vendor")', 'tools/vendor'],
  ['sys.path.insert(0, \\\n    "vendor")', 'vendor'],
  ['ROOT = os.path.join(\n    os.path.dirname(__file__),  # the checkout\n    "..")\nsys.path.insert(1, ROOT)', 'file:..'],
  ['if True: sys.path.insert(0, "vendor")', 'vendor'],
  ['try: import sys as s\nexcept ImportError: raise\ns.path.insert(0, "vendor")', 'vendor'],
] as const)
  test(`sys.path: ${change.split('\n').at(-1) ?? ''} → ${expected}`, (t) => {
    t.deepEqual(directories(change), { trees: [expected], computed: 0 });
  });

for (const change of [
  'sys.path.insert(0, os.environ["TOOLS"])',
  'sys.path.insert(0, os.path.expanduser("~/lib"))',
  'sys.path.insert(0, str(Path.home() / "lib"))',
  'sys.path.insert(0, f"{os.environ[\'HOME\']}/lib")',
  'sys.path.insert(0, f"{os.path.dirname(__file__)!r}/lib")',
  'sys.path.insert(0, f"{os.path.dirname(__file__):>40}/lib")',
  'sys.path.insert(0, f"{{lib}}")',
  'sys.path.insert(0, os.path.split(os.path.abspath(__file__))[1])',
  // A use the reader does not know as a read or a change, in each position a statement may start: unresolved.
  'import sys; sys.path.remove("x")',
  'try: import sys as s\nexcept ImportError: pass\ns.path.insert(0, os.environ["X"])',
  'x = f"""\nimport {sys.path.pop(0)}\n"""',
  'import os; p = sys.path; p.insert(0, os.environ["X"])',
  'sys.path.insert(0, os.path.dirname(os.path.dirname("tools/x.py")))',
  'sys.path.insert(0, __file__)',
  'sys.path.insert(0, os.path.join(__file__, ".."))',
  'sys.path.insert(0, Path(__file__).with_name("lib"))',
  'sys.path.insert(0, str(Path(__file__).parent / "lib\\x"))',
  'ROOT = Path(__file__).parent\nROOT = ROOT / "other"\nsys.path.insert(0, str(ROOT))',
  'sys.path.insert(0, ROOT)',
  'sys.path = sorted(sys.path)',
  'sys.path.extend(glob.glob("vendor/*"))',
])
  test(`sys.path: ${change.replaceAll('\n', '; ')} is unresolved`, (t) => {
    t.deepEqual(directories(change), { trees: [], computed: 1 });
  });

test("a directory on sys.path names the program's imports there; one that may hold the workspace, each standard-library name there", (t) => {
  const below = pythonSearchPaths('import sys\nfrom pathlib import Path\nsys.path.insert(0, str(Path(__file__).parent.parent / "src"))\nimport lintrules.rules\n').names;
  const texts = below.map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}${name.tree ? '/**' : ''}`);
  for (const name of ['file:../src/**', 'file:../src/lintrules.py', 'file:../src/lintrules/__init__.py', 'file:../src/lintrules/rules.py']) t.true(texts.includes(name), name);
  t.false(texts.includes('file:../src/argparse.py/**'));
  const top = pythonSearchPaths('import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\nimport checks\n').names;
  const topTexts = top.map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}${name.tree ? '/**' : ''}`);
  for (const name of ['file:../**', 'file:../checks.py', 'file:../checks/**', 'file:../argparse.py/**', 'file:../gettext/**']) t.true(topTexts.includes(name), name);
});
