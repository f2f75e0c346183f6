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

const HOST = { PATH: process.env['PATH'] ?? '' };

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
      programCommandTexts(code).map((run) => run.text),
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
function monorepo(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>>) {
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
  const found = toolFileReferences([], [ws], { environment: HOST, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
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
] as const)
  test(`closed world: a hook program that runs ${name} refuses every writer`, (t) => {
    const file = program.startsWith('import') ? 'tools/check.py' : 'tools/check.js';
    const { unresolved } = monorepo(t, `exec ${file.endsWith('.py') ? 'python3' : 'node'} ${file}`, { [file]: program });
    t.is(unresolved.length, 1, unresolved.join('\n'));
    t.true(unresolved[0]!.includes(`${file} line 2`), unresolved[0]);
  });

test('over-denial: a program that runs a command it computes, or one no runner starts, refuses nothing and names nothing', (t) => {
  const program = 'const cp = require("child_process");\ncp.execSync(process.argv[2], { cwd: process.argv[3] });\ncp.execFileSync("git", ["diff", "--cached"]);\n';
  const { unresolved, protects } = monorepo(t, 'exec node tools/check.js', { 'tools/check.js': program });
  t.deepEqual(unresolved, []);
  for (const each of ['packages/lint/bin/lint.js', 'node_modules/.bin/acme-lint', 'src/app.js']) t.false(protects(each), each);
});
