// What a hook program runs after it moves its own working directory (program-working-directories.ts), with options held
// in a name (program-call-options.ts), from a list it builds or takes apart (program-command-values.ts listChanges), and
// with a package's resolved path joined on (program-path-joins.ts MODULE): review s46u findings 1, 2 and 4. Each
// expected run (text and where) written out by hand; what cannot be spelled out runs after a computed cd or holds a
// computed operand, which refuses every writer.
import test from 'ava';
import { programCommandTexts } from '../../../../src/host/executors/confine/program-command-texts.js';

const NODE = 'const { execFileSync } = require("node:child_process");\nconst path = require("node:path");\nconst SCRIPTS = "scripts";\n';
const PYTHON = 'import os\nimport subprocess\nSCRIPTS = "scripts"\n';
const runs = (code: string, language: 'node' | 'python' | 'perl' | 'ruby') =>
  programCommandTexts(code, language, ['/ws/.git/hooks']).map((run) => `${run.directory ?? '.'}: ${run.text}${run.computedOperand === undefined ? '' : ` [${run.computedOperand}]`}`);

test('a literal chdir places every call there as well as at the start, under any name it is bound to', (t) => {
  const sh = `execFileSync("sh", ["lint.sh"]);\n`;
  for (const [code, language] of [
    [`${NODE}process.chdir("scripts");\n${sh}`, 'node'],
    [`${NODE}const { chdir } = process;\nchdir(SCRIPTS);\n${sh}`, 'node'],
    [`${NODE}const { chdir: cd } = process;\ncd("scripts");\n${sh}`, 'node'],
    [`${NODE}const cd = process.chdir;\ncd("scripts");\n${sh}`, 'node'],
    [`${PYTHON}os.chdir(SCRIPTS)\nsubprocess.run(["sh", "lint.sh"])\n`, 'python'],
    [`${PYTHON}from os import chdir as cd\ncd("scripts")\nsubprocess.run(["sh", "lint.sh"])\n`, 'python'],
    [`${PYTHON}from contextlib import chdir\nwith chdir("scripts"):\n    subprocess.run(["sh", "lint.sh"])\n`, 'python'],
  ] as const)
    t.deepEqual(runs(code, language), [".: 'sh' 'lint.sh'", "scripts: 'sh' 'lint.sh'"], code);
  t.deepEqual(runs('chdir "scripts" or die;\nsystem("sh", "lint.sh");\n', 'perl'), [".: 'sh' 'lint.sh'", "scripts: 'sh' 'lint.sh'"]);
  t.deepEqual(runs('Dir.chdir("scripts")\nsystem("sh", "lint.sh")\n', 'ruby'), [".: 'sh' 'lint.sh'", "scripts: 'sh' 'lint.sh'"]);
});

test('a chdir zotbox cannot spell out is a computed cd before every call (its relative operands computed)', (t) => {
  for (const [code, language] of [
    [`${NODE}process.chdir(process.argv[2]);\nexecFileSync("sh", ["lint.sh"]);\n`, 'node'],
    [`${NODE}[SCRIPTS].forEach(process.chdir);\nexecFileSync("sh", ["lint.sh"]);\n`, 'node'],
    [`${PYTHON}os.fchdir(fd)\nsubprocess.run(["sh", "lint.sh"])\n`, 'python'],
    [`${PYTHON}os.chdir()\nsubprocess.run(["sh", "lint.sh"])\n`, 'python'],
  ] as const)
    t.deepEqual(runs(code, language), [`.: cd "$(computed)" && 'sh' 'lint.sh' [sh]`], code);
});

test("over-denial: Ruby's chdir: option is the call's cwd, not a move; a cwd written in the call stays where it is", (t) => {
  t.deepEqual(runs('system("sh", "lint.sh", chdir: "scripts")\n', 'ruby'), ["scripts: 'sh' 'lint.sh'"]);
  t.deepEqual(runs(`${NODE}process.chdir("a");\nexecFileSync("sh", ["x.sh"], { cwd: "b" });\n`, 'node'), ["b: 'sh' 'x.sh'", "a/b: 'sh' 'x.sh'"]);
});

test('an options object held in a name is followed; one zotbox cannot spell out is a computed cwd', (t) => {
  t.deepEqual(runs(`${NODE}const opts = { cwd: "scripts", stdio: "inherit" };\nexecFileSync("sh", ["lint.sh"], opts);\n`, 'node'), ["scripts: 'sh' 'lint.sh'"]);
  t.deepEqual(runs(`${NODE}const base = { cwd: SCRIPTS };\nconst opts = { ...base };\nexecFileSync("sh", ["lint.sh"], opts);\n`, 'node'), ["scripts: 'sh' 'lint.sh'"]);
  t.deepEqual(runs(`${NODE}const opts = { stdio: "inherit" };\nopts.cwd = "scripts";\nexecFileSync("sh", ["lint.sh"], opts);\n`, 'node'), ["scripts: 'sh' 'lint.sh'", ".: 'sh' 'lint.sh'"]);
  t.deepEqual(runs(`${PYTHON}kw = {"cwd": "scripts"}\nsubprocess.run(["sh", "lint.sh"], **kw)\n`, 'python'), ["scripts: 'sh' 'lint.sh'"]);
  for (const code of [
    `${NODE}const opts = loadOptions();\nexecFileSync("sh", ["lint.sh"], opts);\n`,
    `${NODE}execFileSync("sh", ["lint.sh"], options);\n`,
    `${NODE}const opts = {};\nObject.assign(opts, more);\nexecFileSync("sh", ["lint.sh"], opts);\n`,
  ])
    t.true(runs(code, 'node').includes(`.: cd "$(computed)" && 'sh' 'lint.sh' [sh]`), code);
  t.deepEqual(runs(`${NODE}const opts = { stdio: "inherit" };\nexecFileSync("sh", ["lint.sh"], opts);\n`, 'node'), [".: 'sh' 'lint.sh'"]);
});

test('a list the program builds or takes apart is read with what each change puts in it', (t) => {
  const join = 'path.join(SCRIPTS, "lint.sh")';
  for (const [code, language, expected] of [
    [`${NODE}const args = [];\nargs.push(${join});\nexecFileSync("sh", args);\n`, 'node', ["'sh' 'scripts/lint.sh'"]],
    [`${NODE}const cmd = ["sh", ${join}];\nexecFileSync(cmd[0], cmd.slice(1));\n`, 'node', ["'sh' 'scripts/lint.sh'"]],
    [`${NODE}const [cmd, ...args] = ["sh", ${join}];\nexecFileSync(cmd, args);\n`, 'node', ["'sh' 'scripts/lint.sh'"]],
    [`${NODE}const base = ["sh"];\nexecFileSync("env", base.concat([${join}]));\n`, 'node', ["'env' 'sh' 'scripts/lint.sh'"]],
    [`${NODE}const more = [${join}];\nexecFileSync("env", ["sh", ...more]);\n`, 'node', ["'env' 'sh' 'scripts/lint.sh'"]],
    [`${PYTHON}cmd = ["sh"]\ncmd.append(os.path.join(SCRIPTS, "lint.sh"))\nsubprocess.run(cmd)\n`, 'python', ["'sh' 'scripts/lint.sh'"]],
    [`${PYTHON}cmd = ["sh"]\ncmd += [os.path.join(SCRIPTS, "lint.sh")]\nsubprocess.run(cmd)\n`, 'python', ["'sh' 'scripts/lint.sh'"]],
    [`${PYTHON}cmd = ["sh"]\ncmd.extend([os.path.join(SCRIPTS, "lint.sh")])\nsubprocess.run(cmd)\n`, 'python', ["'sh' 'scripts/lint.sh'"]],
    [`${PYTHON}cmd, *rest = ["sh", os.path.join(SCRIPTS, "lint.sh")]\nsubprocess.run([cmd, *rest])\n`, 'python', ["'sh' 'scripts/lint.sh'"]],
    // Put first or anywhere: read both ways (the program word may be either).
    [`${NODE}const args = ["x.sh"];\nargs.unshift("sh");\nexecFileSync("git", args);\n`, 'node', ["'git' 'x.sh'", "'git' 'sh' 'x.sh'", "'git' 'x.sh' 'sh'"]],
  ] as const)
    t.deepEqual(
      runs(code, language).map((line) => line.replace(/^\.: /u, '')),
      [...expected],
      code,
    );
});

test('closed world: a list changed with a value zotbox cannot spell out, or reordered, holds a computed operand', (t) => {
  t.deepEqual(runs(`${NODE}const args = [];\nargs.push(process.argv[2]);\nexecFileSync("sh", args);\n`, 'node'), [`.: 'sh' "$(computed)" [sh]`]);
  t.deepEqual(runs(`${PYTHON}cmd = ["sh"]\ncmd += extra()\nsubprocess.run(cmd)\n`, 'python'), [`.: 'sh' "$(computed)" [sh]`]);
  t.true(runs(`${NODE}const args = ["git", "x.sh"];\nargs.reverse();\nexecFileSync(args[0], args.slice(1));\n`, 'node').some((line) => line.includes('"$(computed)"')));
});

test("a package's resolved path joined on is computed; alone it is the module it names", (t) => {
  for (const operand of ['path.join(require.resolve("@acme/lint/package.json"), "..", "bin", "lint.js")', 'path.resolve(require.resolve("@acme/lint/package.json"), "../bin/lint.js")'])
    t.deepEqual(runs(`${NODE}execFileSync("node", [${operand}]);\n`, 'node'), [`.: 'node' "$(computed)" [node]`], operand);
  t.deepEqual(runs(`${NODE}execFileSync("node", [require.resolve("@acme/lint/package.json") + "/../bin/lint.js"]);\n`, 'node'), [`.: 'node' "$(computed)"'/../bin/lint.js' [node]`]);
  t.deepEqual(runs(`${NODE}const P = require.resolve("@acme/lint/package.json");\nexecFileSync("node", [path.join(P, "..", "x.js")]);\n`, 'node'), [`.: 'node' "$(computed)" [node]`]);
  t.deepEqual(runs(`${NODE}execFileSync("node", [require.resolve("@acme/lint/bin/lint.js")]);\n`, 'node'), [".: 'node' '@acme/lint/bin/lint.js'"]);
});
