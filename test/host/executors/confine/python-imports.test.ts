// What Python code imports (python-imports.ts): relative imports against the file's package, absolute ones from every
// root, and a sys.path[0]'s modules (sys.path changes: python-search-paths.test.ts). The expected names are written out by hand from the import system's rules.
import test from 'ava';
import { pathEntryNames, pythonImportNames, scriptRootNames, searchRootNames, unreadPythonImports } from '../../../../src/host/executors/confine/python-imports.js';
import { moduleEntriesOf, pathImportName, pathImportOf } from '../../../../src/host/executors/confine/python-module-entries.js';

const shown = (names: readonly { text: string; tree: boolean; anchor?: 'file' }[]) => names.map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}${name.tree ? '/**' : ''}`);

test("a relative star import loads any submodule the package's __all__ names: the package whole", (t) => {
  t.deepEqual(shown(pythonImportNames('from . import *\n')), ['file:__init__.py', 'file:./**']);
  t.deepEqual(shown(pythonImportNames('from .. import (*)\n')), ['file:../__init__.py', 'file:../**']);
  // Named imports stay exact: the package's other modules are not protected.
  t.false(shown(pythonImportNames('from . import helpers\n')).includes('file:./**'));
});

test("a relative import is read against the importing file's package, one directory up per extra dot", (t) => {
  t.deepEqual(shown(pythonImportNames('from . import helpers\n')), ['file:__init__.py', 'file:helpers.py', 'file:helpers/__init__.py', 'file:helpers/__main__.py', 'file:helpers/**']);
  t.deepEqual(shown(pythonImportNames('from ..common import x\n')), ['file:../__init__.py', 'file:../common.py', 'file:../common/__init__.py', 'file:../common/__main__.py', 'file:../common/**']);
  t.deepEqual(
    shown(pythonImportNames('from .. import (a,\n  b as c)\n')).filter((name) => name.endsWith('/**')),
    ['file:../a/**', 'file:../b/**'],
  );
});

test('an absolute import carries no anchor: it is looked up from every directory the program may have on sys.path', (t) => {
  t.deepEqual(shown(pythonImportNames('try:\n    import local_overrides\nexcept ImportError:\n    pass\n')), [
    'local_overrides.py',
    'local_overrides/__init__.py',
    'local_overrides/__main__.py',
    'local_overrides/**',
    '__zotbox_python_path_import__@local_overrides',
  ]);
  t.deepEqual(
    shown(pythonImportNames('import a, b as c\n')).filter((name) => name.endsWith('/**')),
    ['a/**', 'b/**'],
  );
});

test("an absolute import is also marked for the interpreter's own path: the module, and each name imported from it as a submodule", (t) => {
  const marks = (code: string) => shown(pythonImportNames(code)).filter((name) => name.startsWith('__zotbox_python_path_import__@'));
  t.deepEqual(marks('from mypkg import lint, util as u\n'), ['__zotbox_python_path_import__@mypkg', '__zotbox_python_path_import__@mypkg.lint', '__zotbox_python_path_import__@mypkg.util']);
  t.deepEqual(marks('import mypkg.checks.style\n'), ['__zotbox_python_path_import__@mypkg.checks.style']);
  t.deepEqual(marks('importlib.import_module("mypkg.lint")\n'), ['__zotbox_python_path_import__@mypkg.lint']);
  // A relative import is the package's own, never looked up on the path.
  t.deepEqual(marks('from . import helpers\nfrom .x import y\n'), []);
  t.deepEqual(pathImportOf(`/ws/tools/${pathImportName('mypkg.lint')}`), 'mypkg.lint');
  t.is(pathImportOf('/ws/tools/mypkg.py'), undefined);
});

test("a sys.path[0] directory's modules: its module entries, for the interpreter that runs the program, not the directory whole", (t) => {
  t.deepEqual(pathEntryNames('tools/', 'python3'), [{ text: 'tools/__zotbox_python_path_entries__@python3', tree: false }]);
  t.deepEqual(pathEntryNames('.', 'python3.11'), [{ text: '__zotbox_python_path_entries__@python3.11', tree: false }]);
  // An interpreter named by its path keeps it (read from that file, not from PATH).
  t.deepEqual(moduleEntriesOf(`/ws/${pathEntryNames('backend', '/usr/bin/python3')[0]!.text}`), { directory: '/ws/backend', interpreter: '/usr/bin/python3' });
  t.is(moduleEntriesOf('/ws/backend/urllib3.py'), undefined);
  // A script run by its #! line has its own directory as sys.path[0], for the interpreter its #! line names.
  t.deepEqual(shown(scriptRootNames('#!/usr/bin/env python3\nimport argparse\n')), ['file:__zotbox_python_path_entries__@python3']);
  t.deepEqual(shown(scriptRootNames('#!/usr/bin/env -S python3.12 -u\n')), ['file:__zotbox_python_path_entries__@python3.12']);
  t.deepEqual(shown(scriptRootNames('#!/usr/bin/python3\n')), ['file:__zotbox_python_path_entries__@%2Fusr%2Fbin%2Fpython3']);
  t.deepEqual(scriptRootNames('#!/bin/sh\n'), []);
});

test("a directory a program puts on sys.path: whole; where it runs ('.'), each standard-library name's module there", (t) => {
  t.deepEqual(shown(searchRootNames('tools')), ['tools/**']);
  const here = shown(searchRootNames('.'));
  t.false(here.includes('./**'));
  for (const name of ['gettext.py/**', 'gettext/**', 'argparse.py/**']) t.true(here.includes(name), name);
});

test('imports are read by logical lines: after `;`, continued with a backslash, inside brackets', (t) => {
  const trees = (code: string) => shown(pythonImportNames(code)).filter((name) => name.endsWith('/**'));
  t.deepEqual(trees('from . import a, \\\n    b\n'), ['file:a/**', 'file:b/**']);
  t.deepEqual(trees('import sys; import fmt\n'), ['sys/**', 'fmt/**']);
  t.deepEqual(trees('from .. import (a,  # first\n  b)\n'), ['file:../a/**', 'file:../b/**']);
  t.deepEqual(trees('import a, \\\n  b as c\n'), ['a/**', 'b/**']);
});

test("import_module with a leading-dot literal and the file's own package is a relative import", (t) => {
  const relative = (code: string) => shown(pythonImportNames(code)).filter((name) => name.startsWith('file:'));
  const b = ['file:__init__.py', 'file:b.py', 'file:b/__init__.py', 'file:b/__main__.py', 'file:b/**'];
  t.deepEqual(relative('importlib.import_module(".b", __package__)\n'), b);
  t.deepEqual(relative('import_module(".b", package=__package__)\n'), b);
  t.deepEqual(relative('import_module(".b", __spec__.parent)\n'), b);
  t.deepEqual(relative('import_module(".b", __name__)\n'), b);
  t.deepEqual(
    relative('import_module("..c.d", __package__)\n').filter((name) => name.endsWith('/**')),
    ['file:../c/d/**'],
  );
  t.deepEqual(relative('import_module(".", __package__)\n'), ['file:__init__.py']);
  // Without a package Python raises: nothing imported, nothing unread.
  t.deepEqual(relative('import_module(".b")\n'), []);
  t.deepEqual(unreadPythonImports('import_module(".b")\nimport_module(".b", __package__)\nimport_module("b", pkg)\n'), []);
});

test('import_module with a leading-dot literal against a package zotbox cannot read is unresolved', (t) => {
  t.is(unreadPythonImports('importlib.import_module(".b", pkg)\n').length, 1);
  t.is(unreadPythonImports('import_module(".b", package=PKG)\n').length, 1);
  t.is(unreadPythonImports('import_module(".b", package=f(x))\n').length, 1);
  t.is(unreadPythonImports('import_module(\n    "..b",\n    base,\n)\n').length, 1);
});
