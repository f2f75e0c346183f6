// Review s96s: a user's node hook program (`exec node tools/check.js`) that runs the files of a folder it lists through
// the Function constructor read by a computed key (k = "constr" + "uctor"), where s94q's key rule takes the key as a
// number or sees no member read at all: a name that is an array callback's index anywhere in the file, `.length` of an
// object the program builds (`{ length: k }`), a `for (let i = 0; …)` counter set by `= 0 || k`, `||=`, `[i] = [k]`,
// `({ i } = o)` or `for (i of [k])`; a member read after `}` (`function () {}[k]`, `class {}[k]`); a computed key in a
// parameter's or a `for (… of …)` destructuring; and `[].map[k]` hidden from the tokens by a `/` after an object
// literal's `}` read as a regex; and a loop over literals whose "constructor" is not the list's first (RAW_RUNS
// excepts a string after `,`). Each is read unrefused (nodeComputedLoads returns nothing) and runs the file under node
// 20. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites tools/rules/a.js; the SAFE outcome is asserted by
// hand: the user's `git commit` never runs the agent's code.
import test from 'ava';
import { RULES_RUNNER_HEAD, rulesHookRan } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;

// [title, the program tools/check.js after HEAD]
const CASES: readonly (readonly [string, string])[] = [
  ['a callback index elsewhere makes the name a number everywhere', '[0].forEach((x, i) => x);\nconst i = k;\nrun([].map[i]);\n'],
  ['.length of an object the program builds: { length: k }', 'const o = { length: k };\nrun([].map[o.length]);\n'],
  ['a loop counter set by i = 0 || k', 'for (let i = 0; i < 1; i++) if ((i = 0 || k)) run([].map[i]);\n'],
  ['a loop counter set by i ||= k', 'for (let i = 0; i < 1; i++) if ((i ||= k)) run([].map[i]);\n'],
  ['a loop counter set by [i] = [k]', 'for (let i = 0; i < 1; i++) if (([i] = [k])) run([].map[i]);\n'],
  ['a loop counter set by ({ i } = o)', 'const o = { i: k };\nfor (let i = 0; i < 1; i++) if (({ i } = o)) run([].map[i]);\n'],
  ['a loop counter set by for (i of [k])', 'for (let i = 0; i < 1; i++) for (i of [k]) run([].map[i]);\n'],
  ['a member read after }: function () {}[k]', 'run(function () {}[k]);\n'],
  ['a member read after }: class {}[k]', 'const C = class {}[k];\nrun(C);\n'],
  ["a computed key in a parameter's destructuring", '(({ [k]: F }) => run(F))([].map);\n'],
  ['a computed key in for ({ [k]: F } of …)', 'let F;\nfor ({ [k]: F } of [[].map]) run(F);\n'],
  ['a loop over literals with "constructor" not first: for (const key of ["name", "constructor"])', 'for (const key of ["name", "constructor"]) if (key !== "name") run([].map[key]);\n'],
];

for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });
