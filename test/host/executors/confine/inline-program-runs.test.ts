// What an inline program runs besides its imports (inline-program-runs.ts): the paths its string literals name, and
// the calls that run a file or command whose name it computes (unresolved). Expected outcomes stated by hand.
import test from 'ava';
import { computedRuns, literalPathNames } from '../../../../src/host/executors/confine/inline-program-runs.js';

test('the paths a program names in its string literals are what it may run: command lines and files', (t) => {
  t.deepEqual(literalPathNames(`import os; os.system("sh tools/x.sh --fix")`, 'python'), ['tools/x.sh']);
  t.deepEqual(literalPathNames(`subprocess.run(["./evil", "lint.py"])`, 'python'), ['./evil', 'lint.py']);
  t.deepEqual(literalPathNames('print `sh scripts/a.sh`', 'perl'), ['scripts/a.sh']);
  // Words that are not paths: messages, flags, URLs, bare names.
  t.deepEqual(literalPathNames(`print("[ERROR] done: https://example.com", "utf-8", "--fix", "make")`, 'python'), []);
});

const runsComputed: readonly [string, 'python' | 'node' | 'perl' | 'ruby', string][] = [
  ['do $f', 'perl', 'do $f'],
  ['do "$dir/x.pl"', 'perl', 'do "$dir/x.pl"'],
  ['require $ENV{HOOK}', 'perl', 'require $ENV{HOOK}'],
  ['eval $code', 'perl', 'eval $code'],
  ['system("sh", $f)', 'perl', 'system("sh", $f)'],
  ['print qx{sh $f}', 'perl', 'qx{sh $f}'],
  ['print `sh $f`', 'perl', '`sh $f`'],
  ['import runpy, sys; runpy.run_path(sys.argv[1])', 'python', 'run_path(sys.argv[1])'],
  ['exec(open(name).read())', 'python', 'exec(open(name).read())'],
  ['exec(open(f"{d}/x.py").read())', 'python', 'exec(open(f"{d}/x.py").read())'],
  ['exec(open(rf"{d}/x.py").read())', 'python', 'exec(open(rf"{d}/x.py").read())'],
  ['import os; os.system("sh " + f)', 'python', 'system("sh " + f)'],
  ['import subprocess, sys; subprocess.run(sys.argv[1:], check=True)', 'python', 'subprocess.run(sys.argv[1:], check=True)'],
  ['import importlib; importlib.import_module(name)', 'python', 'import_module(name)'],
  ['require(process.argv[1])', 'node', 'require(process.argv[1])'],
  ['import(`./${name}.mjs`)', 'node', 'import(`./${name}.mjs`)'],
  ["require('child_process').execSync(cmd)", 'node', 'execSync(cmd)'],
  ["require('child_process').exec(process.env.CMD)", 'node', '.exec(process.env.CMD)'],
  ['import importlib.util as u, sys; u.spec_from_file_location("m", sys.argv[1])', 'python', 'spec_from_file_location'],
  ['from runpy import run_path as rp; rp("x.py")', 'python', 'run_path'],
  ['load ENV["X"]', 'ruby', 'load ENV["X"]'],
  ['system("sh #{f}")', 'ruby', 'system("sh #{f}")'],
];
for (const [code, language, call] of runsComputed) {
  test(`a call that runs what the program computes is unresolved: ${language} ${code}`, (t) => {
    t.deepEqual(computedRuns(code, language), [call]);
  });
}

const runsWrittenOut: readonly [string, 'python' | 'node' | 'perl' | 'ruby'][] = [
  ['do { local $/; 1 }; eval { die }', 'perl'],
  ['require 5.010; require Foo::Bar; do "./tools/a.pl"; system("make", "test")', 'perl'],
  ['print `git diff --name-only`', 'perl'],
  ['import subprocess; subprocess.run(["git", "diff"], check=True, capture_output=True)', 'python'],
  ['exec(open("tools/d.py").read())', 'python'],
  ['import re; re.compile("x").match(s); eval("1 + 1")', 'python'],
  ['import json, sys; print(json.load(sys.stdin)["version"])', 'python'],
  ["require('child_process').execSync('git diff', { stdio: 'inherit' }); const p = require('./package.json')", 'node'],
  ['console.log(`${p.name}`); /a/.exec(s)', 'node'],
  ['require "json"; require_relative "lib/x"; system("rake")', 'ruby'],
];
for (const [code, language] of runsWrittenOut) {
  test(`a call with what it runs written out is read, not unresolved: ${language} ${code}`, (t) => {
    t.deepEqual(computedRuns(code, language), []);
  });
}
