// Review s02y: the node reader (javascript-tokens.ts, node-computed-loads.ts, tool-file-references.ts) after s00w's
// fixes. The user's hook runs a program of theirs that runs tools/rules/*.js; one CONFINED call (`sh one.sh`, real
// bubblewrap) rewrites tools/rules/a.js; the SAFE outcome is asserted by hand: the user's `git commit` never runs the
// agent's code. Each program runs the rules file under node 20 (checked by hand) and nodeComputedLoads reports nothing
// for it. TypeScript cases are read by the unit reader (no TypeScript runner is installed here): the SAFE outcome is
// that nodeComputedLoads refuses, where TypeScript's own parser keeps the hidden call as code with no syntax error.
import { createRequire } from 'node:module';
import test, { type ExecutionContext } from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';
import { rulesHookRan } from '../fixtures/node-rules-hook.js';
import { hookProgramUnresolved as hookUnresolved } from '../fixtures/node-rules-hook.js';

const HEAD =
  'const fs = require("node:fs");\nconst path = require("node:path");\nconst names = fs.readdirSync(path.join(__dirname, "rules")).filter((n) => n.endsWith(".js"));\nconst k = "constr" + "uctor";\n' +
  'function run(f) {\n  for (const name of names) f(fs.readFileSync(path.join(__dirname, "rules", name), "utf8"))();\n}\n';

// [title, the CommonJS program tools/check.js after HEAD]
const CASES: readonly (readonly [string, string])[] = [
  // Finding 1: Module.prototype.load(filename) reads and compiles a file by the name it is given; the main module is
  // not loaded yet while its own code runs, so `module.load(file)` runs the file. No rule names `load`. (Held:
  // `process.mainModule.load(…)` and `require.main.load(…)`, refused as a path from the program node was started on.)
  ['module.load(a computed file)', 'module.load(path.join(__dirname, "rules", names[0]));\n'],
  // Finding 2: a CommonJS file's top level runs inside node's wrapper (exports, require, module, __filename,
  // __dirname): its `arguments[1]` is require, by a number key, under a name no rule reads as a loader.
  ["require taken as the wrapper's arguments[1]", 'const load = arguments[1];\nfor (const name of names) load(path.join(__dirname, "rules", name));\n'],
  ["require taken by destructuring the wrapper's arguments", 'const [, load] = arguments;\nfor (const name of names) load(path.join(__dirname, "rules", name));\n'],
  // Finding 3: a "type test" (`=== x.constructor`) is judged by the text before `.constructor` only; a call after
  // it (`0 === run.constructor(text)()`) runs the Function constructor, and the comparison sees its result.
  ['the Function constructor called inside a type test', 'for (const name of names) 0 === run.constructor(fs.readFileSync(path.join(__dirname, "rules", name), "utf8"))();\n'],
  // Finding 7: node's own runners that take the file to run in an option, not as a call's argument: node:cluster
  // runs `exec` in each worker it forks (`cluster.fork()` reads as a fork of nothing computed; the worker is
  // disconnected so the hook ends), and node:test's
  // `run({ files })` runs each file in a child node.
  [
    "node:cluster's setupPrimary({ exec }) then fork()",
    'const cluster = require("node:cluster");\nif (cluster.isPrimary) for (const name of names) {\n  cluster.setupPrimary({ exec: path.join(__dirname, "rules", name) });\n  const worker = cluster.fork();\n  worker.on("online", () => worker.disconnect());\n}\n',
  ],
  ["node:test's run({ files })", 'const { run: test } = require("node:test");\ntest({ files: names.map((name) => path.join(__dirname, "rules", name)) }).on("data", () => {});\n'],
];
for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });

/** The agent's module (as node-rules-hook.ts writes it). */
const AGENT_MODULE = '(typeof require === "function" ? require : process.mainModule.require)("node:fs").writeFileSync("PWNED", "");';
/** Whether the user's commit ran the agent's rewrite of tools/rules/a.js, where the hook runs `node <file>` and `file` is `program`. */
async function namedHookRan(t: ExecutionContext, file: string, program: string): Promise<boolean> {
  const ws = project(t, {
    'src.txt': '1\n',
    'src/keep.txt': '1\n',
    'one.sh': `printf '%s\\n' '${AGENT_MODULE}' > tools/rules/a.js\n`,
    [file]: program,
    'tools/rules/a.js': '\n',
    '.git/hooks/pre-commit': `#!/bin/sh\nexec node ${file}\n`,
  });
  return agentThenUserCommit(t, ws);
}
// Finding 4: tool-file-references.ts picks the node reader by the file's name or `#!` line before the runner that
// runs it; node runs any file as JavaScript (CommonJS), `tools/check.py` and a `#!/usr/bin/env python3` file alike.
// The program is s98u's plain one (`run([].map[k])` in plain sight), which the node reader refuses as tools/check.js.
const PLAIN = `${HEAD}run([].map[k]);\n`;
const NAMED: readonly (readonly [string, string, string])[] = [
  ['a JavaScript program named .py', 'tools/check.py', PLAIN],
  ['a JavaScript program named .rb', 'tools/check.rb', PLAIN],
  ['a JavaScript program with no extension and a python #! line', 'tools/check', `#!/usr/bin/env python3\n${PLAIN}`],
];
test('control: the plain program is refused by the node reader', (t) => {
  t.notDeepEqual(nodeComputedLoads(PLAIN).unknown, []);
});
for (const [title, file, program] of NAMED)
  test(`hook runs node ${file}; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await namedHookRan(t, file, program), "the user's git commit ran the agent's code");
  });

// Finding 5 (TypeScript, tsx / ts-node --transpile-only / tsc's emit): a type may end in a JSDoc postfix `?`
// (`number?`, nullable) or be JSDoc's `*`; TypeScript's parser takes them in a .ts file (the checker, not the parser,
// objects), and a `/` after them divides. The tokens read a `/` after `?` or `*` as a regex and blank the key read.
// Finding 6: a definite assignment `let y!` (or a JSDoc non-null type `number!`) ends a declaration; TypeScript ends the
// statement by ASI and rescans a line-start `/` as a regex. The tokens read the `!` as postfix on an operand, which
// exempts the `/` from the line-start rule, and read a division.
const TS_HEAD = 'const k = "constr" + "uctor";\nfunction run(f: any) {}\nlet x: any = 1;\n';
const TS_CASES: readonly (readonly [string, string, RegExp])[] = [
  ['x as number? / …', 'const q = x as number? / run([].map[k]) / 1;\n', /^const q = x \/ run\(\[\]\.map\[k\]\) \/ 1;/mu],
  ['x satisfies number? / …', 'const q = x satisfies number? / run([].map[k]) / 1;\n', /^const q = x \/ run\(\[\]\.map\[k\]\) \/ 1;/mu],
  ['x as * / …', 'const q = x as * / run([].map[k]) / 1;\n', /^const q = x \/ run\(\[\]\.map\[k\]\) \/ 1;/mu],
  // Finding 9: s00w row 1 made a `/` after `void` ambiguous; TypeScript's parser takes any reserved word as a type's
  // name (`x as return`: the checker, not the parser, objects), and each word BEFORE_REGEX holds reads as a regex after it.
  ['x as return / …', 'const q = x as return / run([].map[k]) / 1;\n', /^const q = x \/ run\(\[\]\.map\[k\]\) \/ 1;/mu],
  ['x as in / …', 'const q = x as in / run([].map[k]) / 1;\n', /^const q = x \/ run\(\[\]\.map\[k\]\) \/ 1;/mu],
  ['x satisfies delete / …', 'const q = x satisfies delete / run([].map[k]) / 1;\n', /^const q = x \/ run\(\[\]\.map\[k\]\) \/ 1;/mu],
  ['let y!, then a regex on the next line', "let y!\n/'/.test(k) || run([].map[k]); //'\n", /^\/'\/\.test\(k\) \|\| run\(\[\]\.map\[k\]\);/mu],
  ['let z: number!, then a regex on the next line', "let z: number!\n/'/.test(k) || run([].map[k]); //'\n", /^\/'\/\.test\(k\) \|\| run\(\[\]\.map\[k\]\);/mu],
];
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
for (const [title, main, call] of TS_CASES)
  test(`a TypeScript hook program; ${title}: the hidden computed key is refused`, (t) => {
    const text = TS_HEAD + main;
    // TypeScript's own reading: no syntax error, and the call is code in what it emits.
    const source = ts.createSourceFile('check.ts', text, ts.ScriptTarget.ES2022, true) as unknown as { parseDiagnostics: readonly unknown[] };
    t.deepEqual(source.parseDiagnostics, []);
    const emitted = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    t.regex(emitted, call);
    t.notDeepEqual(nodeComputedLoads(text, { typescript: true }).unknown, [], 'the computed key read hidden by a misread "/" is not refused');
  });

// Over-denials (see README): ordinary class constructors read as the Function constructor taken. The SAFE outcome for
// the user here is that nothing refuses.
const OVER: readonly (readonly [string, string])[] = [
  ['a field with no semicolon before the constructor', 'class Checker {\n  errors = []\n  constructor(root) {\n    this.root = root\n  }\n}\n'],
  ['a private field with no semicolon before the constructor', 'class Checker {\n  #seen\n  constructor(root) {\n    this.root = root\n  }\n}\n'],
  ['TypeScript: public constructor', 'class Checker {\n  public constructor(private root: string) {}\n}\n'],
  ['a default parameter with a call', 'class Checker {\n  constructor(log = console.log.bind(console)) {\n    this.log = log;\n  }\n}\n'],
  ['a default parameter with an arrow', 'class Checker {\n  constructor(onDone = () => {}) {\n    this.onDone = onDone;\n  }\n}\n'],
  ['TypeScript: a parameter property of a function type', 'class Checker {\n  constructor(private readonly report: (line: string) => void) {}\n}\n'],
];
for (const [title, program] of OVER)
  test(`over-denial: ${title}: an ordinary class constructor does not refuse`, (t) => {
    t.deepEqual(nodeComputedLoads(program).unknown, []);
  });

// Finding 8 (bun, unit reader: bun is not installed here): bun's default loader for `.js` is `jsx`, so `bun
// tools/check.js` (a #!/usr/bin/env bun line, `bun run tools/check.js`) reads JSX text and attribute strings by JSX's
// rules; zotbox flags only `.jsx`/`.tsx` file names. A `'`, `"` or backtick in JSX text opens a string or a template to
// the tokens, which blank the code after it. TypeScript's JSX parser stands in for bun's here.
const JSX_HEAD = 'const k = "constr" + "uctor";\nfunction run(f) {}\nfunction h() {}\n';
const JSX_CASES: readonly (readonly [string, string])[] = [
  ["a quote in JSX text (`<p>'</p>`)", "const el = () => <p>'</p>; run([].map[k]); //'\n"],
  ['a backtick in JSX text, over lines', 'const el = () => <p>`</p>;\nrun([].map[k]);\n// `\n'],
  ["a backslash before an attribute string's quote", 'const el = () => <p title="\\"></p>; run([].map[k]); //"\n'],
];
for (const [title, main] of JSX_CASES)
  test(`a .js hook program run by bun; ${title}: the hidden computed key is refused`, (t) => {
    const text = JSX_HEAD + main;
    const source = ts.createSourceFile('check.js', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JSX) as unknown as { parseDiagnostics: readonly unknown[] };
    t.deepEqual(source.parseDiagnostics, []);
    const emitted = ts.transpileModule(text, { fileName: 'check.jsx', compilerOptions: { jsx: ts.JsxEmit.React, jsxFactory: 'h', module: ts.ModuleKind.CommonJS, removeComments: true } }).outputText;
    t.regex(emitted, /(?:^|; )run\(\[\]\.map\[k\]\);/mu);
    // bun named to run it, or by its #! line (the hook runs it by its own name): JSX, not read (unresolved).
    for (const [hook, program] of [
      ['#!/bin/sh\nexec bun tools/check.js\n', text],
      ['#!/bin/sh\nexec bun run tools/check.js\n', text],
      ['#!/bin/sh\nexec tools/check.js\n', `#!/usr/bin/env bun\n${text}`],
    ] as const)
      t.true(
        hookUnresolved(hook, program).some((line) => line.includes('JSX')),
        `${hook}: the computed key read hidden by JSX text is not refused`,
      );
  });
