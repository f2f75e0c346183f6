// The paths a program joins on its own location (program-relative-names.ts), and what a hook program's literals protect
// from its own directory (tool-file-references.ts). Expected names are stated by hand from each language's rules.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { programRelativeNames } from '../../../../src/host/executors/confine/program-relative-names.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

const names = (code: string) => programRelativeNames(code).map(({ text }) => text);

const joined = test.macro((t, code: string, expected: readonly string[]) => {
  t.deepEqual(names(code), expected);
});

test('node: __dirname + "/x"', joined, 'require(__dirname + "/plug.js");', ['plug.js']);
test('node: __dirname + "/../lib" + "/x.js"', joined, "require(__dirname + '/../lib' + '/x.js');", ['../lib/x.js']);
test('node: a template literal ${__dirname}/x', joined, 'require(`${__dirname}/plug.js`);', ['plug.js']);
test('node: import.meta.dirname + "/x"', joined, 'await import(import.meta.dirname + "/plug.mjs");', ['plug.mjs']);
test('node: path.join(__dirname, "..", "lib", "x.js")', joined, 'require(path.join(__dirname, "..", "lib", "x.js"));', ['../lib/x.js']);
test('node: path.resolve(import.meta.dirname, "x")', joined, 'new Worker(path.resolve(import.meta.dirname, "w.js"));', ['w.js']);
test('node: path.join(__dirname, "/x") is below the directory', joined, 'require(path.join(__dirname, "/plug.js"));', ['plug.js']);
test('node: path.dirname(fileURLToPath(import.meta.url)) + "/x"', joined, 'import(path.dirname(fileURLToPath(import.meta.url)) + "/p.mjs");', ['p.mjs']);
test('node: path.join(path.dirname(__filename), "x")', joined, 'require(path.join(path.dirname(__filename), "p.js"));', ['p.js']);
test('python: Path(__file__).parent / "x"', joined, 'subprocess.run(["sh", str(Path(__file__).parent / "fmt.sh")])', ['fmt.sh']);
test('python: Path(__file__).resolve().parent.parent / "a" / "b"', joined, 'p = Path(__file__).resolve().parent.parent / "bin" / "fmt.sh"', ['../bin/fmt.sh']);
test('python: Path(__file__).parents[1] / "x"', joined, 'p = pathlib.Path(__file__).parents[1] / "x.sh"', ['../x.sh']);
test('python: os.path.dirname(__file__) + "/x"', joined, 'os.system("sh " + os.path.dirname(__file__) + "/fmt.sh")', ['fmt.sh']);
test('python: os.path.join(os.path.dirname(os.path.abspath(__file__)), "x")', joined, 'run(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fmt.sh"))', ['fmt.sh']);
test('python: dirname twice is one step up', joined, 'run(os.path.join(os.path.dirname(os.path.dirname(__file__)), "bin", "x"))', ['../bin/x']);
test('python: an f-string {os.path.dirname(__file__)}/x', joined, 'os.system(f"sh {os.path.dirname(__file__)}/fmt.sh")', ['fmt.sh']);
test('perl: "$FindBin::Bin/x" and ${FindBin::Bin}', joined, 'do "$FindBin::Bin/common.pl"; system("${FindBin::Bin}/run.sh");', ['common.pl', 'run.sh']);
test('perl: dirname(__FILE__) . "/x"', joined, 'do dirname(__FILE__) . "/common.pl";', ['common.pl']);
test('ruby: "#{__dir__}/x" and File.join(__dir__, "x")', joined, 'load "#{__dir__}/a.rb"; load File.join(__dir__, "b.rb")', ['a.rb', 'b.rb']);
test('python: Path(__file__).parent.joinpath("a", "b")', joined, 'p = Path(__file__).parent.joinpath("sub", \'fmt.sh\')', ['sub/fmt.sh']);
test('node: path.join(__filename, "..", "x") steps up from the file', joined, 'require(path.join(__filename, "..", "lib", "x.js"));', ['lib/x.js']);
test('node: path.resolve(import.meta.filename, "../x")', joined, 'import(path.resolve(import.meta.filename, "../x.mjs"));', ['x.mjs']);
test('ruby: File.expand_path("../x", __FILE__) is the file\'s own directory\'s x', joined, 'load File.expand_path("../helper.rb", __FILE__)', ['helper.rb']);
test('ruby: File.expand_path("../x", __dir__) is one up', joined, 'load File.expand_path("../lib/h.rb", __dir__)', ['../lib/h.rb']);

// Not a path below the program's directory: nothing joined (a bare literal still counts from there, read elsewhere).
test('the directory alone, or printed, names nothing', joined, 'console.log(__dirname); process.chdir(__dirname);', []);
test('a name glued on without a "/" names no component', joined, 'require(__dirname + "plug.js")', []);
test('a computed piece ends the chain', joined, 'require(path.join(__dirname, name))', []);
test('a name holding __dirname is not the directory', joined, 'my__dirname + "/x.js"; x.__dirname + "/y.js"', []);
test('the file itself with a name glued on, or a join that stays below the file, names nothing', joined, 'x(__filename + "/x"); y(path.join(__filename, "x"))', []);
test('an interpolated piece is no literal', joined, 'require(__dirname + `/${name}.js`)', []);

function workspace(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-program-relative-')), 'ws');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

function protectedPaths(ws: string): { paths: string[]; unresolved: readonly string[] } {
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { paths: found.locations.map((l) => path.relative(ws, l.path)), unresolved: found.unresolved };
}

test("a hook program's literal counts from the program's directory and from where it runs", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    'tools/check.js': 'const path = require("path");\nrequire(path.join(__dirname, "plug.js"));\n',
    'tools/plug.js': 'require("child_process").execSync("sh lib/run.sh");\n',
    'tools/lib/run.sh': 'true\n',
    'tools/notes.md': 'an unrelated file beside the program\n',
    'plug.js': '\n',
  });
  const { paths, unresolved } = protectedPaths(ws);
  for (const expected of ['tools/check.js', 'tools/plug.js', 'plug.js', 'tools/lib/run.sh']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  // Over-denial: a file beside the program that no literal names stays writable.
  t.false(paths.includes('tools/notes.md'));
  t.deepEqual(unresolved, []);
});

test("a path joined on the program's own location is protected below its directory, read on", (t) => {
  for (const [program, code, target] of [
    ['tools/check.js', 'require(__dirname + "/plug.js");\n', 'tools/plug.js'],
    ['tools/check.js', 'require(`${__dirname}/../lib/plug.js`);\n', 'lib/plug.js'],
    ['tools/check.py', 'import subprocess\nfrom pathlib import Path\nsubprocess.run(["sh", str(Path(__file__).parent / "sub" / "fmt.sh")])\n', 'tools/sub/fmt.sh'],
    ['tools/check.pl', 'use FindBin;\ndo "$FindBin::Bin/common.pl";\n', 'tools/common.pl'],
  ] as const) {
    const command = program.endsWith('.py') ? 'python3' : program.endsWith('.pl') ? 'perl' : 'node';
    const ws = workspace(t, { '.git/hooks/pre-commit': `#!/bin/sh\nexec ${command} ${program}\n`, [program]: code, [target]: 'sh deeper.sh\n' });
    const { paths } = protectedPaths(ws);
    t.true(paths.includes(target), `${code}: ${paths.join(' ')}`);
    // Read on as a script: what it names from where the hook runs.
    t.true(paths.includes('deeper.sh'), `${code} read on: ${paths.join(' ')}`);
  }
});

test("a literal written absolute counts below the program's own directory too: a name bound to the directory", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    'tools/check.js': 'const here = __dirname;\nrequire(here + "/plug.js");\nrequire(here + "/lib/deep.js");\n',
    'tools/plug.js': '\n',
    'tools/other.js': '\n',
  });
  const { paths, unresolved } = protectedPaths(ws);
  for (const expected of ['tools/plug.js', 'tools/lib/deep.js']) t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  // Over-denial: the program's other neighbours stay writable, and a shell script's absolute words stay absolute.
  t.false(paths.includes('tools/other.js'));
  t.deepEqual(unresolved, []);
});

test("a shell script's absolute words are not taken below its directory", (t) => {
  const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec sh tools/check.sh\n', 'tools/check.sh': 'cat /plug.sh\n' });
  const { paths } = protectedPaths(ws);
  t.false(paths.includes('tools/plug.sh'), paths.join(' '));
});

test("a program run through a link names its literals from the link's directory too", (t) => {
  const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec node bin/check.js\n', 'tools/check.js': 'require(path.join(__dirname, "plug.js"));\n' });
  mkdirSync(path.join(ws, 'bin'));
  symlinkSync('../tools/check.js', path.join(ws, 'bin/check.js'));
  const { paths } = protectedPaths(ws);
  t.true(paths.includes('tools/plug.js'), paths.join(' '));
  t.true(paths.includes('bin/plug.js'), paths.join(' '));
});

test('a shell script is not program code: its words count from where it runs only', (t) => {
  const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec sh tools/check.sh\n', 'tools/check.sh': 'sh plug.sh\n' });
  const { paths } = protectedPaths(ws);
  t.true(paths.includes('plug.sh'), paths.join(' '));
  t.false(paths.includes('tools/plug.sh'), paths.join(' '));
});
