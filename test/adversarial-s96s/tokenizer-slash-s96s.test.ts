// Review s96s: a user's node hook program (`exec node tools/check.js`) that runs the files of a folder it lists through
// the Function constructor read by a computed key (k = "constr" + "uctor"), where s94q's key rule takes the key as a
// number or sees no member read at all: a name that is an array callback's index anywhere in the file, `.length` of an
// object the program builds (`{ length: k }`), a `for (let i = 0; …)` counter set by `= 0 || k`, `||=`, `[i] = [k]`,
// `({ i } = o)` or `for (i of [k])`; a member read after `}` (`function () {}[k]`, `class {}[k]`); a computed key in a
// parameter's or a `for (… of …)` destructuring; and `[].map[k]` hidden from the tokens by a `/` after an object
// literal's `}` read as a regex; and a loop over literals whose "constructor" is not the list's first (RAW_RUNS
// excepts a string after `,`). Each is read unrefused (nodeComputedLoads returns nothing) and runs the file under node
// 20. The fix reads each `/` by the token before it as node's grammar does, and refuses where the text cannot tell
// (javascript-tokens.ts). One CONFINED call (`sh one.sh`, real bubblewrap) rewrites tools/rules/a.js; the SAFE outcome
// is asserted by hand: the user's `git commit` never runs the agent's code.
import test from 'ava';
import { RULES_RUNNER_HEAD, rulesHookRan } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;

// [title, the program tools/check.js after HEAD]
const CASES: readonly (readonly [string, string])[] = [
  ["a / after an object literal's } read as a regex hides [].map[k]", 'const q = {} / run([].map[k]) / 1;\n'],
  // The rest of the class, found while fixing it: each was read unrefused before the fix and runs the file under node 20.
  ['regex after if head', "if (names) /'/.test(k) || run([].map[k]); //'\n"],
  ['prefix ! after if head', "if (names) !/'/.test(k) && run([].map[k]); //'\n"],
  ['comment before a division', 'const q = names.length /**/ / run([].map[k]) / 1;\n'],
  ['postfix ++', 'let n = 0;\nconst q = n++ / run([].map[k]) / 1;\n'],
  ['number ending in a dot', 'const q = 1. / run([].map[k]) / 1;\n'],
  ['non-ASCII name', 'const caf\u00e9 = 1;\nconst q = caf\u00e9 / run([].map[k]) / 1;\n'],
  ['member named like a keyword', 'const o = { return: 1 };\nconst q = o.return / run([].map[k]) / 1;\n'],
  ['string before a division', "const q = '1' / run([].map[k]) / 1;\n"],
  ['template before a division', 'const q = `1` / run([].map[k]) / 1;\n'],
  ['regex before a division', 'const q = /1/ / run([].map[k]) / 1;\n'],
  ['await as a name', 'const await = 2;\nconst q = await / run([].map[k]) / 1;\n'],
  ['of as a name', 'const of = 2;\nconst q = of / run([].map[k]) / 1;\n'],
  ['HTML open comment and a template', 'const q = 1 <!-- `\nrun([].map[k]);\n// `\n'],
  ['HTML close comment and a template', 'const q = 1;\n--> `\nrun([].map[k]);\n// `\n'],
  ['line comment ended by CR', '// a\rrun([].map[k]);\n'],
  ['line comment ended by U+2028', '// a\u2028run([].map[k]);\n'],
  ['string continued over CRLF', "const q = '\\\r\n'; run([].map[k]); //'\n"],
  ['member named delete then ++', 'const o = { delete: 1 };\nconst q = o.delete++ / run([].map[k]) / 1;\n'],
];
for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });
