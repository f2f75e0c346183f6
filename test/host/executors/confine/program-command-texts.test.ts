// The command texts a hook PROGRAM runs through its process calls (program-command-texts.ts), handed to the shell
// reading of node_modules/.bin names (node-bin-runs.ts): `execSync("npx acme-lint")`, `execFileSync("npx", [...])`,
// `subprocess.run(["npx", ...])`, from where the program runs or the literal cwd it names; a name or cwd the program
// computes refuses every writer. Expected outcomes written out by hand.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { programCommandTexts } from '../../../../src/host/executors/confine/program-command-texts.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

// The user's PATH without node_modules/.bin entries: `npm test` adds one for the checkout and each directory above it
// (`/tmp/node_modules/.bin` for a clone in /tmp), which is above these workspaces and would put a runner in play.
const HOST = {
  PATH: (process.env['PATH'] ?? '')
    .split(':')
    .filter((entry) => !entry.endsWith('node_modules/.bin'))
    .join(':'),
};
/** The language of a table row's code: Python's and Perl's by their calls, else JavaScript. */
const languageOf = (code: string) => (/subprocess|\bos\.|asyncio/u.test(code) ? 'python' : /or die/u.test(code) ? 'perl' : 'node');

test('programCommandTexts: a string literal is shell text, an argv array is joined with shell quoting', (t) => {
  for (const [code, expected] of [
    ['require("node:child_process").execSync("npx acme-lint", { stdio: "inherit" });', 'npx acme-lint'],
    ['execFileSync("npx", ["acme-lint", "--fix"]);', "'npx' 'acme-lint' '--fix'"],
    ['child_process.spawnSync("npx", ["acme-lint"]);', "'npx' 'acme-lint'"],
    ['cp.spawn("npx", ["it\'s"]);', "'npx' 'it'\\''s'"],
    ['exec("npx acme-lint", (error) => {});', 'npx acme-lint'],
    ['await execa("npx", ["acme-lint"]);', "'npx' 'acme-lint'"],
    ['await $`npx acme-lint`;', 'npx acme-lint'],
    ['spawn("npx acme-lint", { shell: true });', 'npx acme-lint'],
    ['spawn("npx", ["a; npx b"], { shell: true });', 'npx a; npx b'],
    ['import subprocess\nsubprocess.run(["npx", "acme-lint"], check=True)\n', "'npx' 'acme-lint'"],
    ['subprocess.call("npx acme-lint", shell=True)', 'npx acme-lint'],
    ['subprocess.check_call(["npx acme-lint", "sh"], shell=True)', 'npx acme-lint'],
    ['os.system("npx acme-lint")', 'npx acme-lint'],
    ['from subprocess import run\nrun(["npx", "acme-lint"])', "'npx' 'acme-lint'"],
    ['subprocess.run([\n    "npx",\n    "acme-lint",\n])', "'npx' 'acme-lint'"],
    ['await asyncio.create_subprocess_exec("npx", "acme-lint")', "'npx' 'acme-lint'"],
    ['execFileSync("sh", ["-c", "npx acme-lint"])', "'sh' '-c' 'npx acme-lint'"],
    ['system("npx acme-lint") == 0 or die;', 'npx acme-lint'],
    ['system("npx", "acme-lint") == 0 or die;', "'npx' 'acme-lint'"],
  ] as const)
    t.deepEqual(
      programCommandTexts(code, languageOf(code)).map((run) => run.text),
      [expected],
      code,
    );
});

test('programCommandTexts: a value the program computes stands as an expansion the shell reading cannot spell out', (t) => {
  for (const [code, expected] of [
    ['execSync("npx " + tool)', 'npx "$(computed)"'],
    ['execSync(`npx ${tool} --fix`)', 'npx "$(computed)" --fix'],
    ['subprocess.run(["npx", tool])', `'npx' "$(computed)"`],
    ['subprocess.run(f"npx {tool}", shell=True)', 'npx "$(computed)"'],
    ['execSync(command)', '"$(computed)"'],
  ] as const)
    t.deepEqual(
      programCommandTexts(code).map((run) => run.text),
      [expected],
      code,
    );
});

test('programCommandTexts: a literal cwd is where the text runs; a computed one is a cd zotbox cannot spell out', (t) => {
  t.deepEqual(programCommandTexts('spawnSync("npx", ["acme-lint"], { cwd: "packages/app" })'), [{ text: "'npx' 'acme-lint'", line: 0, directory: 'packages/app' }]);
  t.deepEqual(programCommandTexts('x = 1\nsubprocess.run(["npx", "acme-lint"], cwd="packages/app")'), [{ text: "'npx' 'acme-lint'", line: 1, directory: 'packages/app' }]);
  t.deepEqual(programCommandTexts('spawn("npx", ["acme-lint"], { cwd: dir })'), [{ text: `cd "$(computed)" && 'npx' 'acme-lint'`, line: 0 }]);
  t.deepEqual(programCommandTexts('execSync("npx acme-lint", { cwd })'), [{ text: `cd "$(computed)" && npx acme-lint`, line: 0 }]);
  // The program's own directory, and where it runs, are known.
  t.deepEqual(programCommandTexts('execSync("npx acme-lint", { cwd: __dirname })'), [{ text: 'npx acme-lint', line: 0, directory: '.', ownDirectory: true }]);
  t.deepEqual(programCommandTexts('subprocess.run(["npx", "acme-lint"], cwd=os.path.dirname(os.path.abspath(__file__)))'), [
    { text: "'npx' 'acme-lint'", line: 0, directory: '.', ownDirectory: true },
  ]);
  t.deepEqual(programCommandTexts('execSync("npx acme-lint", { cwd: process.cwd() })'), [{ text: 'npx acme-lint', line: 0 }]);
});

test('programCommandTexts: calls that run no command are not read (a bare run() is any function, a string is no call)', (t) => {
  t.deepEqual(programCommandTexts('run(["npx", "acme-lint"])'), []);
  t.deepEqual(programCommandTexts('const text = "npx acme-lint";'), []);
});

/** A monorepo whose packages/lint bin is linked as node_modules/.bin/acme-lint (root) and packages/app/node_modules/.bin/app-lint. */
function monorepo(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>>, environment: Readonly<Record<string, string>> = HOST) {
  const ws = tempDir(t, 'zb-progruns-');
  const all: Record<string, string> = {
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nrequire("../lib/rules.js");\n',
    'packages/lint/lib/rules.js': 'module.exports = {};\n',
    'packages/lint/README.md': 'docs\n',
    'packages/app/bin/app-lint.js': '#!/usr/bin/env node\n',
    'src/app.js': 'x\n',
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    ...files,
  };
  for (const [name, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  chmodSync(path.join(ws, 'packages/lint/bin/lint.js'), 0o755);
  for (const name of ['node_modules/@acme', 'node_modules/.bin', 'packages/app/node_modules/.bin', '.git/objects', '.git/refs']) mkdirSync(path.join(ws, name), { recursive: true });
  symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
  symlinkSync('../@acme/lint/bin/lint.js', path.join(ws, 'node_modules/.bin/acme-lint'));
  symlinkSync('../../bin/app-lint.js', path.join(ws, 'packages/app/node_modules/.bin/app-lint'));
  writeFileSync(path.join(ws, '.git/HEAD'), 'ref: refs/heads/main\n');
  const found = toolFileReferences([], [ws], { environment, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const [name, program, file] of [
  ['execSync("npx acme-lint") (node)', 'require("node:child_process").execSync("npx acme-lint", { stdio: "inherit" });\n', 'tools/check.js'],
  ['execFileSync("npx", ["acme-lint"]) (node)', 'const { execFileSync } = require("child_process");\nexecFileSync("npx", ["acme-lint"]);\n', 'tools/check.js'],
  ['spawnSync("npm", ["exec", "--", "acme-lint"]) (node)', 'require("child_process").spawnSync("npm", ["exec", "--", "acme-lint"]);\n', 'tools/check.js'],
  ['subprocess.run(["npx", "acme-lint"]) (python)', 'import subprocess\nsubprocess.run(["npx", "acme-lint"], check=True)\n', 'tools/check.py'],
  ['os.system("npx acme-lint") (python)', 'import os\nos.system("npx acme-lint")\n', 'tools/check.py'],
] as const)
  test(`a workspace bin a hook program runs through npx is read where its link leads: ${name}`, (t) => {
    const interpreter = file.endsWith('.py') ? 'python3' : 'node';
    const { unresolved, protects } = monorepo(t, `exec ${interpreter} ${file}`, { [file]: program });
    t.deepEqual(unresolved, []);
    for (const each of ['packages/lint/bin/lint.js', 'packages/lint/lib/rules.js', 'node_modules/.bin/acme-lint']) t.true(protects(each), `${name}: ${each}`);
    // Over-denial: the rest of the workspace package and ordinary files stay the agent's.
    for (const each of ['packages/lint/README.md', 'src/app.js']) t.false(protects(each), `${name}: ${each}`);
  });

test('a literal cwd moves where the name is looked up: packages/app/node_modules/.bin first', (t) => {
  const program = 'require("child_process").execFileSync("npx", ["app-lint"], { cwd: "packages/app" });\n';
  const { unresolved, protects } = monorepo(t, 'exec node tools/check.js', { 'tools/check.js': program });
  t.deepEqual(unresolved, []);
  t.true(protects('packages/app/node_modules/.bin/app-lint'));
  t.true(protects('packages/app/bin/app-lint.js'));
});

test("a cwd that is the program's own directory looks the name up from there", (t) => {
  const program = 'require("child_process").execFileSync("npx", ["app-lint"], { cwd: __dirname });\n';
  const { unresolved, protects } = monorepo(t, 'exec node packages/app/check.js', { 'packages/app/check.js': program });
  t.deepEqual(unresolved, []);
  t.true(protects('packages/app/node_modules/.bin/app-lint'));
  t.true(protects('packages/app/bin/app-lint.js'));
});

for (const [name, program] of [
  ['a computed name: execSync("npx " + tool)', 'const tool = process.argv[2];\nrequire("child_process").execSync("npx " + tool);\n'],
  ['a computed name: subprocess.run(["npx", tool])', 'import subprocess, sys\nsubprocess.run(["npx", sys.argv[1]])\n'],
  ['a computed cwd: { cwd: dir }', 'const dir = process.argv[2];\nrequire("child_process").execSync("npx acme-lint", { cwd: dir });\n'],
  // Review s08e: a command the program computes, no runner in play: a file's text, a name from a folder, a helper's parameter.
  ["a file's text as the command: execSync(readFileSync(f))", 'const fs = require("node:fs");\nrequire("child_process").execSync(fs.readFileSync("tools/cmd.txt", "utf8"));\n'],
  [
    'a name it lists as the command: execFileSync("./" + name)',
    'const names = require("node:fs").readdirSync("tools/rules");\nfor (const name of names) require("child_process").execFileSync("./" + name, [], { cwd: "tools/rules" });\n',
  ],
  ["a file's text as the command: subprocess.run(open(f).read(), shell=True)", 'import subprocess\nsubprocess.run(open("tools/cmd.txt").read(), shell=True)\n'],
  ['a listed name as the command: os.system("./" + name)', 'import os\nfor name in os.listdir("tools/rules"): os.system("./" + name)\n'],
] as const)
  test(`closed world: a hook program that runs ${name} refuses every writer`, (t) => {
    const file = program.startsWith('import') ? 'tools/check.py' : 'tools/check.js';
    const { unresolved } = monorepo(t, `exec ${file.endsWith('.py') ? 'python3' : 'node'} ${file}`, { [file]: program });
    t.is(unresolved.length, 1, unresolved.join('\n'));
    t.true(unresolved[0]!.includes(`${file} line 2`), unresolved[0]);
  });

test('a program that runs a command it computes refuses even where no runner is in play (review s08e: the command may be a project file); one no runner starts names nothing', (t) => {
  const program = 'const cp = require("child_process");\ncp.execSync(process.argv[2], { cwd: process.argv[3] });\ncp.execFileSync("git", ["diff", "--cached"]);\n';
  const { unresolved, protects } = monorepo(t, 'exec node tools/check.js', { 'tools/check.js': program });
  t.is(unresolved.length, 1);
  t.regex(unresolved[0]!, /runs a command the program computes.*it may be any file/u);
  for (const each of ['packages/lint/bin/lint.js', 'node_modules/.bin/acme-lint', 'src/app.js']) t.false(protects(each), each);
});

const texts = (code: string, language: 'node' | 'python' | 'perl' | 'ruby') => programCommandTexts(code, language).map((run) => run.text);

test('programCommandTexts: a name is each value the code gives it (a helper parameter, a loop variable, a constant)', (t) => {
  const NODE = 'const { execSync, execFileSync } = require("child_process");\n';
  for (const [code, language, expected] of [
    [`${NODE}const run = (cmd) => execSync(cmd, { stdio: "inherit" });\nrun("npx acme-lint");\nrun("npx other");\n`, 'node', ['npx acme-lint', 'npx other']],
    [`${NODE}function sh(cmd, options) {\n  return execSync(cmd, options);\n}\nsh("npx acme-lint", {});\n`, 'node', ['npx acme-lint']],
    [`${NODE}const steps = ["npx acme-lint", "npx other"];\nfor (const step of steps) execSync(step);\n`, 'node', ['npx acme-lint', 'npx other']],
    [`${NODE}for (const step of ["npx acme-lint"]) execSync(step);\n`, 'node', ['npx acme-lint']],
    [`${NODE}["npx acme-lint"].forEach((step) => execSync(step));\n`, 'node', ['npx acme-lint']],
    [`${NODE}const NPX = "npx";\nexecFileSync(NPX, ["acme-lint"]);\n`, 'node', ["'npx' 'acme-lint'"]],
    [`${NODE}const ARGS = ["acme-lint", "--fix"];\nexecFileSync("npx", ARGS);\n`, 'node', ["'npx' 'acme-lint' '--fix'"]],
    [`${NODE}const tool = "acme-lint";\nexecSync(\`npx \${tool} --fix\`);\n`, 'node', ['npx acme-lint --fix']],
    [`${NODE}const NPX = "npx";\nexecSync(NPX + " acme-lint");\n`, 'node', ['npx acme-lint']],
    ['import subprocess\n\n\ndef sh(cmd):\n    subprocess.run(cmd, shell=True, check=True)\n\n\nsh("npx acme-lint")\nsh(cmd="npx other")\n', 'python', ['npx acme-lint', 'npx other']],
    ['import subprocess\nfor cmd in ["npx acme-lint", "npx other"]:\n    subprocess.run(cmd, shell=True)\n', 'python', ['npx acme-lint', 'npx other']],
    ['import subprocess\nCMD = ["npx", "acme-lint"]\nsubprocess.run(CMD)\n', 'python', ["'npx' 'acme-lint'"]],
    ['import subprocess\ntool = "acme-lint"\nsubprocess.run(f"npx {tool}", shell=True)\n', 'python', ['npx acme-lint']],
    ['my $tool = "acme-lint";\nsystem("npx $tool") == 0 or die;\n', 'perl', ['npx acme-lint']],
  ] as const)
    t.deepEqual(texts(code, language), [...expected], code);
});

test('programCommandTexts: a command whose program stays computed is marked; one whose arguments are computed is not', (t) => {
  for (const [code, language, expected] of [
    ['execSync(process.argv[2]);', 'node', [{ text: '"$(computed)"', computed: true }]],
    ['execSync("cd packages && " + process.env.CMD);', 'node', [{ text: 'cd packages && "$(computed)"', computed: true }]],
    ['execFileSync("sh", ["-c", process.argv[2]]);', 'node', [{ text: `'sh' '-c' "$(computed)"`, computed: true }]],
    ['let cmd = "npx acme-lint";\ncmd += " --fix";\nexecSync(cmd);', 'node', [{ text: 'npx acme-lint' }, { text: '"$(computed)"', computed: true }]],
    // A helper another file may call (exported) or one handed on takes values zotbox cannot see.
    ['export function run(cmd) {\n  execSync(cmd);\n}\nrun("npx acme-lint");', 'node', [{ text: 'npx acme-lint' }, { text: '"$(computed)"', computed: true }]],
    ['const run = (cmd) => execSync(cmd);\nsteps.forEach(run);', 'node', [{ text: '"$(computed)"', computed: true }]],
    ['execSync(`git diff --name-only ${base}`);', 'node', [{ text: 'git diff --name-only "$(computed)"' }]],
    ['subprocess.run(["git", "diff", ref])', 'python', [{ text: `'git' 'diff' "$(computed)"` }]],
    // The interpreter itself is known.
    ['spawnSync(process.execPath, ["tools/lint.js"]);', 'node', [{ text: "'node' 'tools/lint.js'" }]],
    ['subprocess.run([sys.executable, "tools/lint.py"])', 'python', [{ text: "'python3' 'tools/lint.py'" }]],
  ] as const)
    t.deepEqual(
      programCommandTexts(code, language).map(({ text, computed }) => ({ text, ...(computed === true ? { computed } : {}) })),
      [...expected],
      code,
    );
});

test('programCommandTexts: process calls of each language, under the names the code gives them', (t) => {
  for (const [code, language, expected] of [
    ['import os\nos.execvp("npx", ["npx", "acme-lint"])', 'python', "'npx' 'acme-lint'"],
    ['import os\nos.execlp("npx", "npx", "acme-lint")', 'python', "'npx' 'acme-lint'"],
    ['import os\nos.execve("/usr/bin/npx", ["npx", "acme-lint"], os.environ)', 'python', "'/usr/bin/npx' 'acme-lint'"],
    ['import os\nos.spawnvp(os.P_WAIT, "npx", ["npx", "acme-lint"])', 'python', "'npx' 'acme-lint'"],
    ['import os\nos.spawnlp(os.P_WAIT, "npx", "npx", "acme-lint")', 'python', "'npx' 'acme-lint'"],
    ['import os\nos.posix_spawnp("npx", ["npx", "acme-lint"], os.environ)', 'python', "'npx' 'acme-lint'"],
    ['import pty\npty.spawn(["npx", "acme-lint"])', 'python', "'npx' 'acme-lint'"],
    ['import subprocess as sp\nsp.run(["npx", "acme-lint"])', 'python', "'npx' 'acme-lint'"],
    ['from subprocess import check_call as cc\ncc(["npx", "acme-lint"])', 'python', "'npx' 'acme-lint'"],
    ['from os import system as sh\nsh("npx acme-lint")', 'python', 'npx acme-lint'],
    ['my $out = `npx acme-lint`;', 'perl', 'npx acme-lint'],
    ['print qx(npx acme-lint);', 'perl', 'npx acme-lint'],
    ['print qx{npx acme-lint};', 'perl', 'npx acme-lint'],
    ['exec "npx", "acme-lint";', 'perl', "'npx' 'acme-lint'"],
    ['system "npx acme-lint";', 'perl', 'npx acme-lint'],
    ['exec("npx acme-lint") or die;', 'perl', 'npx acme-lint'],
    ['open(my $fh, "-|", "npx", "acme-lint") or die;', 'perl', "'npx' 'acme-lint'"],
    ["open my $fh, '-|', 'npx acme-lint';", 'perl', 'npx acme-lint'],
    ['open(FH, "npx acme-lint |") or die;', 'perl', 'npx acme-lint'],
    ['out = `npx acme-lint`', 'ruby', 'npx acme-lint'],
    ['out = %x(npx acme-lint)', 'ruby', 'npx acme-lint'],
    ['exec("npx", "acme-lint")', 'ruby', "'npx' 'acme-lint'"],
    ['pid = spawn("npx acme-lint")', 'ruby', 'npx acme-lint'],
    ['system "npx acme-lint"', 'ruby', 'npx acme-lint'],
    ['IO.popen(["npx", "acme-lint"]) { |io| io.read }', 'ruby', "'npx' 'acme-lint'"],
    ['out, status = Open3.capture2("npx acme-lint")', 'ruby', 'npx acme-lint'],
    ['Open3.capture3({ "CI" => "1" }, "npx", "acme-lint")', 'ruby', "'npx' 'acme-lint'"],
    ['tool = "acme-lint"\nsystem("npx #{tool}")', 'ruby', 'npx acme-lint'],
    ['import { execSync as sh } from "node:child_process";\nsh("npx acme-lint", { stdio: "inherit" });', 'node', 'npx acme-lint'],
    ['const { execSync: sh } = require("child_process");\nsh("npx acme-lint");', 'node', 'npx acme-lint'],
    ['const cp = require("child_process");\nconst sh = cp.execSync;\nsh("npx acme-lint");', 'node', 'npx acme-lint'],
    ['const sh = require("child_process").execFileSync;\nsh("npx", ["acme-lint"]);', 'node', "'npx' 'acme-lint'"],
    ['const run = promisify(exec);\nawait run("npx acme-lint");', 'node', 'npx acme-lint'],
    // Offsets stay the code's past a character of two UTF-16 units.
    ['console.log("🎉 done");\nrequire("child_process").execSync("npx acme-lint");', 'node', 'npx acme-lint'],
  ] as const)
    t.deepEqual(texts(code, language), [expected], code);
});

test('programCommandTexts: a call in a comment or a string is no call', (t) => {
  for (const [code, language] of [
    ['// execSync("npx acme-lint")\nconsole.log(1);', 'node'],
    ['/* spawn("npx", ["acme-lint"]) */', 'node'],
    ['console.log("run execSync(npx acme-lint) by hand");', 'node'],
    ['# subprocess.run(["npx", "acme-lint"])\nprint(1)', 'python'],
    ['print("os.system(npx acme-lint)")', 'python'],
    ['# system("npx acme-lint");\nprint 1;', 'perl'],
    ['# `npx acme-lint`\nputs 1', 'ruby'],
    // Documentation: Perl's POD and Ruby's =begin/=end blocks, and prose after a call's name.
    ['print 1;\n\n=head1 USAGE\n\nRun system "npx acme-lint" or `npx acme-lint`.\n\n=cut\n\nprint 2;', 'perl'],
    ['=begin\nsystem "npx acme-lint"\n=end\nputs 1', 'ruby'],
    ['print 1;\n__END__\nsystem("npx acme-lint");', 'perl'],
    ['# see the stat() family of system calls\nmy $x = 1; # system itself', 'perl'],
    // JavaScript's backquotes are a string, not a command.
    ['const text = `npx acme-lint`;', 'node'],
    // RegExp's and a database's exec are no process call; nor is a function merely bound to subprocess's name.
    ['const m = /npx (\\S+)/.exec(line);\nconst r = re.exec(line);', 'node'],
    ['db.exec("npx acme-lint");', 'node'],
    ['result = call\nresult("npx acme-lint")', 'python'],
  ] as const)
    t.deepEqual(texts(code, language), [], code);
});

for (const [name, program, file] of [
  ['a fallback names the runner', 'const cmd = process.argv[2] || "npx acme-lint";\nrequire("child_process").execSync(cmd);\n', 'tools/check.js'],
  ['a literal is a name node_modules/.bin holds', 'const tools = { lint: "acme-lint" };\nrequire("child_process").execSync(tools[process.argv[2]]);\n', 'tools/check.js'],
  ['an exported helper', 'const { execSync } = require("child_process");\nexports.run = (cmd) => execSync(cmd);\nexecSync("npx acme-lint");\n', 'tools/check.js'],
  ['python: a helper another module calls', 'import subprocess\ndef sh(cmd):\n    subprocess.run(cmd, shell=True)\nsh(" ".join(["npx"] + TOOLS))\n', 'tools/check.py'],
] as const)
  test(`closed world: a computed command where a package runner is in play refuses every writer: ${name}`, (t) => {
    const { unresolved } = monorepo(t, `exec ${file.endsWith('.py') ? 'python3' : 'node'} ${file}`, { [file]: program });
    t.true(
      unresolved.some((reason) => reason.includes('a command the program computes')),
      unresolved.join('\n'),
    );
    // The reason names the runner in play, not only that the command may be any file.
    t.false(
      unresolved.some((reason) => reason.includes("it may be any file, the project's own too")),
      unresolved.join('\n'),
    );
  });

test('closed world: a computed command with node_modules/.bin on the PATH it runs with refuses every writer', (t) => {
  const program = 'require("child_process").execSync(process.argv[2]);\n';
  const { unresolved } = monorepo(t, 'exec node tools/check.js', { 'tools/check.js': program }, { PATH: `node_modules/.bin:${HOST.PATH}` });
  t.is(unresolved.length, 1, unresolved.join('\n'));
  t.true(unresolved[0]!.includes('tools/check.js line 1'), unresolved[0]);
  t.true(unresolved[0]!.includes('the PATH it runs with holds'), unresolved[0]);
});

test('over-denial: a comment naming a runner runs nothing; a helper followed to its literals refuses nothing', (t) => {
  const program = '// run with npx acme-lint when you need it\nconst { execSync } = require("child_process");\nconst run = (cmd) => execSync(cmd);\nrun("git diff --name-only");\n';
  const { unresolved, protects } = monorepo(t, 'exec node tools/check.js', { 'tools/check.js': program });
  t.deepEqual(unresolved, []);
  t.false(protects('src/app.js'));
});

test('a helper followed to its literal protects the bin it runs', (t) => {
  const program = 'const { execSync } = require("child_process");\nconst run = (cmd) => execSync(cmd, { stdio: "inherit" });\nrun("npx acme-lint");\n';
  const { unresolved, protects } = monorepo(t, 'exec node tools/check.js', { 'tools/check.js': program });
  t.deepEqual(unresolved, []);
  for (const each of ['packages/lint/bin/lint.js', 'node_modules/.bin/acme-lint']) t.true(protects(each), each);
  t.false(protects('src/app.js'));
});
