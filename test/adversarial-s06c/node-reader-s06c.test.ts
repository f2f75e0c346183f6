// Review s06c: the node reader (javascript-tokens.ts, node-computed-loads.ts) after s04a's fixes. The user's hook runs a
// program of theirs that runs tools/rules/*.js; one CONFINED call (`sh one.sh`, real bubblewrap) rewrites
// tools/rules/a.js; the SAFE outcome is asserted by hand: the user's `git commit` never runs the agent's code. Each
// CommonJS program runs the rules file under node 20 (checked by hand) and nodeComputedLoads reports nothing for it.
// The TypeScript cases are read by the unit reader (no TypeScript runner is installed here), each checked against
// TypeScript's own parser (no syntax diagnostic, the hidden call kept as code in a division). The over-denial cases
// assert that an ordinary program is NOT refused.
import { createRequire } from 'node:module';
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { RULES_RUNNER_HEAD, rulesHookRan, TS_RULES_RUNNER_HEAD } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;
/** tools/rules' first file, read as text (`run`'s argument is the Function constructor reached some other way). */
const FIRST = 'fs.readFileSync(path.join(__dirname, "rules", names[0]), "utf8")';

// [finding, title, the CommonJS program tools/check.js after HEAD]
const CASES: readonly (readonly [number, string, string])[] = [
  // Finding 1: a class's own constructor is told by a line start (or `{`, `}`, `;`, a modifier) in a class body
  // (inClassBody). A class FIELD's initializer stands in the class body too: `static f =` then a line-start
  // `constructor(…)` is a bare name read in the initializer, the global object's inherited `constructor`, which is
  // Function once the global object's prototype is set to a function (s04a row 5b's trick, now outside a class).
  [
    1,
    "a static field's initializer: a line-start bare constructor(…) in a class body",
    `Object.setPrototypeOf((function () { return this; })(), run);\nclass R {\n  static f =\nconstructor(${FIRST});\n}\nR.f();\n`,
  ],
  [
    1,
    "an instance field's initializer: the same, `x =` then constructor(…) on the next line",
    `Object.setPrototypeOf((function () { return this; })(), run);\nclass R {\n  x =\nconstructor(${FIRST})\n}\nnew R().x();\n`,
  ],
  // Finding 2: insideFunction takes a `{` after `NAME(…)` for a method's body ("a call followed by a block is no
  // JavaScript"). With a line break between them it is JavaScript: ASI ends the call's statement and the `{` opens a
  // top-level BLOCK, in which `arguments` is node's CommonJS wrapper's (require at [1]).
  [
    2,
    "a top-level block after a call on its own line: the wrapper's arguments read as a method's",
    'init()\n{\n  const [, load] = arguments;\n  for (const name of names) load(path.join(__dirname, "rules", name));\n}\nfunction init() {}\n',
  ],
  // Finding 3: s04a row 6 refuses `.caller`, `.callee`, `.arguments` as members spelled with a dot. The same members
  // read by a literal key (`f["caller"]["arguments"]`: a literal key that is not RUNNER_KEY passes), by a destructuring
  // (`const { caller: { arguments: [, load] } } = f`) or from a stack frame (`Error.prepareStackTrace` hands CallSites,
  // whose getFunction() is node's sloppy wrapper) reach the wrapper's arguments: require at [1].
  [
    3,
    "the wrapper's arguments by literal keys: f['caller']['arguments']",
    'function wrapper() {\n  return wrapper["caller"]["arguments"];\n}\nconst [, load] = wrapper();\nfor (const name of names) load(path.join(__dirname, "rules", name));\n',
  ],
  [
    3,
    "the wrapper's arguments by a destructuring: { caller: { arguments: [, load] } }",
    'function wrapper() {\n  const { caller: { arguments: [, load] } } = wrapper;\n  return load;\n}\nconst load = wrapper();\nfor (const name of names) load(path.join(__dirname, "rules", name));\n',
  ],
  [
    3,
    "the wrapper function from a stack frame's getFunction(), its ['arguments']",
    'Error.prepareStackTrace = (error, frames) => frames;\nconst frames = new Error().stack;\nconst top = frames.map((f) => f.getFunction()).find((f) => f && f.length === 5);\nconst [, load] = top["arguments"];\nfor (const name of names) load(path.join(__dirname, "rules", name));\n',
  ],
  // Finding 4: BEFORE_ARRAY (`of [x]`, `await [p]`: an array, not a member read) takes a VARIABLE so named for the
  // keyword. `of` is no reserved word anywhere, `await`, `yield` and `let` are names in a sloppy CommonJS file: `of[k]`
  // is a member read by a computed key that no rule reads (s04a row 3 fixed a member `.of[k]` only).
  [4, 'a variable named of, indexed by a computed key: of[k]', `const of = run;\nof[k](${FIRST})();\n`],
  [4, 'variables named await and yield (sloppy CommonJS), indexed by a computed key', 'var await = run, yield = run;\nrun(await[k]);\n'],
  // Finding 5: bindings() counts a parameter only where its parentheses hold no others: after a default that calls
  // (`options = String()`), the parameter is not counted. A name the file binds once to a number (numericNames) or to
  // one literal (literalBound) is then shadowed by the parameter, which the caller gives any text: "constructor".
  [5, 'a counter shadowed by a parameter after a default that calls: [].map[i]', 'let i = 0;\ni++;\nfunction use(options = String(), i) {\n  run([].map[i]);\n}\nuse(undefined, k);\n'],
  [5, 'a name bound to one literal shadowed the same way: [].map[key]', 'const key = "name";\nfunction use(options = String(), key) {\n  run([].map[key]);\n}\nuse(undefined, k);\n'],
  // Finding 6: computedKeyReads finds a member read where `[` follows a name, `)`, `]` or `}`; a tagged template's
  // result (``pick``[k]``) ends in a backtick, and the tag may return any value: here the runner, whose [k] is Function.
  [6, "a tagged template's result indexed by a computed key: pick``[k]", 'function pick() {\n  return run;\n}\nrun(pick``[k]);\n'],
  // Finding 7: s04a row 1 refuses `require.cache`, but createRequire's require has the same `.cache` (Module._cache):
  // node:module taken only for createRequire passes, and `r.cache`'s first value is the main Module, not yet loaded.
  [
    7,
    "createRequire(__filename).cache: the main Module's load(file)",
    'const { createRequire } = require("node:module");\nconst r = createRequire(__filename);\nconst [main] = Object.values(r.cache);\nmain.load(path.join(__dirname, "rules", names[0]));\n',
  ],
  // …and its `.main` is process.mainModule, which MAIN_PROGRAM (tool-file-references.ts) reads only as `require.main`.
  [
    7,
    "createRequire(__filename).main: the main Module's load(file)",
    'const { createRequire } = require("node:module");\nconst r = createRequire(__filename);\nr.main.load(path.join(__dirname, "rules", names[0]));\n',
  ],
  // Finding 8: node:test refuses unless taken without `run` (s04a's withoutRun), judged by the destructured NAMES. But
  // node:test's `test` and `it` carry `run` as a member (`test.test === test`, `it.run`): `{ describe, test }` or
  // `{ describe, it }` then `test.run({ files })` runs each file in a child node.
  [
    8,
    "node:test's run reached as test.run from { describe, test }",
    'const { describe, test } = require("node:test");\ntest.run({ files: names.map((name) => path.join(__dirname, "rules", name)) });\n',
  ],
  [8, "node:test's run reached as it.run from { describe, it }", 'const { describe, it } = require("node:test");\nit.run({ files: names.map((name) => path.join(__dirname, "rules", name)) });\n'],
];
for (const [finding, title, main] of CASES)
  test(`finding ${finding}: hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });

// Finding 9, TypeScript: the type `as`/`satisfies` opens (ReadState.typeFrom, s04a row 8) is taken to end at a line
// break, `{`, `}` or `=`. None ends a TypeScript type: a union goes on over lines, a type literal `{}` or a generic
// default `<T = …>` stands inside one. After it, a keyword is a type's name again and the `/` divides.
const TS_CASES: readonly (readonly [string, string])[] = [
  ['a union over lines: x as⏎| number⏎| return / …', 'const q = x as\n  | number\n  | return / run([].map[k]) / 1;\n'],
  ['a type literal before the keyword: x as {} | return / …', 'const q = x as {} | return / run([].map[k]) / 1;\n'],
  ['a type literal inside type arguments: x as Record<string, { a: 1 }> | delete / …', 'const q = x as Record<string, { a: 1 }> | delete / run([].map[k]) / 1;\n'],
  ['a generic default: x as <T = number>() => return / …', 'const q = x as <T = number>() => return / run([].map[k]) / 1;\n'],
];
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
for (const [title, main] of TS_CASES)
  test(`finding 9: a TypeScript hook program; ${title}: the hidden computed key is refused`, (t) => {
    const text = `${TS_RULES_RUNNER_HEAD}declare const x: number;\n${main}`;
    // TypeScript's own reading: no syntax error, and the call is code, a division's operand.
    const source = ts.createSourceFile('check.ts', text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS) as unknown as { parseDiagnostics: readonly unknown[] };
    t.deepEqual(source.parseDiagnostics, []);
    const { outputText } = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
    t.true(/\/ run\(\[\]\.map\[k\]\) \/ 1;/u.test(outputText), outputText);
    t.notDeepEqual(nodeComputedLoads(text, { typescript: true }).unknown, [], 'the computed key read hidden by a misread "/" is not refused');
  });

// Over-denials: ordinary programs that now refuse. [title, program, read as TypeScript]
const ORDINARY: readonly (readonly [string, string, boolean])[] = [
  ["a generic class's constructor (TS)", 'class Box<T> {\n  constructor(private value: T) {}\n}\n', true],
  ['a class that implements an interface, its constructor (TS)', 'interface Repo {}\nclass Store implements Repo {\n  constructor(private db: string) {}\n}\n', true],
  ['a generic class extending a generic base, its constructor (TS)', 'export class Cache<K, V> extends Map<K, V> {\n  constructor() {\n    super();\n  }\n}\n', true],
  [
    'a class whose heritage holds braces, its constructor',
    'const EventEmitter = require("node:events");\nclass Bus extends Object.assign(EventEmitter, {}) {\n  constructor() {\n    super();\n  }\n}\n',
    false,
  ],
  ["an object literal's constructor method", 'const proto = {\n  constructor(name) {\n    this.name = name;\n  },\n};\n', false],
  ['a method with a return type using its own arguments (TS)', 'class Log {\n  line(...parts: string[]): void {\n    console.log.apply(console, arguments);\n  }\n}\n', true],
  ['a function with a return type using its own arguments (TS)', 'function joinAll(sep: string): string {\n  return Array.prototype.slice.call(arguments, 1).join(sep);\n}\n', true],
];
for (const [title, program, typescript] of ORDINARY)
  test(`over-denial: ${title} is not refused`, (t) => {
    t.deepEqual(nodeComputedLoads(program, { typescript }).unknown, []);
  });

test('control: the plain program is refused by the node reader', (t) => {
  t.notDeepEqual(nodeComputedLoads(`${HEAD}run([].map[k]);\n`).unknown, []);
});
