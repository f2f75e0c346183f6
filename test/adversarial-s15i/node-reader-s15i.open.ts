// Review s15i, the over-denials still OPEN; the rows (all fixed) are in node-reader-s15i.test.ts.
// The node reader (javascript-tokens.ts, node-computed-loads.ts, node-computed-keys.ts, node-runner-values.ts,
// program-command-texts.ts and the node branch of tool-file-references.ts) after s08e's fixes (h-adv15i at 6ffdf7da).
// The user's hook runs a program of theirs that runs tools/rules/*. One CONFINED call (`sh one.sh`, real bubblewrap)
// rewrites a file the program runs. Each test asserts the SAFE outcome by hand (the user's `git commit` never runs the
// agent's code), so it FAILS while the hole is open. Each program was first run by hand under node 20.20.2: it runs the
// rules file, and PWNED is written. The over-denials assert by hand that an ordinary program is NOT refused, so they
// FAIL while the over-denial stands.
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { RULES_RUNNER_HEAD } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;

// The same classes in an ES module (tools/check.mjs).

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
