// Review s90m: ordinary node hook programs the raw-text reading of node-computed-loads.ts refuses after s88k. (A
// prototype-pollution guard's merge, `a[key] = b[key]`, refuses again since review s94q: a key the program computes;
// see README.) `v.constructor !== Array`, a program that checks
// `pkg.type === "module"` and has its own `register()`, reading `process.execArgv`, a local object named `self`
// indexed by a key, a function of its own named `runMain`. None runs code by a name it computes. The hook program
// (`exec node tools/check.js`) is the user's; one CONFINED call (`sh one.sh`, real bubblewrap) writes notes.txt, which
// nothing loads: it should exit 0 and no stop.
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const CASES: readonly (readonly [string, string])[] = [
  ['v.constructor !== Array', 'const notArray = (v) => v !== null && typeof v === "object" && v.constructor !== Array;\nconsole.log(notArray({}));\n'],
  [
    'pkg.type === "module" and a register() of its own',
    'const pkg = JSON.parse(require("node:fs").readFileSync("package.json", "utf8"));\nif (pkg.type === "module") console.log("esm");\nconst seen = new Map();\nfunction register(name) {\n  seen.set(name, 1);\n}\nregister("x");\n',
  ],
  ['process.execArgv.includes("--inspect")', 'if (process.execArgv.includes("--inspect")) console.log("debugging");\n'],
  ['a local object named self, self[k]', 'const self = { a: 1 };\nconst k = "a";\nconsole.log(self[k]);\n'],
  ['a function of its own named runMain', 'function runMain() {\n  console.log(1);\n}\nrunMain();\n'],
  ['control: no such word', 'console.log(JSON.parse("{}"));\n'],
];

for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; a call writes notes.txt: it runs, no stop`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'package.json': '{ "name": "p" }\n',
      'one.sh': "printf 'n\\n' > notes.txt\n",
      'tools/check.js': main,
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    });
    const output = await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh');
    t.log(output.slice(-1200));
    t.regex(output, /bash sh one\.sh → exit 0/u, 'an ordinary hook program stopped the run');
  });
