// Review s80c: a module a node program loads reaches the main program's folder WITHOUT a word s78a's
// LOADED_MAIN_PROGRAM names (`argv`, `require.cache`, `require`/`module` as a value): `new Error().stack` (its last
// frame with a file is the main program), `/proc/self/cmdline` read with fs, `process.report.getReport().header
// .commandLine`, `require("node:module")._cache` and `module.constructor._cache` (the module cache by another name).
// And, in the main program itself: a directory with a package.json `main`, a `\u{…}` escape with many zeros (valid
// JavaScript, which jsUnescaped's 1-6 digits skip). Each checked with node 20: it loads tools/lint.js (tools/pkg/impl.js).
// The hook runs `node tools/check.js`; one CONFINED call (`sh one.sh`, real bubblewrap) rewrites the loaded file;
// SAFE outcome asserted by hand: the user's `git commit` never runs the agent's code.
// Control: `process.argv[1]` in the module (fixed by s76y/s78a): stopped.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const JS = 'require("node:fs").writeFileSync("PWNED", "");';
const NODE_MAIN = 'require("./lib/util.js");\n';
const JOIN = (setup: string, expression: string) => `const path = require("node:path");\n${setup}\nrequire(path.join(path.dirname(${expression}), "lint.js"));\n`;

// [title, tools/check.js, tools/lib/util.js, the file the call rewrites, extra files]
const CASES: readonly (readonly [string, string, string, string, Readonly<Record<string, string>>])[] = [
  [
    'module: new Error().stack (last frame with a file)',
    NODE_MAIN,
    JOIN('const frames = new Error().stack.split("\\n").map((l) => /\\((\\/[^:]+):/.exec(l)).filter(Boolean);', 'frames.pop()[1]'),
    'tools/lint.js',
    {},
  ],
  [
    'module: /proc/self/cmdline read with fs',
    NODE_MAIN,
    JOIN('const words = require("node:fs").readFileSync("/proc/self/cmdline", "utf8").split("\\0");', 'path.resolve(words[1])'),
    'tools/lint.js',
    {},
  ],
  ['module: process.report.getReport().header.commandLine', NODE_MAIN, JOIN('const words = process.report.getReport().header.commandLine;', 'path.resolve(words[1])'), 'tools/lint.js', {}],
  ['module: Object.keys(require("node:module")._cache)[0]', NODE_MAIN, JOIN('const first = Object.keys(require("node:module")._cache)[0];', 'first'), 'tools/lint.js', {}],
  ['module: Object.keys(module.constructor._cache)[0]', NODE_MAIN, JOIN('const first = Object.keys(module.constructor._cache)[0];', 'first'), 'tools/lint.js', {}],
  ['module: require(process.cwd() + "/tools/lint.js")', NODE_MAIN, 'require(process.cwd() + "/tools/lint.js");\n', 'tools/lint.js', {}],
  [
    'main: require("./pkg"), tools/pkg/package.json {"main": "impl.js"}',
    'require("./pkg");\n',
    '\n',
    'tools/pkg/impl.js',
    { 'tools/pkg/package.json': '{ "main": "impl.js" }\n', 'tools/pkg/impl.js': '\n' },
  ],
  ['main: require("./\\u{000000006c}int.js")', 'require("./\\u{000000006c}int.js");\n', '\n', 'tools/lint.js', {}],
  ['main: require("./" + String.fromCharCode(108) + "int.js")', 'require("./" + String.fromCharCode(108) + "int.js");\n', '\n', 'tools/lint.js', {}],
  ['main: require(["./l", "int.js"].join(""))', 'require(["./l", "int.js"].join(""));\n', '\n', 'tools/lint.js', {}],
  ['main: require(`./${"l"}int.js`)', 'require(`./${"l"}int.js`);\n', '\n', 'tools/lint.js', {}],
  ['main: require("sj.tnil/.".split("").reverse().join(""))', 'require("sj.tnil/.".split("").reverse().join(""));\n', '\n', 'tools/lint.js', {}],
  ['control: module path.dirname(process.argv[1])', NODE_MAIN, JOIN('', 'process.argv[1]'), 'tools/lint.js', {}],
];

for (const [title, main, util, target, extra] of CASES)
  test(`hook runs node tools/check.js; ${title}; the call rewrites ${target}: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': `printf '%s\\n' '${JS}' > '${target}'\n`,
      'tools/check.js': main,
      'tools/lib/util.js': util,
      'tools/lint.js': '\n',
      'lint.js': '\n',
      'tools/lib/lint.js': '\n',
      ...extra,
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
