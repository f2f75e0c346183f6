// Review s08e: the node reader (javascript-tokens.ts, node-computed-loads.ts, node-computed-keys.ts,
// node-runner-values.ts, the node branch of tool-file-references.ts) after s06c's fixes (7e27f050). The user's hook
// runs a program of theirs that runs tools/rules/*; one CONFINED call (`sh one.sh`, real bubblewrap) rewrites a rules
// file; the SAFE outcome is asserted by hand: the user's `git commit` never runs the agent's code. Each CommonJS program
// was run by hand under node 20 (it runs the rules file, PWNED is written). The TypeScript case is read by the unit
// reader (no TypeScript runner is installed here), checked against TypeScript's own parser. Other spellings of each
// class are unit cases in test/host/executors/confine/node-computed-loads.test.ts.
import { createRequire } from 'node:module';
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';
import { RULES_RUNNER_HEAD, rulesHookRan, TS_RULES_RUNNER_HEAD } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;
/** The first rules file, by name: what Module.prototype.load runs. */
const FIRST = 'path.join(__dirname, "rules", names[0])';
const NODE_MODULE = 'const { createRequire } = require("node:module");\n';

// [finding, title, the CommonJS program tools/check.js after HEAD]
const CASES: readonly (readonly [number, string, string])[] = [
  // Finding 1: a computed key in a NESTED destructuring pattern. RUNS_COMPUTED's patterns want the `{ [k]: F }` right
  // after `const`/`let`/`var` or right before `=`; computedKeyReads takes a `[` after `{` for no member read. Inside an
  // array pattern or an outer object pattern, neither fires.
  [1, 'an array pattern holding { [k]: F }: const [{ [k]: F }] = [run]', 'const [{ [k]: F }] = [run];\nrun(F);\n'],
  [1, 'an object pattern holding { [k]: F }: const { a: { [k]: F } } = { a: run }', 'const { a: { [k]: F } } = { a: run };\nrun(F);\n'],
  [1, 'an assignment pattern: [{ [k]: F }] = [run]', 'let F;\n[{ [k]: F }] = [run];\nrun(F);\n'],
  // Finding 2: BEFORE_ARRAY's lookbehind `(?<![\w$])` passes a `#`: a PRIVATE name spelled like a keyword (`#new`,
  // `#return`, `#delete`, `#in`, `#typeof`, …: any IdentifierName is a private name) is taken for the keyword, and its
  // `[k]` for an array literal.
  [2, 'a private field named #new, indexed by a computed key: this.#new[k]', 'class C {\n  #new = run;\n  go() {\n    run(this.#new[k]);\n  }\n}\nnew C().go();\n'],
  // Finding 3: the main Module (process.mainModule, require.main) is refused only as MAIN_PROGRAM spells it on ONE raw
  // line with a plain `.`. Destructured, across a line break, through `?.`, past a comment or through an alias of
  // process, its `.load(file)` runs the rules file.
  [3, 'process.mainModule destructured: const { mainModule } = process', `const { mainModule } = process;\nmainModule.load(${FIRST});\n`],
  [3, 'process⏎.mainModule over a line break', `process\n  .mainModule.load(${FIRST});\n`],
  [3, 'require⏎.main over a line break', `require\n  .main.load(${FIRST});\n`],
  [3, 'require?.main', `require?.main.load(${FIRST});\n`],
  [3, 'process?.mainModule', `process?.mainModule.load(${FIRST});\n`],
  [3, 'process/**/.mainModule (a comment before the dot)', `process/**/.mainModule.load(${FIRST});\n`],
  [3, 'process kept in a name: const p = process; p.mainModule', `const p = process;\np.mainModule.load(${FIRST});\n`],
  // Finding 4: requireAliases knows createRequire's require only as `const|let|var NAME = createRequire(…);` ending the
  // statement. Another declarator after it, an assignment apart from the declaration or an object's property holds the
  // same require, and its calls are no load calls to loadCalls.
  [
    4,
    'createRequire with another declarator after it: const r = createRequire(…), unused = 0',
    `${NODE_MODULE}const r = createRequire(__filename), unused = 0;\nfor (const n of names) r(path.join(__dirname, "rules", n));\n`,
  ],
  [
    4,
    'createRequire assigned apart from its declaration: let r; r = createRequire(…)',
    `${NODE_MODULE}let r;\nr = createRequire(__filename);\nfor (const n of names) r(path.join(__dirname, "rules", n));\n`,
  ],
  [
    4,
    "createRequire's require as an object's property: loaders.r(file)",
    `${NODE_MODULE}const loaders = { r: createRequire(__filename) };\nfor (const n of names) loaders.r(path.join(__dirname, "rules", n));\n`,
  ],
  // Finding 5: a Worker or fork is read only where its NAME stands before `(` (or is renamed in a destructuring). Taken
  // from the module as a member into another name, its calls are not loads.
  [
    5,
    'Worker taken as a member into another name: const W = wt.Worker; new W(file)',
    'const wt = require("node:worker_threads");\nconst W = wt.Worker;\nfor (const n of names) new W(path.join(__dirname, "rules", n));\n',
  ],
  [
    5,
    'fork taken as a member into another name: const launch = cp.fork; launch(file)',
    'const cp = require("node:child_process");\nconst launch = cp.fork;\nfor (const n of names) launch(path.join(__dirname, "rules", n));\n',
  ],
  // Finding 6: bindings() counts `name` over the whole file, but misses the FIRST element of an array pattern after a
  // declaration keyword (`const [key] = …`: the lookbehind refuses a `[` after a word) and any binding of the global
  // object's property (a sloppy function's `this.key = …`). A name bound once to a literal or a counter is then trusted
  // where another binding, or the global, gives it any text.
  [6, 'a literal-bound name shadowed by const [key] = [k]', 'const key = "name";\n{\n  const [key] = [k];\n  run([].map[key]);\n}\n'],
  [6, 'a counter shadowed by const [i] = [k]', 'let i = 0;\ni++;\n{\n  const [i] = [k];\n  run([].map[i]);\n}\n'],
  [
    6,
    "a literal-bound name in ANOTHER function's scope; the top level's is the global a sloppy this.key sets",
    'function unused() {\n  var key = "name";\n  return key;\n}\nfunction setter() {\n  this.key = k;\n}\nsetter();\nrun([].map[key]);\n',
  ],
  // Finding 7: node:test's module IS its test function (`require("node:test") === test`, `test.test === test`), so
  // `t.test.run` and `test.test.run` are node:test's run; withoutRun reads only the first member after the name.
  [7, 'node:test bound to a name: t.test.run({ files })', 'const t = require("node:test");\nt.test.run({ files: names.map((name) => path.join(__dirname, "rules", name)) });\n'],
  [7, "node:test's test destructured: test.test.run({ files })", 'const { test } = require("node:test");\ntest.test.run({ files: names.map((name) => path.join(__dirname, "rules", name)) });\n'],
  // Finding 8: Reflect's and Object's reflection are refused by spelling (`Reflect.get`); destructured from them, they
  // read any member by a key with no brackets at all.
  [8, 'Reflect.get destructured: const { get } = Reflect; get([].map, k)', 'const { get } = Reflect;\nrun(get([].map, k));\n'],
  [8, 'Object.getOwnPropertyDescriptor renamed: d(proto, k).value', 'const { getOwnPropertyDescriptor: d } = Object;\nrun(d(Object.getPrototypeOf(run), k).value);\n'],
  // Finding 9: a literal key is judged by its RAW text (RUNNER_KEY, RAW_RUNS' "constructor"); node reads it with its
  // escapes spelled out. Also RAW_RUNS excepts a "constructor" string after `,` (meant for a guard's key list), which a
  // destructuring's second key is.
  [9, 'a literal key with a \\x escape: run["constru\\x63tor"]', 'run(run["constru\\x63tor"]);\n'],
  [9, 'a literal key with a \\u escape: run["constr\\u0075ctor"]', 'run(run["constr\\u0075ctor"]);\n'],
  [9, 'a literal key with a legacy octal escape: run["\\143onstructor"]', 'run(run["\\143onstructor"]);\n'],
  [9, 'a destructuring key with an escape: { "constru\\x63tor": F } = run', 'const { "constru\\x63tor": F } = run;\nrun(F);\n'],
  [9, 'a quoted "constructor" as a destructuring\'s second key: { name: unused, "constructor": F } = run', 'const { name: unused, "constructor": F } = run;\nrun(F);\n'],
];
for (const [finding, title, main] of CASES)
  test(`finding ${finding}: hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });

// Finding 10: child_process given a COMMAND the program computes (no runner word in it): the text of each rules file run
// as a shell command, or `./NAME` run from the rules folder. programCommandTexts refuses a computed command only where
// a package runner is in play, and a computed operand only after a runner it names (`sh`, `node`).
const SHELL_HEAD =
  'const fs = require("node:fs");\nconst path = require("node:path");\nconst cp = require("node:child_process");\nconst dir = path.join(__dirname, "rules");\nconst names = fs.readdirSync(dir).filter((n) => n.endsWith(".sh"));\n';
const SHELL_CASES: readonly (readonly [string, string, string])[] = [
  [
    "each rules file's text as a shell command: execSync(readFileSync(file))",
    'for (const name of names) cp.execSync(fs.readFileSync(path.join(dir, name), "utf8"), { stdio: "inherit" });\n',
    "printf 'touch PWNED\\n' > tools/rules/a.sh\n",
  ],
  [
    'each rules file run by its name from the rules folder: execSync("./" + name, { cwd })',
    'for (const name of names) cp.execSync("./" + name, { cwd: dir, stdio: "inherit" });\n',
    "printf '#!/bin/sh\\ntouch ../../PWNED\\n' > tools/rules/a.sh\nchmod +x tools/rules/a.sh\n",
  ],
  [
    'a helper of the program takes the command: exec(cmd, args) then exec(file, [])',
    'const exec = (cmd, args) => cp.execFileSync(cmd, args, { stdio: "inherit" });\nfor (const name of names) exec(path.join(dir, name), []);\n',
    "printf '#!/bin/sh\\ntouch PWNED\\n' > tools/rules/a.sh\nchmod +x tools/rules/a.sh\n",
  ],
];
for (const [title, main, agent] of SHELL_CASES)
  test(`finding 10: hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    const ws = project(t, {
      'src.txt': '1\n',
      'src/keep.txt': '1\n',
      'one.sh': agent,
      'tools/check.js': SHELL_HEAD + main,
      'tools/rules/a.sh': '#!/bin/sh\n',
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    });
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
  });

// Finding 11, TypeScript: a non-null assertion `!` before `[` is no value end for computedKeyReads (`[\w$)\]}…]` before
// the `[`), so `[].map![k]` is no member read.
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
test('finding 11: a TypeScript hook program; a non-null assertion before a computed key: [].map![k] is refused', (t) => {
  const text = `${TS_RULES_RUNNER_HEAD}run([].map![k]);\n`;
  const source = ts.createSourceFile('check.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS) as unknown as { parseDiagnostics: readonly unknown[] };
  t.deepEqual(source.parseDiagnostics, []);
  const { outputText } = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  t.true(outputText.includes('run([].map[k]);'), outputText);
  t.notDeepEqual(nodeComputedLoads(text, { typescript: true }).unknown, [], 'the computed key read after a non-null assertion is not refused');
});

test('control: the plain program is refused by the node reader', (t) => {
  t.notDeepEqual(nodeComputedLoads(`${HEAD}run([].map[k]);\n`).unknown, []);
});
