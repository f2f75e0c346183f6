// Review s08e, what stays open: ordinary programs the node reader refuses (over-denials). Each asserts by hand that
// the program is NOT refused, so it FAILS while the over-denial stands (README "Status" says why each is kept).
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';

// Over-denials: ordinary programs that now refuse. [title, program]
const ORDINARY: readonly (readonly [string, string])[] = [
  ['a member WRITTEN by a computed key (an assignment target hands out no value)', 'const out = {};\nfor (const [name, value] of Object.entries(process.env)) out[name] = value;\n'],
  ['a logical assignment to a member by a computed key', 'const byExt = {};\nfor (const file of process.argv.slice(2)) (byExt[require("node:path").extname(file)] ||= []).push(file);\n'],
  ["an object literal's key named constructor (a JSON schema)", 'const schema = { type: "object", properties: { constructor: { type: "string" } } };\nmodule.exports = schema;\n'],
];
for (const [title, program] of ORDINARY)
  test(`over-denial: ${title} is not refused`, (t) => {
    t.deepEqual(nodeComputedLoads(program).unknown, []);
  });
