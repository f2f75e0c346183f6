// Review s90m: a user's node hook program (`exec node tools/check.js`) that runs the files of a folder it lists, in
// spellings neither the tokens nor the raw shapes of node-computed-loads.ts show after s88k: an optional call
// (`eval?.(…)`, `Function?.(…)`), the Function constructor taken by destructuring (`const { constructor } = () => 0`,
// the class-constructor relaxation of s88k), a computed key on any value but the five names (`(() => 0)[k]`,
// `vm[k]`), `globalThis?.[k]` and an alias of globalThis, `module?.[k]` and a computed destructuring key of module,
// `Reflect.get(fn, "constr" + "uctor")`. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites tools/rules/a.js; the SAFE outcome is asserted
// by hand: the user's `git commit` never runs the agent's code.
import test from 'ava';
import { rulesHookRan } from '../fixtures/node-rules-hook.js';

const HEAD = 'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "rules")).filter((n) => n.endsWith(".js"));\n';
const FILE = 'path.join(__dirname, "rules", name)';
const SOURCE = `fs.readFileSync(${FILE}, "utf8")`;

// [title, the program tools/check.js]
const CASES: readonly (readonly [string, string])[] = [
  ['eval?.(source)', `${HEAD}for (const name of names) eval?.(${SOURCE});\n`],
  ['Function?.(source)()', `${HEAD}for (const name of names) Function?.(${SOURCE})();\n`],
  ['const { constructor } = () => 0; constructor(source)()', `${HEAD}const { constructor } = () => 0;\nfor (const name of names) constructor(${SOURCE})();\n`],
  ['const { constructor: F } = () => 0; F(source)()', `${HEAD}const { constructor: F } = () => 0;\nfor (const name of names) F(${SOURCE})();\n`],
  ['(() => 0)[k](source)(), k computed', `${HEAD}const k = "constr" + "uctor";\nconst F = (() => 0)[k];\nfor (const name of names) F(${SOURCE})();\n`],
  ['vm[k](source), k computed', `${HEAD}const vm = require("node:vm");\nconst k = ["runInThis", "Context"].join("");\nfor (const name of names) vm[k](${SOURCE});\n`],
  ['globalThis?.[k](source), k computed', `${HEAD}const k = "ev" + "al";\nfor (const name of names) globalThis?.[k](${SOURCE});\n`],
  ['const g = globalThis; g[k](source)', `${HEAD}const g = globalThis;\nconst k = "ev" + "al";\nfor (const name of names) g[k](${SOURCE});\n`],
  ['module?.[k](file), k computed', `${HEAD}const k = ["req", "uire"].join("");\nfor (const name of names) module?.[k](${FILE});\n`],
  ['const { [k]: r } = module; r(file)', `${HEAD}const { [["req", "uire"].join("")]: r } = module;\nfor (const name of names) r(${FILE});\n`],
  ['Reflect.get(() => 0, "constr" + "uctor")(source)()', `${HEAD}for (const name of names) Reflect.get(() => 0, "constr" + "uctor")(${SOURCE})();\n`],
];

for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, main), "the user's git commit ran the agent's code");
  });
