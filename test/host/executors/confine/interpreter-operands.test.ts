// What an interpreter runs besides the words written (interpreter-operands.ts): a module, a directory's entry file,
// a library directory. The expected names are written out by hand from each interpreter's documented grammar.
import test from 'ava';
import { codeNames, DOTENV_WALK_LEVELS, interpreterReading, moduleFiles } from '../../../../src/host/executors/confine/interpreter-operands.js';
import { isStdlibShadow } from '../../../fixtures/python-stdlib-shadows.js';

/**
 * The names a command implies, without the standard-library shadows of its sys.path[0] (python-imports.test.ts states
 * those) and the marks of its lookups on the interpreter's own path (stated below and in python-imports.test.ts).
 */
const names = (program: string, args: readonly string[]) =>
  interpreterReading(program, args)
    .names.map((name) => `${name.text}${name.tree ? '/**' : ''}`)
    .filter((shown) => !isStdlibShadow(shown) && !shown.startsWith('__zotbox_python_path_import__@'));
const pathImports = (program: string, args: readonly string[]) =>
  interpreterReading(program, args)
    .names.map((name) => name.text)
    .filter((text) => text.startsWith('__zotbox_python_path_import__@'));
const operand = (program: string, args: readonly string[]) => interpreterReading(program, args).operand;

test('python -m MOD runs every package __init__ on the way, the module or its package, and a plain module beside a namespace package', (t) => {
  t.deepEqual(
    moduleFiles('tools.fsmon').map((name) => `${name.text}${name.tree ? '/**' : ''}`),
    ['tools.py', 'tools/__init__.py', 'tools/fsmon.py', 'tools/fsmon/__init__.py', 'tools/fsmon/__main__.py', 'tools/fsmon/**'],
  );
  t.deepEqual(names('python3', ['-m', 'check']), ['check.py', 'check/__init__.py', 'check/__main__.py', 'check/**']);
  t.deepEqual(names('python3.11', ['-mcheck']), ['check.py', 'check/__init__.py', 'check/__main__.py', 'check/**']);
  // -m ends a group of flags; the words after the module are its own arguments.
  t.deepEqual(names('pypy3', ['-Bm', 'check', 'other.py']), ['check.py', 'check/__init__.py', 'check/__main__.py', 'check/**']);
  t.deepEqual(names('python', ['-W', 'ignore', '-m', 'a.b']), ['a.py', 'a/__init__.py', 'a/b.py', 'a/b/__init__.py', 'a/b/__main__.py', 'a/b/**']);
  t.is(operand('python3', ['-m', 'check', 'x.py']), undefined);
});

test("python -m MOD also looks MOD up on the interpreter's own path (an editable install's src/); -c CODE its imports", (t) => {
  t.deepEqual(pathImports('python3', ['-m', 'mypkg.lint']), ['__zotbox_python_path_import__@mypkg.lint']);
  t.deepEqual(pathImports('python3', ['-c', 'from mypkg import lint']), ['__zotbox_python_path_import__@mypkg', '__zotbox_python_path_import__@mypkg.lint']);
  t.deepEqual(pathImports('python3', ['tools/check.py']), []);
});

test('python -c CODE runs the modules it imports; a script operand may be a directory whose __main__.py runs', (t) => {
  t.deepEqual(names('python3', ['-c', 'import tools.run; tools.run.main()']), ['tools.py', 'tools/__init__.py', 'tools/run.py', 'tools/run/__init__.py', 'tools/run/__main__.py', 'tools/run/**']);
  // A name imported from a package is the submodule it may be, not the package whole; a star import may load any of them.
  t.deepEqual(names('python3', ['-c', 'from lib import x']), [
    'lib.py',
    'lib/__init__.py',
    'lib/__main__.py',
    'lib.py',
    'lib/__init__.py',
    'lib/x.py',
    'lib/x/__init__.py',
    'lib/x/__main__.py',
    'lib/x/**',
  ]);
  t.deepEqual(names('python3', ['-c', 'from lib import *']), ['lib.py', 'lib/__init__.py', 'lib/__main__.py', 'lib/**']);
  // A script's directory is its sys.path[0]: every module there is what it may import.
  t.deepEqual(names('python3', ['-I', 'tools']), ['tools/**']);
  // The script's directory is its sys.path[0]: its module entries (python-imports.test.ts), not the directory whole;
  // named by the script, as CPython takes the directory of the file a linked script leads to (python-installed-names.test.ts).
  t.deepEqual(names('python3', ['tools/check.py']), ['tools/check.py/**']);
  t.deepEqual(
    interpreterReading('python3', ['tools/check.py']).names.map((name) => name.text),
    ['tools/check.py', 'tools/check.py/__zotbox_python_script_entries__@python3'],
  );
  t.deepEqual(
    interpreterReading('python3', ['--', 'x.py']).names.map((name) => name.text),
    ['x.py', 'x.py/__zotbox_python_script_entries__@python3'],
  );
  t.deepEqual(names('python3', ['.']), ['./__main__.py']);
  t.is(operand('python3', ['-I', 'tools', '--flag']), 1);
});

test("node, bun and deno run a directory's package.json main or index file; options with values are skipped", (t) => {
  // A directory runs what its package.json's main names, anything in it: the operand whole (a file: the file); a name
  // without an extension is also what node finds with one, and what the TypeScript runners find (x.ts for x).
  const typescript = (name: string) => (/\.[cm]?tsx?$/u.test(name) ? [] : [`${name}.ts`, `${name}.tsx`, `${name}.mts`, `${name}.cts`]);
  const found = (name: string) => [`${name}/**`, `${name}.js`, `${name}.mjs`, `${name}.cjs`, `${name}.json`, `${name}.node`, ...typescript(name)];
  t.deepEqual(names('node', ['tools']), found('tools'));
  // -r with a relative module loads it first; a bare one is looked up where the command runs (its mark:
  // node-preload-packages.test.ts), a dependency installed there or a workspace package linked in.
  t.deepEqual(names('node', ['-r', 'ts-node/register', 'src']), ['__zotbox_node_preload__/ts-node/register', ...found('src')]);
  t.deepEqual(names('node', ['-r', './setup', 'src']), [...found('./setup'), ...found('src')]);
  t.is(operand('node', ['-r', 'ts-node/register', 'src']), 2);
  t.deepEqual(names('deno', ['run', '-A', 'x.ts']), found('x.ts'));
  // The directory it runs in is not protected whole: its entry files are.
  t.deepEqual(names('node', ['.']), ['./package.json', './index.js', './index.mjs', './index.cjs', './index.json', './index.node', './index.ts', './index.tsx', './index.mts', './index.cts']);
  t.deepEqual(names('node', ['-e', 'require("./x")']), found('./x'));
});

test("node reads every preload option's bare specifier as a package looked up where it runs; one it cannot carry is unresolved", (t) => {
  const mark = (specifier: string) => `__zotbox_node_preload__/${specifier}`;
  t.deepEqual(names('node', ['-r', '@acme/setup', 'x.js']).slice(0, 1), [mark('@acme/setup')]);
  t.deepEqual(names('node', ['--require=@acme/setup', 'x.js']).slice(0, 1), [mark('@acme/setup')]);
  t.deepEqual(names('node', ['--import', '@acme/setup', 'x.js']).slice(0, 1), [mark('@acme/setup')]);
  t.deepEqual(names('node', ['--loader=ts-node/esm', 'x.js']).slice(0, 1), [mark('ts-node/esm')]);
  t.deepEqual(names('node', ['--experimental-loader', 'tsx', 'x.js']).slice(0, 1), [mark('tsx')]);
  // dotenv's preload reads ./.env, whose NODE_OPTIONS reach every node the program starts.
  t.deepEqual(names('node', ['-r', 'dotenv/config', 'x.js']).slice(0, 2), ['.env', mark('dotenv/config')]);
  // A URL (data:, node:) is no package; a specifier a path join would fold (`a/../b`) cannot be carried: unresolved.
  t.deepEqual(names('node', ['--import=data:text/javascript,0']), []);
  t.deepEqual(interpreterReading('node', ['-r', 'a/../b', 'x.js']).computed?.length, 1);
  t.deepEqual(interpreterReading('node', ['-r', '@acme/setup', 'x.js']).computed, []);
});

test('a program that loads an env file without naming it names .env: node, dotenv, python-dotenv (walking up from the file)', (t) => {
  const envs = (code: string) => codeNames(code).filter((name) => name.text.endsWith('.env'));
  t.deepEqual(envs('process.loadEnvFile();\n'), [{ text: '.env', tree: false }]);
  t.deepEqual(envs('require("dotenv").config();\n'), [{ text: '.env', tree: false }]);
  t.deepEqual(envs('import "dotenv/config";\n'), [{ text: '.env', tree: false }]);
  t.deepEqual(envs("import dotenv from 'dotenv';\ndotenv.config({ override: true });\n"), [{ text: '.env', tree: false }]);
  // Named: the literal names it (read as any path literal is), no default.
  t.deepEqual(envs('process.loadEnvFile("config/app.env");\n'), []);
  const walk = envs('from dotenv import load_dotenv\nload_dotenv()\n');
  t.deepEqual(walk.slice(0, 3), [
    { text: '.env', tree: false },
    { text: '.env', tree: false, anchor: 'file' },
    { text: '../.env', tree: false, anchor: 'file' },
  ]);
  t.is(walk.length, 2 + DOTENV_WALK_LEVELS);
  t.is(envs('import dotenv\ndotenv.load_dotenv(override=True)\n').length, 2 + DOTENV_WALK_LEVELS);
  t.deepEqual(envs('load_dotenv(dotenv_path="ci.env")\n'), []);
});

test('perl and ruby: -I DIR puts a directory on the library path, whole; the first operand is the script', (t) => {
  // Each with its mark: unresolved where the directory holds a write scope (module-search-directories.test.ts).
  t.deepEqual(names('perl', ['-Itools', '-MFsmon', '-e', '1']), ['tools/**', 'tools/__zotbox_module_search_directory__@perl']);
  t.deepEqual(names('ruby', ['-I', 'lib', 'x.rb']), ['lib/**', 'lib/__zotbox_module_search_directory__@ruby']);
  t.deepEqual(names('ruby', ['-I.', 'x.rb']), ['./**', '__zotbox_module_search_directory__@ruby']);
  t.is(operand('ruby', ['-I', 'lib', 'x.rb']), 2);
  t.is(operand('perl', ['-w', 'x.pl']), 1);
});

test("a shell's first operand is the script it runs; -c and -s read no file; . and source run their operand", (t) => {
  t.is(operand('sh', ['-e', 'x.sh', 'arg']), 1);
  t.is(operand('bash', ['-o', 'pipefail', 'x.sh']), 2);
  t.is(operand('sh', ['-c', 'echo']), undefined);
  t.is(operand('sh', ['-s']), undefined);
  t.is(operand('.', ['./common']), 0);
  t.is(operand('source', ['env.sh']), 0);
  t.deepEqual(names('make', ['-C', 'tools']), []);
  t.is(operand('make', ['-C', 'tools']), undefined);
});

test("option clusters are read by each interpreter's grammar; an option it does not have is unresolved", (t) => {
  // python: any no-value flag may come before m or c (-R is kept for compatibility).
  t.deepEqual(names('python3', ['-Rm', 'tools.check']), ['tools.py', 'tools/__init__.py', 'tools/check.py', 'tools/check/__init__.py', 'tools/check/__main__.py', 'tools/check/**']);
  t.deepEqual(names('python3', ['-sEm', 'check']), ['check.py', 'check/__init__.py', 'check/__main__.py', 'check/**']);
  t.deepEqual(names('python3', ['-Wdefault', '-Xdev', '-m', 'check']), ['check.py', 'check/__init__.py', 'check/__main__.py', 'check/**']);
  t.deepEqual(interpreterReading('python3', ['-Z', 'x.py']).computed, ['python -Z (an option zotbox does not read)']);
  // perl: no-value switches, then one that takes the rest of the word (-I, -M, -m) or digits (-l, -0).
  t.deepEqual(names('perl', ['-wIlib', '-MCheck', '-e', '1']), ['lib/**', 'lib/__zotbox_module_search_directory__@perl']);
  t.deepEqual(names('perl', ['-mlib=lib,tools', '-e', '1']), ['lib/**', 'lib/__zotbox_module_search_directory__@perl', 'tools/**', 'tools/__zotbox_module_search_directory__@perl']);
  t.deepEqual(names('perl', ['-l0Ilib', '-e', '1']), ['lib/**', 'lib/__zotbox_module_search_directory__@perl']);
  t.deepEqual(names('perl', ['-Mlocal::lib=vendor', 'x.pl']), ['vendor/**', 'vendor/__zotbox_module_search_directory__@perl']);
  t.is(operand('perl', ['-wT', 'x.pl']), 1);
  t.deepEqual(interpreterReading('perl', ['-wG', 'x.pl']).computed, ['perl -wG (an option zotbox does not read)']);
});
