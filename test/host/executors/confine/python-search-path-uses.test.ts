// Uses of Python's search path under any name (python-search-path-uses.ts, through pythonSearchPaths): each change is
// read as the same change spelled `sys.path.`; a use not known as a read is unresolved; ordinary reads stay allowed.
import test from 'ava';
import { pythonSearchPaths } from '../../../../src/host/executors/confine/python-search-paths.js';

/** The directories (not the module names below them) a program puts on sys.path, and how many uses are unresolved. */
const read = (code: string) => {
  const found = pythonSearchPaths(`${code}\n`);
  return { trees: [...new Set(found.names.filter((name) => name.tree && !name.text.includes('/')).map((name) => name.text))], computed: found.computed.length };
};

for (const [code, expected] of [
  ["import sys as _sys\n_sys.path.insert(0, 'vendor')", 'vendor'],
  ["import sys\nsearch = sys.path\nsearch.insert(0, 'vendor')", 'vendor'],
  ["import sys\nsearch = sys.path\nmore = search\nmore.append('vendor')", 'vendor'],
  ["from sys import path\npath.append('vendor')", 'vendor'],
  ["from sys import path as p\np[:0] = ['vendor']", 'vendor'],
  ["from sys import (\n    argv,\n    path,\n)\npath.extend(['vendor'])", 'vendor'],
  ["from site import addsitedir\naddsitedir('vendor')", 'vendor'],
  ["from site import addsitedir as add\nadd('vendor')", 'vendor'],
  ["import site as s\ns.addsitedir('vendor')", 'vendor'],
  ["import site\nadd = site.addsitedir\nadd('vendor')", 'vendor'],
  ["import os\nos.sys.path.insert(0, 'vendor')", 'vendor'],
  ["import sys as _sys\n_sys.path = ['vendor'] + _sys.path", 'vendor'],
  ["import sys\nsys . path . append('vendor')", 'vendor'],
] as const)
  test(`another name for sys.path: ${code.replaceAll('\n', '; ')} → ${expected}`, (t) => {
    t.deepEqual(read(code), { trees: [expected], computed: 0 });
  });

for (const code of [
  "import sys\nsys.path.__setitem__(slice(0, 0), ['vendor'])",
  "import sys\nsys.path.__iadd__(['vendor'])",
  "import sys\nsetattr(sys, 'path', ['vendor'] + sys.path)",
  "import sys\nvars(sys)['path'].insert(0, 'vendor')",
  "import sys\nsys.__dict__['path'].insert(0, 'vendor')",
  "import sys\nadd = sys.path.insert\nadd(0, 'vendor')",
  'import sys\nextend(sys.path)',
  "import sys\nsearch, other = sys.path, 1\nsearch.insert(0, 'vendor')",
  "import sys\nsys.path.insert(grow(sys.path), 'vendor')",
  "import sys\nsys.path.remove('')",
  'import sys\ndel sys.path[0]',
  "import sys\nsys.path[0] += '/vendor'",
  'import sys\nsys.meta_path.insert(0, Finder())',
  'import sys\nsys.path_hooks.append(hook)',
  'import sys\nsys.path_importer_cache.clear()',
  'from sys import meta_path',
  'from sys import *',
  'import site\nsite.main()',
  "import site\nsite.addpackage('vendor', 'x.pth', set())",
  'import site\nlist(map(site.addsitedir, dirs))',
  'from site import addsitedir\nlist(map(addsitedir, dirs))',
  "import importlib\nimportlib.import_module('sys').path.insert(0, 'vendor')",
  "__import__('sys').path.insert(0, 'vendor')",
  "import os\nos.sys.modules['sys'].path.insert(0, 'vendor')",
])
  test(`a use of the search path zotbox does not read is unresolved: ${code.replaceAll('\n', '; ')}`, (t) => {
    t.true(read(code).computed > 0);
  });

for (const code of [
  'import sys\nprint(sys.path)',
  "import sys\nprint('search path:', sys.path, file=sys.stderr)",
  'import sys\nfor entry in sys.path:\n    print(entry)',
  "import sys\nif 'vendor' not in sys.path:\n    raise SystemExit('vendor missing')",
  'import sys\nfirst = sys.path[0]\nn = len(sys.path)\nsaved = list(sys.path)\nsaved2 = sys.path.copy()\nassert sys.path == saved',
  "import os, sys\nos.environ['PYTHONPATH'] = os.pathsep.join(sys.path)",
  'import sys\n# we used to call sys.path.insert(0, ROOT) here\n"""Note: site.main() and sys.path.append are not used."""\nsys.exit(main(sys.argv))',
  "site = 'https://example.com'\nprint(site.upper())",
  'import site\nprint(site.getsitepackages(), site.USER_SITE)',
  'from site import getsitepackages',
  'import sys\nfor finder in sys.meta_path:\n    print(finder)',
  'from os import path\npath.join("a", "b")\nfrom os.path import join',
])
  test(`an ordinary read of the search path stays allowed: ${code.replaceAll('\n', '; ')}`, (t) => {
    t.deepEqual(read(code), { trees: [], computed: 0 });
  });
