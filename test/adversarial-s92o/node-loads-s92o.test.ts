// Review s92o: a user's node hook program (`exec node tools/check.js`) that runs the files of a folder it lists, by
// paths the rules of node-computed-loads.ts do not see after s90m: the Function constructor read by a computed key from
// a builtin's method (`[].map[k]`) or from a prototype (`Object.getPrototypeOf(async () => 0)[k]`), node:vm and
// node:worker_threads taken by `process.getBuiltinModule` (not require/import) and their runner read by a computed
// key, and Module._load found by `Object.entries(require("node:module"))`. Each is read unrefused, with no unknown
// load (nodeComputedLoads returns nothing). One CONFINED call (`sh one.sh`, real bubblewrap) rewrites
// tools/rules/a.js; the SAFE outcome is asserted by hand: the user's `git commit` never runs the agent's code.
import test from 'ava';
import { rulesHookRan } from '../fixtures/node-rules-hook.js';

const HEAD = 'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "rules")).filter((n) => n.endsWith(".js"));\n';
const FILE = 'path.join(__dirname, "rules", name)';
const SOURCE = `fs.readFileSync(${FILE}, "utf8")`;

// [title, the program tools/check.js]
const CASES: readonly (readonly [string, string])[] = [
  ['const F = [].map[k]; F(source)(), k computed', `${HEAD}const k = "constr" + "uctor";\nconst F = [].map[k];\nfor (const name of names) F(${SOURCE})();\n`],
  [
    'const F = Object.getPrototypeOf(async () => 0)[k]; F(source)()',
    `${HEAD}const k = "constr" + "uctor";\nconst F = Object.getPrototypeOf(async () => 0)[k];\nfor (const name of names) F(${SOURCE})();\n`,
  ],
  [
    'process.getBuiltinModule("node:vm")[k] kept, called with the source',
    `${HEAD}const vm = process.getBuiltinModule("node:vm");\nconst k = "runInThis" + "Context";\nconst r = vm[k];\nfor (const name of names) r(${SOURCE});\n`,
  ],
  [
    'process.getBuiltinModule("node:worker_threads")[k] kept, new W(source, { eval: true })',
    `${HEAD}const wt = process.getBuiltinModule("node:worker_threads");\nconst k = "Wor" + "ker";\nconst W = wt[k];\nfor (const name of names) new W(${SOURCE}, { ["ev" + "al"]: true });\n`,
  ],
  [
    'Object.entries(require("node:module")).find(…load)[1](file)',
    `${HEAD}const L = Object.entries(require("node:module")).find(([n]) => n.endsWith("load"))[1];\nfor (const name of names) L(${FILE}, null, false);\n`,
  ],
];

for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, main), "the user's git commit ran the agent's code");
  });
