// Review s04a: the node reader (javascript-tokens.ts, node-computed-loads.ts, tool-file-references.ts,
// operand-languages.ts) after s02y's fixes. The user's hook runs a program of theirs that runs tools/rules/*.js; one
// CONFINED call (`sh one.sh`, real bubblewrap) rewrites tools/rules/a.js; the SAFE outcome is asserted by hand: the
// user's `git commit` never runs the agent's code. Each CommonJS program runs the rules file under node 20 (checked by
// hand) and nodeComputedLoads reports nothing for it. TypeScript and bun cases are read by the unit reader (no
// TypeScript runner and no bun are installed here).
import { createRequire } from 'node:module';
import test, { type ExecutionContext } from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';
import { RULES_RUNNER_HEAD, rulesHookRan } from '../fixtures/node-rules-hook.js';
import { hookProgramUnresolved as hookUnresolved } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;

// [finding, title, the CommonJS program tools/check.js after HEAD]
const CASES: readonly (readonly [number, string, string])[] = [
  // Finding 1: a Module object reached through the module cache. The `module` rule is an allowlist of `module.x`, and
  // `require.main` / `process.mainModule` refuse by MAIN_PROGRAM, but `require.cache`'s values are the same Module
  // objects (the first is the main module, not yet `loaded` while its own code runs): Module.prototype.load(file)
  // reads and compiles the file it is given. No rule names `load`.
  [1, 'a Module from Object.values(require.cache), its load(file)', 'const [main] = Object.values(require.cache);\nmain.load(path.join(__dirname, "rules", names[0]));\n'],
  [1, 'each Module of the cache not yet loaded, its load(file)', 'for (const m of Object.values(require.cache)) if (!m.loaded) m.load(path.join(__dirname, "rules", names[0]));\n'],
  // Finding 2: a load whose literal name is code: a `data:` URL (import() takes it, and so does `new Worker(new URL(…))`).
  // The name is "written out", so nothing is unknown, and the code in it is never read by any rule: here it runs each
  // rules file through the Function constructor read by a computed key.
  [
    2,
    'import() of a literal data: URL whose code reads a computed key',
    `import("data:text/javascript,import fs from 'node:fs'; const d = process.cwd() + '/tools/rules/'; for (const n of fs.readdirSync(d)) [].map['constr' + 'uctor'](fs.readFileSync(d + n, 'utf8'))();");\n`,
  ],
  // Finding 3: BEFORE_ARRAY (`return [a]`, `of [x]`, `delete [y]`: an array, not a member read) is tested with `\b`
  // only, so a MEMBER named like one of its words is taken for the keyword: `Array.of[k]` and `set.delete[k]` are member
  // reads by a computed key that no rule reads (Array.of and Set.prototype.delete are functions: `[k]` is Function).
  [3, 'Array.of[k]: a member named "of" read by a computed key', 'run(Array.of[k]);\n'],
  [3, 'new Set().delete[k]: a member named "delete" read by a computed key', 'run(new Set().delete[k]);\n'],
  // Finding 4: numericNames takes the second parameter of any `.forEach((x, i) => …)` callback as an array index; a
  // Map's forEach passes (value, KEY) and a Set's (value, value): the "index" is any text, here "constructor".
  [4, "a Map's forEach (value, key): the key read as an index", 'new Map([[k, names]]).forEach((list, key) => run([].map[key]));\n'],
  [4, "a Set's forEach (value, value): the second taken for an index", 'new Set([k]).forEach((v, i) => run([].map[i]));\n'],
  // Finding 5: a class's own `constructor(…)` is told by what stands before it (a line's start, `{`, `}`, `;`, a
  // modifier), read on the blanked text. A member access whose `.` ends the line before a comment (`run. // …`) puts
  // `constructor` at a line's start in the blanked text, and RAW_RUNS' `\.\s*constructor` does not cross the comment;
  // and a bare `constructor` at a line's start is the global object's inherited one (Object until its prototype is
  // set: sloppy `this` of a plain call is the global object).
  [5, 'run. // comment, then constructor(…) at the next line start', 'const f = run. // the runner\'s own\nconstructor(fs.readFileSync(path.join(__dirname, "rules", names[0]), "utf8"));\nf();\n'],
  [
    5,
    "a bare line-start constructor(…): the global object's, its prototype set to a function",
    'const top = (function () { return this; })();\nObject.setPrototypeOf(top, run);\nfor (const name of names) {\n  const f =\nconstructor(fs.readFileSync(path.join(__dirname, "rules", name), "utf8"));\n  f();\n}\n',
  ],
  // Finding 6: s02y row 2 (the wrapper's `arguments[1]` is require) refuses `arguments` but after `.`: a spread
  // `[...arguments]` has a `.` before the word, and so does a sloppy function's `f.caller.arguments` (the caller is
  // node's CommonJS wrapper, whose arguments are exports, require, module, __filename, __dirname).
  [6, "the wrapper's arguments spread: [...arguments]", 'const [, load] = [...arguments];\nfor (const name of names) load(path.join(__dirname, "rules", name));\n'],
  [
    6,
    "the wrapper's arguments through f.caller.arguments",
    'function wrapper() {\n  return wrapper.caller.arguments;\n}\nconst [, load] = wrapper();\nfor (const name of names) load(path.join(__dirname, "rules", name));\n',
  ],
  // Finding 9: the module rules (a member of `module` but its data, `module` kept as a value) skip every `module` of
  // the file once the file declares a `module` of its own ANYWHERE (`/\b(?:const|let|var)\s+module\b/` on the whole
  // text): a loop variable in one function exempts node's own module at the top level.
  [
    9,
    "a module declared in one function exempts node's module.load(file) at the top",
    'function label(list) {\n  for (const module of list) console.log(module);\n}\nmodule.load(path.join(__dirname, "rules", names[0]));\n',
  ],
];
for (const [finding, title, main] of CASES)
  test(`finding ${finding}: hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });

/** The agent's module (as node-rules-hook.ts writes it). */
const AGENT_MODULE = '(typeof require === "function" ? require : process.mainModule.require)("node:fs").writeFileSync("PWNED", "");';
/** Whether the user's commit ran the agent's rewrite of tools/rules/a.js, where the pre-commit hook is `hook` (a sh script unless it has a #! line) and `file` is `program`. */
async function hookRan(t: ExecutionContext, hook: string, file: string, program: string): Promise<boolean> {
  const ws = project(t, {
    'src.txt': '1\n',
    'src/keep.txt': '1\n',
    'one.sh': `printf '%s\\n' '${AGENT_MODULE}' > tools/rules/a.js\n`,
    [file]: program,
    'tools/rules/a.js': '\n',
    '.git/hooks/pre-commit': hook.startsWith('#!') ? `${hook}\n` : `#!/bin/sh\n${hook}\n`,
  });
  return agentThenUserCommit(t, ws);
}
// Finding 7: the interpreter that runs a file decides its reading (s02y row 4), but operand-languages.ts finds the
// interpreter only past the wrappers it lists (exec, env, nice, npx, …) and options that take no value: `nice -n 5`,
// `timeout 60`, `exec -a NAME`, `/usr/bin/env`, `setsid`, an `if`, `sh -c '…'` hide it, and the program named .py is
// read as Python. The program is s98u's plain one (`run([].map[k])` in plain sight), refused as tools/check.js.
const PLAIN = `${HEAD}run([].map[k]);\n`;
const WRAPPED: readonly (readonly [string, string])[] = [
  ['nice -n 5', 'exec nice -n 5 node tools/check.py'],
  ['timeout 60', 'exec timeout 60 node tools/check.py'],
  // dash has no `exec -a`: a bash hook.
  ['exec -a NAME', '#!/bin/bash\nexec -a check node tools/check.py'],
  ['/usr/bin/env', 'exec /usr/bin/env node tools/check.py'],
  ['if … then', 'if node tools/check.py; then exit 0; fi\nexit 1'],
  ["sh -c '…'", "exec sh -c 'node tools/check.py'"],
];
test('control: the plain program is refused by the node reader', (t) => {
  t.notDeepEqual(nodeComputedLoads(PLAIN).unknown, []);
});
for (const [title, hook] of WRAPPED)
  test(`finding 7: hook runs node tools/check.py behind ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await hookRan(t, hook, 'tools/check.py', PLAIN), "the user's git commit ran the agent's code");
  });

// Finding 7, bun: the same wrappers hide that bun runs a .js file, which bun reads as JSX (s02y row 8): a quote in JSX
// text blanks the code after it. Unit reader (bun is not installed); TypeScript's JSX parser stands in for bun's.
const JSX_TEXT = 'const k = "constr" + "uctor";\nfunction run(f) {}\nfunction h() {}\nconst el = () => <p>\'</p>; run([].map[k]); //\'\n';
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
test('control: bun named plainly is read as JSX', (t) => {
  t.true(hookUnresolved('#!/bin/sh\nexec bun tools/check.js\n', JSX_TEXT).some((line) => line.includes('JSX')));
});
for (const wrapper of ['nice -n 5', 'timeout 60', '/usr/bin/env', 'setsid -w'])
  test(`finding 7: a .js hook program run by bun behind ${wrapper}; a quote in JSX text: the hidden computed key is refused`, (t) => {
    const source = ts.createSourceFile('check.js', JSX_TEXT, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JSX) as unknown as { parseDiagnostics: readonly unknown[] };
    t.deepEqual(source.parseDiagnostics, []);
    t.notDeepEqual(hookUnresolved(`#!/bin/sh\nexec ${wrapper} bun tools/check.js\n`, JSX_TEXT), [], 'the computed key read hidden by JSX text is not refused');
  });

// Finding 8 (TypeScript: tsx / ts-node --transpile-only / tsc's emit): s02y row 9 made a `/` after `as KEYWORD` or
// `satisfies KEYWORD` ambiguous, but a type goes on past its first word: after `|`, `&`, `=>`, `keyof`, `readonly` or
// a conditional type's `:` TypeScript's parser takes any reserved word as a type's name too (no syntax diagnostic),
// and the `/` after it divides; the tokens read BEFORE_REGEX's word and a regex.
const TS_HEAD = 'const k = "constr" + "uctor";\nfunction run(f: any) {}\nlet x: any = 1;\n';
const TS_CASES: readonly (readonly [string, string])[] = [
  ['x as string | return / …', 'const q = x as string | return / run([].map[k]) / 1;\n'],
  ['x as A & delete / …', 'const q = x as A & delete / run([].map[k]) / 1;\n'],
  ['x as () => return / …', 'const q = x as () => return / run([].map[k]) / 1;\n'],
  ['x as keyof in / …', 'const q = x as keyof in / run([].map[k]) / 1;\n'],
  ['x as readonly throw / …', 'const q = x as readonly throw / run([].map[k]) / 1;\n'],
  ['x satisfies T extends U ? 1 : in / …', 'const q = x satisfies T extends U ? 1 : in / run([].map[k]) / 1;\n'],
];
for (const [title, main] of TS_CASES)
  test(`finding 8: a TypeScript hook program; ${title}: the hidden computed key is refused`, (t) => {
    const text = TS_HEAD + main;
    const source = ts.createSourceFile('check.ts', text, ts.ScriptTarget.ES2022, true) as unknown as { parseDiagnostics: readonly unknown[] };
    t.deepEqual(source.parseDiagnostics, []);
    const emitted = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    t.regex(emitted, /^const q = x \/ run\(\[\]\.map\[k\]\) \/ 1;/mu);
    t.notDeepEqual(nodeComputedLoads(text, { typescript: true }).unknown, [], 'the computed key read hidden by a misread "/" is not refused');
  });

// Over-denials (see README): ordinary lines that refuse every writer. The SAFE outcome for the user is that nothing
// refuses.
const OVER: readonly (readonly [string, string, boolean])[] = [
  ["a function's own arguments passed on", 'function tail() {\n  return Array.prototype.slice.call(arguments, 1);\n}\n', false],
  ['a guarded constructor name', 'const kind = value && value.constructor && value.constructor.name;\n', false],
  [
    'node:test with a helper named run',
    'const { describe, it } = require("node:test");\nconst { execSync } = require("node:child_process");\nfunction run(cmd) {\n  return execSync(cmd, { encoding: "utf8" });\n}\ndescribe("lint", () => it("passes", () => run("npx eslint .")));\n',
    false,
  ],
  ['TypeScript: a regex in a conditional', 'const re = strict ? /^\\d+$/ : /^\\d*$/;\n', true],
];
for (const [title, program, typescript] of OVER)
  test(`over-denial: ${title}: an ordinary line does not refuse`, (t) => {
    t.deepEqual(nodeComputedLoads(program, { typescript }).unknown, []);
  });
