// Review s00w: places where javascript-tokens.ts (at HEAD, after s98u's fixes) and a TypeScript runner disagree on
// what is code on ONE line, with no ambiguity reported, so a computed key read that the runner runs is blanked from the
// token rules of node-computed-loads.ts. Both are TypeScript's: a type ending in the keyword `void` (in BEFORE_REGEX)
// and a non-null assertion taken twice (`x!!`, the `!` before the last read as a prefix operator). The SAFE outcome is
// asserted by hand on the unit reader (no TypeScript runner is installed here): nodeComputedLoads refuses, where
// TypeScript's own transpileModule keeps the hidden call as code in a division (no syntax diagnostic).
import { createRequire } from 'node:module';
import test from 'ava';
import { nodeComputedLoads } from '../../src/host/executors/confine/node-computed-loads.js';
import { TS_RULES_RUNNER_HEAD } from '../fixtures/node-rules-hook.js';

const TS_HEAD = `${TS_RULES_RUNNER_HEAD}let x: any = 1;\n`;

// [title, the TypeScript program tools/check.ts after TS_HEAD]
const TS_CASES: readonly (readonly [string, string])[] = [
  // `void` is a type here: the division goes on after it; the tokens read `void` as the operator and a regex.
  ['x as void / …', 'const q = x as void / run([].map[k]) / 1;\n'],
  ['x satisfies void / …', 'const q = x satisfies void / run([].map[k]) / 1;\n'],
  ['x as () => void / …', 'const q = x as () => void / run([].map[k]) / 1;\n'],
  ['x as void, then the division on the next line', 'let y = x as void\n  / run([].map[k]) / 1;\n'],
  // A double non-null assertion: the tokens take the first `!` for an operator, so the second is a prefix `!`.
  ['x!! / …', 'const q = x!! / run([].map[k]) / 1;\n'],
  ['this!! / …', 'const q = this!! / run([].map[k]) / 1;\n'],
];
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
for (const [title, main] of TS_CASES)
  test(`a TypeScript hook program; ${title}: the hidden computed key is refused`, (t) => {
    const text = TS_HEAD + main;
    // TypeScript's own reading: the call is code, a division's operand, and the program has no syntax error.
    const { outputText, diagnostics } = ts.transpileModule(text, {
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    t.deepEqual(diagnostics ?? [], []);
    t.true(/\/ run\(\[\]\.map\[k\]\) \/ 1;/u.test(outputText), outputText);
    t.notDeepEqual(nodeComputedLoads(text).unknown, [], 'the computed key read hidden by a misread "/" is not refused');
  });
