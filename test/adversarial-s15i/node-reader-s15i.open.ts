// Review s15i, the rows still OPEN (3, 4, 7 and 8) and the over-denials; the fixed rows are in node-reader-s15i.test.ts.
// The node reader (javascript-tokens.ts, node-computed-loads.ts, node-computed-keys.ts, node-runner-values.ts,
// program-command-texts.ts and the node branch of tool-file-references.ts) after s08e's fixes (h-adv15i at 6ffdf7da).
// The user's hook runs a program of theirs that runs tools/rules/*. One CONFINED call (`sh one.sh`, real bubblewrap)
// rewrites a file the program runs. Each test asserts the SAFE outcome by hand (the user's `git commit` never runs the
// agent's code), so it FAILS while the hole is open. Each program was first run by hand under node 20.20.2: it runs the
// rules file, and PWNED is written. The over-denials assert by hand that an ordinary program is NOT refused, so they
// FAIL while the over-denial stands.
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { ESM_RULES_RUNNER_HEAD, esmRulesHookRan, RULES_RUNNER_HEAD, rulesHookRan } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;

// [finding, title, the CommonJS program tools/check.js after HEAD]
const CASES: readonly (readonly [number, string, string])[] = [
  // Finding 3: node-computed-keys.ts skips a computed key shaped like a TypeScript mapped type (`[K in keyof T]:`),
  // but in JavaScript `[k in o && k]` is a computed key (`in` binds tighter than `&&` and `?:`). In a pattern it reads
  // the member k names. `"constructor" in run` is true.
  [3, 'a pattern key `[k in run && k]:` taken for a mapped type', 'const { [k in run && k]: F } = run;\nrun(F);\n'],
  [3, 'a pattern key `[k in run ? k : "name"]:`', 'const { [k in run ? k : "name"]: F } = run;\nrun(F);\n'],
  // Finding 4: a name that ends in a non-ASCII letter ends a value, but computedKeyReads' value-end class is ASCII
  // (`[\w$)\]}…]`: JavaScript's `\w`), so `fé[k]` is no member read. BEFORE_ARRAY's `(?<![\w$#])` lets a name ending in
  // a keyword after a non-ASCII letter (`éreturn`) pass for the keyword, and its `[k]` for an array literal.
  [4, 'a name ending in a non-ASCII letter: fé[k]', 'const fé = [].map;\nrun(fé[k]);\n'],
  [4, 'a name ending in a keyword after a non-ASCII letter: éreturn[k]', 'const éreturn = run;\nrun(éreturn[k]);\n'],
  // Finding 7: numericNames balances a counter's bindings against the control headers that name it
  // (`if (… i …) {` counts once) on the assumption that parameterBindings counts each one too. parameterBindings drops
  // a "parameter" from its first `=` (a default), so `if (0 === i) {` adds a header but no binding. Then one real
  // assignment `i = k` is balanced away, and i is "a number".
  [7, 'a counter compared in an if header, then assigned any text', 'let i = 0;\nif (0 === i) {\n  console.log("first");\n}\ni = k;\nrun([].map[i]);\n'],
  // Finding 8: a computed key in an object literal is taken to write only, where the literal is "surely an
  // expression". Written into the environment, it names NODE_OPTIONS for every node the program starts. RAW_RUNS
  // refuses NODE_OPTIONS only as spelled.
  [
    8,
    'NODE_OPTIONS by a computed key of a literal: Object.assign(process.env, { ["NODE_" + "OPTIONS"]: … })',
    'const cp = require("node:child_process");\nObject.assign(process.env, { ["NODE_" + "OPTIONS"]: "--require " + path.join(__dirname, "rules", names[0]) });\ncp.execFileSync("node", ["-e", "0"], { stdio: "inherit" });\n',
  ],
];
for (const [finding, title, main] of CASES)
  test(`finding ${finding}: hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });

// The same classes in an ES module (tools/check.mjs).
const ESM_CASES: readonly (readonly [number, string, string])[] = [[3, 'a pattern key `[k in run && k]:`', 'const { [k in run && k]: F } = run;\nrun(F);\n']];
for (const [finding, title, main] of ESM_CASES)
  test(`finding ${finding} (ES module): hook runs node tools/check.mjs; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await esmRulesHookRan(t, ESM_RULES_RUNNER_HEAD + main), "the user's git commit ran the agent's code");
  });

test('control: the plain program is refused by the node reader', (t) => {
  t.notDeepEqual(nodeComputedLoads(`${HEAD}run([].map[k]);\n`).unknown, []);
});

// Over-denials: ordinary programs that now refuse every writer (s08e's fixes: node-runner-values.ts). [title, program]
const ORDINARY: readonly (readonly [string, string])[] = [
  [
    "a data member named fork (a GitHub event's repository.fork)",
    'const event = JSON.parse(require("node:fs").readFileSync(process.env.GITHUB_EVENT_PATH, "utf8"));\nif (event.repository.fork) process.exit(0);\n',
  ],
  ['a class of its own named Worker', 'class Worker {\n  run() {\n    return 1;\n  }\n}\nnew Worker().run();\n'],
  ['a nested destructuring of the process object', 'const { env: { CI }, argv } = process;\nif (CI) console.log(argv.slice(2));\n'],
  ['a destructuring of process.execArgv (read, not set)', 'const { execArgv, argv } = process;\nconsole.log(execArgv.length, argv.length);\n'],
  ['Reflect.defineProperty', 'const o = {};\nReflect.defineProperty(o, "x", { value: 1 });\nmodule.exports = o;\n'],
  ['the omit idiom: const { [key]: _omitted, ...rest } = obj', 'function omit(obj, key) {\n  const { [key]: _omitted, ...rest } = obj;\n  return rest;\n}\nmodule.exports = omit;\n'],
];
for (const [title, program] of ORDINARY)
  test(`over-denial: ${title} is not refused`, (t) => {
    t.deepEqual(nodeComputedLoads(program).unknown, []);
  });
