// Review s15i, the rows fixed (1, 2, 5, 6 and 9): the node reader (javascript-tokens.ts, node-computed-loads.ts,
// node-runner-values.ts, node-module-resolution.ts and the node branch of tool-file-references.ts). The user's hook runs
// a program of theirs that runs tools/rules/*. One CONFINED call (`sh one.sh`, real bubblewrap) rewrites a file the
// program runs. Each test asserts the SAFE outcome by hand: the user's `git commit` never runs the agent's code. Each
// program was first run by hand under node 20.20.2 (it runs the rules file, and PWNED is written). Other spellings of
// each class are unit cases in test/host/executors/confine/node-computed-loads.test.ts and node-module-resolution.test.ts.
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';
import { ESM_RULES_RUNNER_HEAD, esmRulesHookRan, RULES_RUNNER_HEAD, rulesHookRan } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;
/** child_process and the rules files' paths (each a JavaScript file node runs as a child). */
const CP = 'const cp = require("node:child_process");\nconst files = names.map((n) => path.join(__dirname, "rules", n));\n';

// [finding, title, the CommonJS program tools/check.js after HEAD]
const CASES: readonly (readonly [number, string, string])[] = [
  // Finding 1: a global's Function or eval taken as a MEMBER. RUNS_COMPUTED's eval/Function rule has the lookbehind
  // `(?<![\w$.])`, so `x.Function` is no use of it. RAW_RUNS wants a call (`Function(`, `eval(`, `eval)`). The
  // globalThis rule passes any `.member`. So `globalThis.Function`, `global.eval` and the global object reached by a
  // sloppy function's `this` give the runner itself, kept in a name or passed on.
  [1, 'globalThis.Function handed on: run(globalThis.Function)', 'run(globalThis.Function);\n'],
  [1, 'global.Function kept in a name: const F = global.Function', 'const F = global.Function;\nrun(F);\n'],
  [1, 'global.eval kept in a name: const e = global.eval; e(text)', 'const e = global.eval;\nfor (const name of names) e(fs.readFileSync(path.join(__dirname, "rules", name), "utf8"));\n'],
  [1, "the global object as a sloppy function's this: G.Function", 'const G = (function () {\n  return this;\n})();\nconst F = G.Function;\nrun(F);\n'],
  // Finding 2: child_process's calls kept as VALUES. processCalls (program-process-calls.ts) finds a call by its
  // name before `(`, or by an alias that callAliases knows (`const x = cp.execFileSync;`, `{ execFileSync: x } =
  // require(…)`). node-runner-values.ts reads fork and Worker as values, but not exec*/spawn*. In each spelling
  // below, no process call is found, so what it runs (node on each rules file) is not read.
  [
    2,
    "an object's property: const tools = { node: cp.execFileSync }; tools.node(…)",
    `${CP}const tools = { node: cp.execFileSync };\nfor (const f of files) tools.node(process.execPath, [f], { stdio: "inherit" });\n`,
  ],
  [2, 'destructured from a name, not from require: const { execFileSync: x } = cp', `${CP}const { execFileSync: x } = cp;\nfor (const f of files) x(process.execPath, [f], { stdio: "inherit" });\n`],
  [2, 'called through .call: cp.execFileSync.call(cp, …)', `${CP}for (const f of files) cp.execFileSync.call(cp, process.execPath, [f], { stdio: "inherit" });\n`],
  [2, 'by a literal key: cp["execFileSync"](…)', `${CP}for (const f of files) cp["execFileSync"](process.execPath, [f], { stdio: "inherit" });\n`],
  [
    2,
    'promisified and called at once: util.promisify(cp.execFile)(…)',
    `${CP}const util = require("node:util");\n(async () => {\n  for (const f of files) await util.promisify(cp.execFile)(process.execPath, [f]);\n})();\n`,
  ],
  [2, 'an array pattern: const [x] = [cp.execFileSync]', `${CP}const [x] = [cp.execFileSync];\nfor (const f of files) x(process.execPath, [f], { stdio: "inherit" });\n`],
  [
    2,
    'a conditional: const x = quiet ? cp.spawnSync : cp.spawnSync',
    `${CP}const quiet = !process.env.VERBOSE;\nconst x = quiet ? cp.spawnSync : cp.spawnSync;\nfor (const f of files) x(process.execPath, [f], { stdio: "inherit" });\n`,
  ],
  // Finding 3: node-computed-keys.ts skips a computed key shaped like a TypeScript mapped type (`[K in keyof T]:`),
  // Finding 5: bindings() misses a PARENTHESIZED assignment target and a `for await` head. A name bound once to a
  // literal (literalBound) or a counter (numericNames) is then trusted while it holds any text.
  [5, 'a parenthesized assignment: let key = "name"; (key) = k', 'let key = "name";\n(key) = k;\nrun([].map[key]);\n'],
  [5, 'a parenthesized target in an array pattern: [(key)] = [k]', 'let key = "name";\n[(key)] = [k];\nrun([].map[key]);\n'],
  [5, 'a parenthesized target in an object pattern: ({ a: (key) } = { a: k })', 'let key = "name";\n({ a: (key) } = { a: k });\nrun([].map[key]);\n'],
  [5, 'a counter assigned in parentheses: let i = 0; (i) = k', 'let i = 0;\n(i) = k;\nrun([].map[i]);\n'],
  [5, 'a for await head assigning the name: for await (key of [k])', 'async function main() {\n  let key = "name";\n  for await (key of [k]) run([].map[key]);\n}\nmain();\n'],
  // Finding 6: literalBound's binding regex ends the initializer at the LINE's end (`(?:;|$)` with the m flag). node
  // goes on past a line break where the next line continues the expression. `const key = ""⏎  + k;` is read as
  // bound to the literal `""`.
  [6, 'a literal binding continued on the next line: const key = ""⏎  + k', 'const key = ""\n  + k;\nrun([].map[key]);\n'],
  [6, 'a literal binding continued by a member call: const key = "constr"⏎  .concat("uctor")', 'const key = "constr"\n  .concat("uctor");\nrun([].map[key]);\n'],
  // Finding 8: a computed key in an object literal is taken to write only, where the literal is "surely an
  // expression". Written into the environment, it names NODE_OPTIONS for every node the program starts. RAW_RUNS
  // refuses NODE_OPTIONS only as spelled.
  [
    8,
    'NODE_OPTIONS by a computed key of a literal: Object.assign(process.env, { ["NODE_" + "OPTIONS"]: … })',
    'const cp = require("node:child_process");\nObject.assign(process.env, { ["NODE_" + "OPTIONS"]: "--require " + path.join(__dirname, "rules", names[0]) });\ncp.execFileSync("node", ["-e", "0"], { stdio: "inherit" });\n',
  ],
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
  // Other spellings of the same classes.
  [1, 'globalThis?.eval kept in a name', 'const e = globalThis?.eval;\nfor (const name of names) e(fs.readFileSync(path.join(__dirname, "rules", name), "utf8"));\n'],
  [2, 'a quoted key taken from a name: const { "execFileSync": x } = cp', `${CP}const { "execFileSync": x } = cp;\nfor (const f of files) x(process.execPath, [f], { stdio: "inherit" });\n`],
  [5, 'a twice parenthesized logical assignment: ((key)) ||= k', 'let key = "";\n((key)) ||= k;\nrun([].map[key]);\n'],
  [6, 'a literal binding continued by a conditional: const key = "a"⏎  ? k : "b"', 'const key = "a"\n  ? k : "b";\nrun([].map[key]);\n'],
  [
    8,
    "NODE_OPTIONS by a computed key of a child's env literal: { env: { ...process.env, [name]: … } }",
    'const cp = require("node:child_process");\nconst name = ["NODE", "OPTIONS"].join("_");\ncp.execFileSync("node", ["-e", "0"], { stdio: "inherit", env: { ...process.env, [name]: "--require " + path.join(__dirname, "rules", names[0]) } });\n',
  ],
];
for (const [finding, title, main] of CASES)
  test(`finding ${finding}: hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });

// The same classes in an ES module (tools/check.mjs).
const ESM_CASES: readonly (readonly [number, string, string])[] = [
  [1, 'globalThis.Function handed on', 'run(globalThis.Function);\n'],
  [5, 'a parenthesized assignment: (key) = k', 'let key = "name";\n(key) = k;\nrun([].map[key]);\n'],
  [3, 'a pattern key `[k in run && k]:`', 'const { [k in run && k]: F } = run;\nrun(F);\n'],
];
for (const [finding, title, main] of ESM_CASES)
  test(`finding ${finding} (ES module): hook runs node tools/check.mjs; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await esmRulesHookRan(t, ESM_RULES_RUNNER_HEAD + main), "the user's git commit ran the agent's code");
  });

// Finding 6, the own folder: BOUND (a name bound once to the file's own folder) ends at the line's end too. Here
// `root` is tools/.., but zotbox takes it for tools/. So it protects tools/lint/ whole, while node loads lint/ at the
// project's top, which the agent rewrites.
const AGENT_MODULE = '(typeof require === "function" ? require : process.mainModule.require)("node:fs").writeFileSync("PWNED", "");';
test("finding 6: a name bound to the own folder continued on the next line (root = __dirname⏎ + '/..'): git runs the user's code only", async (t) => {
  const ws = project(t, {
    'src.txt': '1\n',
    'src/keep.txt': '1\n',
    'one.sh': `printf '%s\\n' '${AGENT_MODULE}' > lint/a.js\n`,
    'tools/check.js': 'const fs = require("node:fs");\nconst root = __dirname\n  + "/..";\nfor (const n of fs.readdirSync(root + "/lint")) require(root + "/lint/" + n);\n',
    'lint/a.js': '\n',
    '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
  });
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
});

// Finding 9: node-module-resolution.ts' packageSpecifiers matches `require(` and its literal on ONE line. A subpath
// import (`#rules/…`, mapped by package.json's "imports") or a self-reference by the package's own name (its
// "exports") whose literal stands on the line after the `(` is not mapped. The file it loads is not protected, and
// neither is the package.json that maps it. (nodeComputedLoads reads the literal as written out.)
const SPLIT_CASES: readonly (readonly [string, string, string])[] = [
  ['a subpath import split over lines: require(⏎  "#rules/a.js"⏎)', '{"name":"proj","imports":{"#rules/*":"./tools/rules/*"}}\n', 'require(\n  "#rules/a.js"\n);\n'],
  ['a self-reference split over lines: require(⏎  "proj/tools/rules/a.js"⏎)', '{"name":"proj","exports":{"./tools/*":"./tools/*"}}\n', 'require(\n  "proj/tools/rules/a.js"\n);\n'],
];
for (const [title, pkg, program] of SPLIT_CASES)
  test(`finding 9: hook runs node tools/check.js; ${title}; one call rewrites what it loads: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'src/keep.txt': '1\n',
      'package.json': pkg,
      'one.sh': `printf '%s\\n' '${AGENT_MODULE}' > tools/rules/a.js\n`,
      'tools/check.js': program,
      'tools/rules/a.js': '\n',
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });
