// Where an absolute import leads through the interpreter's own path (python-path-imports.ts): real venvs made with
// /usr/bin/python3 -m venv --without-pip, an editable install's .pth and setuptools' finder written by hand as pip
// leaves them. The expected files are written out by hand; the lookup order is checked against the real interpreter.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installedNames } from '../../../../src/host/executors/confine/python-installed-names.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { moduleEntriesName, pathImportName } from '../../../../src/host/executors/confine/python-module-entries.js';
import { pathImportResolver } from '../../../../src/host/executors/confine/python-path-imports.js';
import { onScriptPath } from '../../../../src/host/executors/confine/python-script-path.js';
import { type ControlLocation, findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

type Context = Parameters<typeof tempDir>[0];

/** A venv outside the workspace (its python, its site-packages) and a workspace with src/mypkg/{__init__,lint,other}.py. */
function setUp(t: Context): { python: string; site: string; ws: string } {
  const venv = path.join(realpathSync(tempDir(t, 'zb-pyedit-venv-')), 'venv');
  execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', venv], { stdio: 'ignore' });
  const python = path.join(venv, 'bin', 'python');
  const site = realpathSync(execFileSync(python, ['-c', 'import site; print(site.getsitepackages()[0])'], { encoding: 'utf8' }).trim());
  const ws = realpathSync(tempDir(t, 'zb-pyedit-ws-'));
  mkdirSync(path.join(ws, 'src', 'mypkg'), { recursive: true });
  for (const name of ['__init__.py', 'lint.py', 'other.py']) writeFileSync(path.join(ws, 'src', 'mypkg', name), '');
  return { python, site, ws };
}

const lookup = (ws: string) => ({ searchPath: process.env['PATH'] ?? '', writeRoots: [ws], environment: { PATH: process.env['PATH'] ?? '' } });

/** What reading the interpreter's mark, then the imports of `modules`, finds. */
function resolve(python: string, ws: string, modules: readonly string[], environment: Record<string, string> = {}) {
  const resolver = pathImportResolver({ ...lookup(ws), environment: { ...lookup(ws).environment, ...environment } });
  const all = { locations: [] as ControlLocation[], files: [] as string[], unresolved: [] as string[] };
  for (const written of [path.join(ws, moduleEntriesName('.', python)), ...modules.map((module) => path.join(ws, pathImportName(module)))]) {
    const found = resolver.read(written, 'named by a hook');
    if (found === undefined) throw new Error(`not a mark: ${written}`);
    all.locations.push(...found.locations);
    all.files.push(...found.files);
    all.unresolved.push(...found.unresolved);
  }
  return { ...all, protects: (relative: string) => findControlLocation(path.join(ws, relative), all.locations) !== undefined };
}

test("the interpreter's listing gives its path entries in order, an editable install's .pth directory after site-packages", (t) => {
  const { python, site, ws } = setUp(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  const found = installedNames(python, lookup(ws));
  if ('unreadable' in found) return t.fail(found.unreadable);
  t.true(found.entries.indexOf(path.join(ws, 'src')) > found.entries.indexOf(site), found.entries.join(':'));
  t.true(found.entries.indexOf(site) >= 0);
  t.deepEqual(found.finders, []);
});

test('an import of the editable-installed package protects the files it loads, not the directory: other.py and a new module stay writable', (t) => {
  const { python, site, ws } = setUp(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  const found = resolve(python, ws, ['mypkg', 'mypkg.lint']);
  for (const name of ['src/mypkg/__init__.py', 'src/mypkg/lint.py', 'src/mypkg.py', 'src/mypkg/lint/__init__.py']) t.true(found.protects(name), name);
  t.deepEqual([...new Set(found.files)].sort(), [path.join(ws, 'src/mypkg/__init__.py'), path.join(ws, 'src/mypkg/lint.py')]);
  for (const name of ['src/mypkg/other.py', 'src/mypkg/new.py', 'src/README.md', 'tools/check.py']) t.false(found.protects(name), name);
  t.deepEqual(found.unresolved, []);
});

test('creation counts: a name imported and found nowhere earlier on the path is protected at the project entry', (t) => {
  const { python, site, ws } = setUp(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  const found = resolve(python, ws, ['local_settings']);
  for (const name of ['src/local_settings.py', 'src/local_settings/__init__.py']) t.true(found.protects(name), name);
  // A standard-library name is held earlier (the interpreter's own lib directory): its modules at src/ are never
  // imported (src/json.py is protected all the same, as any name's module file on an agent-writable entry).
  t.false(resolve(python, ws, ['json.decoder']).protects('src/json/decoder.py'));
});

test('a name an earlier site-packages entry holds wins (checked with the real interpreter): nothing protected at src/', (t) => {
  const { python, site, ws } = setUp(t);
  mkdirSync(path.join(site, 'mypkg'));
  writeFileSync(path.join(site, 'mypkg', '__init__.py'), '');
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  const loaded = execFileSync(python, ['-c', 'import mypkg; print(mypkg.__file__)'], { cwd: '/', encoding: 'utf8' }).trim();
  t.is(loaded, path.join(site, 'mypkg', '__init__.py'));
  const found = resolve(python, ws, ['mypkg', 'mypkg.lint']);
  // Only src/'s own module entries (python-path-entry-modules.ts: any name's module file and __init__.py), not the import.
  t.false(found.protects('src/mypkg/lint.py'));
  t.deepEqual(
    found.locations.map((location) => location.path),
    [path.join(ws, 'src')],
  );
  // A namespace portion earlier (a directory without __init__) does not stop the search: src/mypkg is the package.
  const other = setUp(t);
  mkdirSync(path.join(other.site, 'mypkg'));
  writeFileSync(path.join(other.site, '__editable__.mypkg-0.1.pth'), `${path.join(other.ws, 'src')}\n`);
  t.is(execFileSync(other.python, ['-c', 'import mypkg; print(mypkg.__file__)'], { cwd: '/', encoding: 'utf8' }).trim(), path.join(other.ws, 'src', 'mypkg', '__init__.py'));
  const behind = resolve(other.python, other.ws, ['mypkg.lint']);
  t.true(behind.protects('src/mypkg/lint.py'));
  // Found by the import itself (read on for its own imports), not only by src/'s entry rule for a shadowing package.
  t.true(behind.files.includes(path.join(other.ws, 'src/mypkg/lint.py')));
});

test("an import read before its interpreter is met is looked up on that interpreter's path once it is", (t) => {
  const { python, site, ws } = setUp(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  const resolver = pathImportResolver(lookup(ws));
  const early = resolver.read(path.join(ws, pathImportName('mypkg.lint')), 'named by a hook');
  t.deepEqual(early?.files ?? [], []);
  const met = resolver.read(path.join(ws, moduleEntriesName('.', python)), 'named by a hook');
  t.true((met?.files ?? []).includes(path.join(ws, 'src/mypkg/lint.py')), JSON.stringify(met?.files));
});

test("the user's PYTHONPATH comes first: an absolute entry in the project is searched, a relative one is unresolved", (t) => {
  const { python, ws } = setUp(t);
  const found = resolve(python, ws, ['mypkg.lint'], { PYTHONPATH: path.join(ws, 'src') });
  t.true(found.protects('src/mypkg/lint.py'));
  t.false(found.protects('src/mypkg/other.py'));
  t.regex(resolve(python, ws, ['mypkg'], { PYTHONPATH: 'src' }).unresolved.join('\n'), /PYTHONPATH entry src is relative/u);
});

test("an import hook: setuptools' editable finder maps a name to a directory in the project; one zotbox cannot read is unresolved", (t) => {
  const { python, site, ws } = setUp(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), 'import __editable___mypkg_0_1_finder; __editable___mypkg_0_1_finder.install()\n');
  const finder = path.join(site, '__editable___mypkg_0_1_finder.py');
  writeFileSync(finder, `import sys\nMAPPING: dict[str, str] = {'mypkg': '${path.join(ws, 'src', 'mypkg')}'}\nNAMESPACES: dict[str, list[str]] = {}\n`);
  const found = resolve(python, ws, ['mypkg', 'mypkg.lint']);
  for (const name of ['src/mypkg/__init__.py', 'src/mypkg/lint.py', 'src/mypkg.py']) t.true(found.protects(name), name);
  t.false(found.protects('src/mypkg/other.py'));
  t.deepEqual(found.unresolved, []);
  // A name the path holds never reaches the finder; one it does not, with a finder zotbox cannot read: unresolved.
  writeFileSync(finder, `MAPPING = dict(mypkg=${JSON.stringify(path.join(ws, 'src', 'mypkg'))})\nNAMESPACES = {}\n`);
  t.deepEqual(resolve(python, ws, ['json']).unresolved, []);
  t.regex(resolve(python, ws, ['mypkg']).unresolved.join('\n'), /__editable___mypkg_0_1_finder\.py: its MAPPING/u);
});

test('closed world: an interpreter zotbox cannot run or read adds no entries, and an import neither the standard library nor its sys.path[0] holds is unresolved', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-pyedit-none-'));
  const found = resolve('python7-not-there', ws, ['mypkg']);
  t.deepEqual(found.locations, []);
  t.regex(found.unresolved.join('\n'), /imports mypkg .*python7-not-there is not found/u);
  t.deepEqual(resolve('python7-not-there', ws, ['json', 'os.path']).unresolved, []);
  // A module in the directory that is its sys.path[0] (protected whole by the fallback) is imported from there.
  writeFileSync(path.join(ws, 'helpers.py'), '');
  t.deepEqual(resolve('python7-not-there', ws, ['helpers']).unresolved, []);
  t.is(pathImportResolver(lookup(ws)).read(path.join(ws, 'src', 'mypkg.py'), 'x'), undefined);
});

/** A workspace with src/mypkg/{__init__,lint,other}.py and its own .venv (never run: it is in the write scope). */
function projectVenv(t: Context): { site: string; ws: string } {
  const ws = realpathSync(tempDir(t, 'zb-pyedit-own-'));
  execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', path.join(ws, '.venv')], { stdio: 'ignore' });
  const lib = path.join(ws, '.venv', 'lib');
  const site = path.join(lib, readdirSync(lib)[0]!, 'site-packages');
  mkdirSync(path.join(ws, 'src', 'mypkg'), { recursive: true });
  for (const name of ['__init__.py', 'lint.py', 'other.py']) writeFileSync(path.join(ws, 'src', 'mypkg', name), '');
  return { site, ws };
}

test("the project's own venv is read from its files: an editable install's .pth directory is searched, relative or absolute interpreter word", (t) => {
  const { site, ws } = projectVenv(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  for (const python of ['.venv/bin/python', path.join(ws, '.venv/bin/python')]) {
    const found = resolve(python, ws, ['mypkg', 'mypkg.lint']);
    for (const name of ['src/mypkg/__init__.py', 'src/mypkg/lint.py', 'src/mypkg.py']) t.true(found.protects(name), `${python}: ${name}`);
    t.false(found.protects('src/mypkg/other.py'), python);
    t.deepEqual(found.unresolved, [], python);
  }
  // Over-denial: a name found nowhere on that path is no unresolved (the venv's path is known: it fails to import).
  t.deepEqual(resolve('.venv/bin/python', ws, ['yaml']).unresolved, []);
  t.false(resolve('.venv/bin/python', ws, ['yaml']).protects('src/mypkg/lint.py'));
});

test("the project's own venv: setuptools' finder line is read through the finder; any other import line, or the base's site-packages, is unresolved", (t) => {
  const { site, ws } = projectVenv(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), 'import __editable___mypkg_0_1_finder; __editable___mypkg_0_1_finder.install()\n');
  writeFileSync(path.join(site, '__editable___mypkg_0_1_finder.py'), `MAPPING = {'mypkg': '${path.join(ws, 'src', 'mypkg')}'}\nNAMESPACES = {}\n`);
  const found = resolve('.venv/bin/python', ws, ['mypkg.lint']);
  t.true(found.protects('src/mypkg/lint.py'));
  t.deepEqual(found.unresolved, []);
  writeFileSync(path.join(site, 'other.pth'), 'import sys; sys.path.append("/anywhere")\n');
  t.regex(resolve('.venv/bin/python', ws, ['mypkg']).unresolved.join('\n'), /other\.pth: it runs code/u);
  t.deepEqual(resolve('.venv/bin/python', ws, ['json']).unresolved, []);
  rmSync(path.join(site, 'other.pth'));
  const config = path.join(ws, '.venv', 'pyvenv.cfg');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/include-system-site-packages = false/u, 'include-system-site-packages = true'));
  t.regex(resolve('.venv/bin/python', ws, ['mypkg']).unresolved.join('\n'), /includes its base interpreter's site-packages/u);
});

test("a bare python on the PATH a hook set (activate, PATH=...): the first entry holding it is the interpreter; the project venv's path is read", (t) => {
  const { site, ws } = projectVenv(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  for (const entries of [
    ['.venv/bin', '$PATH'],
    ['./.venv/bin', '$PATH'],
    [path.join(ws, '.venv/bin'), '$PATH'],
    ['.nothing/bin', '.venv/bin', '$PATH'],
  ]) {
    const found = resolve(onScriptPath('python', entries), ws, ['mypkg.lint']);
    t.true(found.protects('src/mypkg/lint.py'), entries.join(':'));
    t.false(found.protects('src/mypkg/other.py'), entries.join(':'));
    t.deepEqual(found.unresolved, [], entries.join(':'));
  }
});

test('a bare python on a hook PATH: an entry zotbox cannot spell out first is unknown (an unplaced import unresolved); one without python falls through to the user PATH', (t) => {
  const { site, ws } = projectVenv(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  const unknown = resolve(onScriptPath('python3', ['?', '.venv/bin', '$PATH']), ws, ['mypkg', 'json']);
  t.is(unknown.unresolved.length, 1);
  t.regex(unknown.unresolved[0]!, /imports mypkg .*PATH entry zotbox cannot spell out/u);
  // No venv where the entry points: the user's python3 (outside the workspace, run), whose path does not hold src/.
  const user = resolve(onScriptPath('python3', ['.nothing/bin', '$PATH']), ws, ['mypkg.lint']);
  t.deepEqual(user.unresolved, []);
  t.false(user.protects('src/mypkg/lint.py'));
  // The user's PATH first: its python3 wins over the venv after it.
  t.false(resolve(onScriptPath('python3', ['$PATH', '.venv/bin']), ws, ['mypkg.lint']).protects('src/mypkg/lint.py'));
});

/** setuptools' distutils-precedence.pth as setuptools >= 60 writes it (a trailing blank, no newline), and virtualenv's _virtualenv.pth. */
const DISTUTILS_PRECEDENCE = "import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, 'local') == 'local'; enabled and __import__('_distutils_hack').add_shim(); ";

test("the project's own venv: setuptools' distutils-precedence.pth and virtualenv's _virtualenv.pth, exact and with their module in site-packages, add nothing and refuse nothing", (t) => {
  const { site, ws } = projectVenv(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  mkdirSync(path.join(site, '_distutils_hack'));
  writeFileSync(path.join(site, '_distutils_hack', '__init__.py'), '');
  writeFileSync(path.join(site, '_virtualenv.py'), '');
  for (const [name, text] of [
    ['distutils-precedence.pth', DISTUTILS_PRECEDENCE],
    ['distutils-precedence.pth', `${DISTUTILS_PRECEDENCE.replace("'local') ==", "'stdlib') ==")}\n`],
    ['_virtualenv.pth', 'import _virtualenv\n'],
  ] as const) {
    writeFileSync(path.join(site, name), text);
    const found = resolve('.venv/bin/python', ws, ['mypkg.lint']);
    t.deepEqual(found.unresolved, [], name);
    t.true(found.protects('src/mypkg/lint.py'), name);
    t.false(found.protects('src/mypkg/other.py'), name);
    rmSync(path.join(site, name));
  }
});

test("the project's own venv: a changed distutils-precedence or _virtualenv line, or one whose module is not in site-packages, is code zotbox does not read: unresolved", (t) => {
  const { site, ws } = projectVenv(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  mkdirSync(path.join(site, '_distutils_hack'));
  writeFileSync(path.join(site, '_distutils_hack', '__init__.py'), '');
  writeFileSync(path.join(site, '_virtualenv.py'), '');
  for (const [name, text] of [
    ['distutils-precedence.pth', DISTUTILS_PRECEDENCE.replace("__import__('_distutils_hack')", "__import__('mypkg')")],
    ['distutils-precedence.pth', `${DISTUTILS_PRECEDENCE}import sys; sys.path.insert(0, '/anywhere')`],
    ['_virtualenv.pth', 'import _virtualenv; import mypkg.lint\n'],
    ['_virtualenv.pth', 'import _virtualenv as v\n'],
  ] as const) {
    writeFileSync(path.join(site, name), text);
    t.regex(resolve('.venv/bin/python', ws, ['mypkg']).unresolved.join('\n'), new RegExp(`${name.replace('.', '\\.')}: it runs code`, 'u'), text);
    rmSync(path.join(site, name));
  }
  // The exact line with its module missing from site-packages: Python looks the module up further along the path
  // (an editable install's src/, where the agent may write it).
  rmSync(path.join(site, '_virtualenv.py'));
  writeFileSync(path.join(site, '_virtualenv.pth'), 'import _virtualenv\n');
  t.regex(resolve('.venv/bin/python', ws, ['mypkg']).unresolved.join('\n'), /_virtualenv\.pth: it runs code/u);
  rmSync(path.join(site, '_virtualenv.pth'));
  rmSync(path.join(site, '_distutils_hack', '__init__.py'));
  writeFileSync(path.join(site, 'distutils-precedence.pth'), DISTUTILS_PRECEDENCE);
  t.regex(resolve('.venv/bin/python', ws, ['mypkg']).unresolved.join('\n'), /distutils-precedence\.pth: it runs code/u);
});

test("a hook's program reaches the editable-installed package, and each imported file's imports to the end of the chain; nothing else of src/", (t) => {
  const { python, site, ws } = setUp(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  mkdirSync(path.join(ws, 'tools'));
  writeFileSync(path.join(ws, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\nexec ${python} -m tools.check\n`, { mode: 0o755 });
  writeFileSync(path.join(ws, 'tools', 'check.py'), 'from mypkg import lint\nlint.run()\n');
  // A module of the package importing its own package by name (`from mypkg import util`): util.py, not the package whole.
  writeFileSync(path.join(ws, 'src', 'mypkg', 'lint.py'), 'import mypkg.rules.style\nfrom mypkg import util\n');
  mkdirSync(path.join(ws, 'src', 'mypkg', 'rules'));
  writeFileSync(path.join(ws, 'src', 'mypkg', 'rules', '__init__.py'), '');
  writeFileSync(path.join(ws, 'src', 'mypkg', 'rules', 'style.py'), 'import helpers_not_installed\n');
  const found = toolFileReferences([], [ws], { environment: lookup(ws).environment, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  const protects = (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined;
  // tools/ where the hook runs has no __init__.py: a namespace portion, which a regular src/tools/ created later would beat.
  for (const name of [
    'src/mypkg/__init__.py',
    'src/mypkg/lint.py',
    'src/mypkg/rules/__init__.py',
    'src/mypkg/rules/style.py',
    'src/helpers_not_installed.py',
    'src/tools/__init__.py',
    'src/mypkg/util.py',
  ])
    t.true(protects(name), name);
  for (const name of ['src/mypkg/other.py', 'src/mypkg/new.py', 'src/mypkg/rules/other.py', 'src/setup.cfg']) t.false(protects(name), name);
  t.deepEqual(found.unresolved, []);
});

test("an interpreter met gives each agent-writable entry of its path sys.path[0]'s any-name rule: installed code's optional imports are not read", (t) => {
  const { python, site, ws } = setUp(t);
  writeFileSync(path.join(site, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  // No import is read at all: the interpreter's mark alone.
  const found = resolve(python, ws, []);
  for (const name of ['src/chardet.py', 'src/chardet/__init__.py', 'src/acme_colors/palette.py']) t.true(found.protects(name), name);
  for (const name of ['src/mypkg/lint.py', 'src/mypkg/new.py', 'src/README.md', 'tools/chardet.py']) t.false(found.protects(name), name);
  t.deepEqual(found.unresolved, []);
});
