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
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

// The agent's module: writes PWNED where the hook runs (require is no global inside Function).
const JS = '(typeof require === "function" ? require : process.mainModule.require)("node:fs").writeFileSync("PWNED", "");';
const HEAD =
  'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "rules")).filter((n) => n.endsWith(".js"));\nconst k = "constr" + "uctor";\n' +
  'function run(f) {\n  for (const name of names) f(fs.readFileSync(path.join(__dirname, "rules", name), "utf8"))();\n}\n';

// [title, the program tools/check.js after HEAD]
const CASES: readonly (readonly [string, string])[] = [["a / after an object literal's } read as a regex hides [].map[k]", 'const q = {} / run([].map[k]) / 1;\n']];
for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'src/keep.txt': '1\n',
      'one.sh': `printf '%s\\n' '${JS}' > tools/rules/a.js\n`,
      'tools/check.js': HEAD + main,
      'tools/rules/a.js': '\n',
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
