// Review s98u: places where javascript-tokens.ts (after s96s's fix, ba07065b) and node disagree on what is code, with
// no ambiguity reported, so code node runs is blanked from the token rules of node-computed-loads.ts. The user's
// hook program runs each tools/rules/*.js through the Function constructor read by a computed key
// (`[].map[k]`, k = "constr" + "uctor"); the misread hides that key read. One CONFINED call (`sh one.sh`, real
// bubblewrap) rewrites tools/rules/a.js; the SAFE outcome is asserted by hand: the user's `git commit` never runs the
// agent's code. TypeScript cases are read by the unit reader (no TypeScript runner is installed here): the SAFE
// outcome is that nodeComputedLoads refuses, where TypeScript's own compiler keeps the hidden call as code.
import { createRequire } from 'node:module';
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { ESM_RULES_RUNNER_HEAD, esmRulesHookRan, RULES_RUNNER_HEAD, rulesHookRan, TS_RULES_RUNNER_HEAD } from '../fixtures/node-rules-hook.js';

const HEAD = RULES_RUNNER_HEAD;

// [title, the CommonJS program tools/check.js after HEAD]
const CASES: readonly (readonly [string, string])[] = [
  // A name starting with a character outside the BMP (U+1D465, ID_Start): NAME_START tests one UTF-16 unit, the high
  // surrogate is no ID_Start, so the name reads as punctuation and the `/` after it as a regex.
  ['a name starting outside the BMP, then a division', 'const \u{1D465} = 1;\nconst q = \u{1D465} / run([].map[k]) / 1;\n'],
  ['a member named outside the BMP, then a division', 'const o = { \u{1D465}: 1 };\nconst q = o.\u{1D465} / run([].map[k]) / 1;\n'],
  // `continue L` / `break L` end their statement (a restricted production: the label is the last token it takes); a
  // `/` on the next line starts a regex by ASI, the tokens read the label as an operand and the `/` as a division.
  ['continue LABEL, then a regex on the next line', "outer: for (const n of [1, 2]) {\n  if (n === 1) continue outer\n  /'/.test(k) || run([].map[k]); //'\n}\n"],
  ['break LABEL, then a regex on the next line', "outer: {\n  if (!names) break outer\n  /'/.test(k) || run([].map[k]); //'\n}\n"],
  ['continue LABEL, then a regex with a backtick', 'outer: for (const n of [1, 2]) {\n  if (n === 1) continue outer\n  /`/.test(k)\n  run([].map[k]);\n  // `\n}\n'],
];
for (const [title, main] of CASES)
  test(`hook runs node tools/check.js; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await rulesHookRan(t, HEAD + main), "the user's git commit ran the agent's code");
  });

// An ES module: an import declaration ends at its module name (a string); a `/` on the next line starts a regex by ASI.
const ESM_HEAD = ESM_RULES_RUNNER_HEAD;
const ESM_CASES: readonly (readonly [string, string])[] = [
  ['import "m", then a regex on the next line', 'import "node:os"\n/\'/.test(k) || run([].map[k]); //\'\n'],
  ['import x from "m", then a regex on the next line', 'import os from "node:os"\n/\'/.test(k) || run([].map[k]); //\'\n'],
  ['export * from "m", then a regex on the next line', 'export * from "node:os"\n/\'/.test(k) || run([].map[k]); //\'\n'],
];
for (const [title, main] of ESM_CASES)
  test(`hook runs node tools/check.mjs; ${title}; one call rewrites what it runs: git runs the user's code only`, async (t) => {
    t.false(await esmRulesHookRan(t, ESM_HEAD + main), "the user's git commit ran the agent's code");
  });

// TypeScript (tsx, ts-node, type stripping): a declaration whose type ends the statement; a `/` on the next line starts
// a regex by ASI (TypeScript's parser rescans it), the tokens read the type's last word or `]` as an operand.
const TS_HEAD = TS_RULES_RUNNER_HEAD;
const TS_CASES: readonly (readonly [string, string])[] = [
  ['let x: string[], then a regex with a backtick', 'let seen: string[]\n/`/.test(k) || run([].map[k]);\n// `\n'],
  ['let x: number, then a regex with a quote', "let count: number\n/'/.test(k) || run([].map[k]); //'\n"],
  ['type T = string, then a regex', "type T = string\n/'/.test(k) || run([].map[k]); //'\n"],
  ['declare const x: string, then a regex', "declare const x: string\n/'/.test(k) || run([].map[k]); //'\n"],
];
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
for (const [title, main] of TS_CASES)
  test(`a TypeScript hook program; ${title}: the hidden computed key is refused`, (t) => {
    const text = TS_HEAD + main;
    // TypeScript's own reading: the call is code in what it emits.
    const emitted = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    t.true(/^\/.\/\.test\(k\) \|\| run\(\[\]\.map\[k\]\);/mu.test(emitted), emitted);
    t.notDeepEqual(nodeComputedLoads(text).unknown, [], 'the computed key read hidden by a misread "/" is not refused');
  });
