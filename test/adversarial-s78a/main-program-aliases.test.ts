// Review s78a: the main program's place, reached from a module by spellings review s76y's MAIN_PROGRAM regexes
// miss (they match `process.argv` followed by `[1]`, `.at(1)`, `.slice(0|1)`, `require.main`, `module.parent`,
// `__main__.__file__`, `sys.argv[0]`...). Each case: the hook runs `node tools/check.js` (python3 tools/check.py, perl
// tools/check.pl), which loads tools/lib/util.*, which loads tools/lint.* (beside the MAIN program) through a spelling
// the regexes miss (each checked by hand with node 20 / python 3.11 / perl 5.36: it loads tools/lint.*). One confined
// call rewrites tools/lint.*: SAFE outcome asserted by hand: the user's `git commit` never runs the agent's code.
// Control: `process.argv[1]` (fixed by s76y): stopped.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const JS = 'require("node:fs").writeFileSync("PWNED", "");';
const PY = 'open("PWNED", "w").close()';
const PL = 'open(my $f, ">", "PWNED"); close($f);';

const NODE_MAIN = 'require("./lib/util.js");\n';
const PY_MAIN = 'from lib import util\n';
const JOIN = (expression: string) => `const path = require("node:path");\nrequire(path.join(path.dirname(${expression}), "lint.js"));\n`;
const PY_LOAD = (expression: string) =>
  `import os, sys, inspect, importlib.util as u\np = os.path.join(os.path.dirname(${expression}), "lint.py")\ns = u.spec_from_file_location("x", p)\ns.loader.exec_module(u.module_from_spec(s))\n`;

// [title, interpreter, main, main text, module, module text, loaded file, payload]
const CASES: readonly (readonly [string, string, string, string, string, string, string, string])[] = [
  ['process.argv.at(-1)', 'node', 'check.js', NODE_MAIN, 'util.js', JOIN('process.argv.at(-1)'), 'lint.js', JS],
  ['process["argv"][1]', 'node', 'check.js', NODE_MAIN, 'util.js', JOIN('process["argv"][1]'), 'lint.js', JS],
  ['Object.keys(require.cache)[0]', 'node', 'check.js', NODE_MAIN, 'util.js', JOIN('Object.keys(require.cache)[0]'), 'lint.js', JS],
  ['const { argv } = process; argv[1]', 'node', 'check.js', NODE_MAIN, 'util.js', `const { argv } = process;\n${JOIN('argv[1]')}`, 'lint.js', JS],
  ['const r = require; r.main.require', 'node', 'check.js', NODE_MAIN, 'util.js', 'const r = require;\nr.main.require("./lint.js");\n', 'lint.js', JS],
  ['const { main } = require; main.require', 'node', 'check.js', NODE_MAIN, 'util.js', 'const { main } = require;\nmain.require("./lint.js");\n', 'lint.js', JS],
  ['process.argv.find(...)', 'node', 'check.js', NODE_MAIN, 'util.js', JOIN('process.argv.find((a) => a.endsWith("check.js"))'), 'lint.js', JS],
  ['process.argv.pop()', 'node', 'check.js', NODE_MAIN, 'util.js', JOIN('process.argv.pop()'), 'lint.js', JS],
  ['python import __main__ as m; m.__file__', 'python3', 'check.py', PY_MAIN, 'util.py', `import __main__ as m\n${PY_LOAD('m.__file__')}`, 'lint.py', PY],
  ['python sys.orig_argv[1]', 'python3', 'check.py', PY_MAIN, 'util.py', PY_LOAD('sys.orig_argv[1]'), 'lint.py', PY],
  ['python inspect.stack()[-1].filename', 'python3', 'check.py', PY_MAIN, 'util.py', PY_LOAD('inspect.stack()[-1].filename'), 'lint.py', PY],
  [
    "perl: check.pl does tools/lib/util.pl, whose $FindBin::Bin is the MAIN script's folder (a .pl, not a .pm)",
    'perl',
    'check.pl',
    'use FindBin;\ndo "$FindBin::Bin/lib/util.pl";\n',
    'util.pl',
    'use FindBin;\ndo "$FindBin::Bin/lint.pl";\n1;\n',
    'lint.pl',
    PL,
  ],
];

const files = (interpreter: string, main: string, mainText: string, module: string, moduleText: string, file: string, payload: string) => ({
  'src.txt': '1\n',
  'one.sh': `printf '%s\\n' '${payload}' > 'tools/${file}'\n`,
  [`tools/${main}`]: mainText,
  [`tools/lib/${module}`]: moduleText,
  [`tools/${file}`]: '\n',
  [file]: '\n',
  [`tools/lib/${file}`]: '\n',
  ...(interpreter === 'python3' ? { 'tools/lib/__init__.py': '' } : {}),
  '.git/hooks/pre-commit': `#!/bin/sh\nexec ${interpreter} tools/${main}\n`,
});

for (const [title, interpreter, main, mainText, module, moduleText, file, payload] of CASES) {
  test(`hook runs ${interpreter} tools/${main}; tools/lib/${module} loads tools/${file} by ${title}; the call rewrites tools/${file}: git runs the user's code only`, async (t) => {
    const ws = project(t, files(interpreter, main, mainText, module, moduleText, file, payload));
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
}

test('control: tools/lib/util.js loads tools/lint.js by path.dirname(process.argv[1]) (fixed by s76y); the same call: stopped', async (t) => {
  const ws = project(t, files('node', 'check.js', NODE_MAIN, 'util.js', JOIN('process.argv[1]'), 'lint.js', JS));
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
});
