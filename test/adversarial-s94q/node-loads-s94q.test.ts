// Review s94q: a user's node hook program (`exec node tools/check.js`) that runs the files of a folder it lists through
// the Function constructor read by a computed key (`[].map[k]`, k = "constr" + "uctor"), where the value reaches a call
// by a shape s92o's rule (`const NAME = …[k];` then `NAME(`) does not read: passed as an argument, returned, stored in
// an object or an array, a loop's variable, a default parameter, `.map(key => x[key])`, `||`, parentheses, a line
// break after `=`, a nested key (`[].map[ks[0]]`); and `.constructor` taken where it looks like a type test
// (`0 === keep(f.constructor)`). Each is read unrefused (nodeComputedLoads returns nothing) and runs the file under
// node 20. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites tools/rules/a.js; the SAFE outcome is asserted by
// hand: the user's `git commit` never runs the agent's code.
import test from 'ava';
import { rulesHookRan } from '../fixtures/node-rules-hook.js';

const HEAD =
  'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "rules")).filter((n) => n.endsWith(".js"));\nconst k = "constr" + "uctor";\n';
const SOURCE = 'fs.readFileSync(path.join(__dirname, "rules", name), "utf8")';

// [title, the program tools/check.js after HEAD]
const CASES: readonly (readonly [string, string])[] = [
  ['passed as an argument: run([].map[k])', `function run(f) {\n  for (const name of names) f(${SOURCE})();\n}\nrun([].map[k]);\n`],
  ['returned from a function: get()(source)()', `function get() {\n  return [].map[k];\n}\nfor (const name of names) get()(${SOURCE})();\n`],
  ['stored in an object: o.f(source)()', `const o = { f: [].map[k] };\nfor (const name of names) o.f(${SOURCE})();\n`],
  ['a loop variable: for (const f of [[].map[k]])', `for (const f of [[].map[k]]) for (const name of names) f(${SOURCE})();\n`],
  ['a default parameter: (f = [].map[k]) => f(source)()', `const go = (f = [].map[k]) => {\n  for (const name of names) f(${SOURCE})();\n};\ngo();\n`],
  ['.map((key) => [].map[key]) destructured', `const [F] = [k].map((key) => [].map[key]);\nfor (const name of names) F(${SOURCE})();\n`],
  ['const F = [].map[k] || 0', `const F = [].map[k] || 0;\nfor (const name of names) F(${SOURCE})();\n`],
  ['const F = ([].map[k])', `const F = ([].map[k]);\nfor (const name of names) F(${SOURCE})();\n`],
  ['const F =\\n [].map[k]', `const F =\n  [].map[k];\nfor (const name of names) F(${SOURCE})();\n`],
  ['a nested key: const F = [].map[ks[0]]', `const ks = [k];\nconst F = [].map[ks[0]];\nfor (const name of names) F(${SOURCE})();\n`],
  [
    '.constructor kept inside a comparison: 0 === keep(f.constructor)',
    `let F;\nfunction keep(v) {\n  F = v;\n  return 0;\n}\nfunction f() {}\nif (0 === keep(f.constructor)) F = F || 0;\nfor (const name of names) F(${SOURCE})();\n`,
  ],
];

for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });
