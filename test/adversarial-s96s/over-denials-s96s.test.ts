// Review s96s: ordinary node hook programs the s94q key rule refuses. An array destructuring declaration (`const
// [first] = parts`, `for (const [name, v] of Object.entries(o))`) is read as a member read of `const`/`let`; a
// `for (let i = 0; …; i++) {` counter with a braced body is not a number (the loop's own header matches the "bound
// again as a parameter" test); a `while` counter is not a number at all. None runs code by a name it computes; the
// SAFE outcome is that nodeComputedLoads reports nothing (the unit reader, which decides the stop).
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';

const CASES: readonly (readonly [string, string])[] = [
  ['const [first] = parts', 'const parts = process.argv.slice(2);\nconst [first] = parts;\nconsole.log(first);\n'],
  ['for (const [name, v] of Object.entries(o))', 'const o = { a: 1 };\nfor (const [name, v] of Object.entries(o)) console.log(name, v);\n'],
  ['for (let i = 0; i < a.length; i++) { s += a[i]; }', 'const a = [1, 2];\nlet s = 0;\nfor (let i = 0; i < a.length; i++) {\n  s += a[i];\n}\nconsole.log(s);\n'],
  ['a while loop over lines[j]', 'const lines = ["a"];\nlet j = 0;\nwhile (j < lines.length) {\n  console.log(lines[j]);\n  j++;\n}\n'],
  ['control: a braceless counted loop', 'const a = [1, 2];\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i];\nconsole.log(s);\n'],
];

for (const [title, code] of CASES)
  test(`an ordinary hook program: ${title}: nothing refused`, (t) => {
    t.deepEqual(nodeComputedLoads(code).unknown, [], 'an ordinary hook program is refused');
  });
