// Severity: high. Class: "typescript-resolution" — a hook runs a TypeScript program (`npx tsx tools/check.ts`; the
// same for ts-node, bun and deno, all in interpreter-operands.ts NODE). Its relative imports are resolved by the
// reader with node's extensions only (.js .mjs .cjs .json .node, nodeModuleNames), but tsx/ts-node/bun resolve
// `./helpers` to helpers.ts (and .tsx, .mts, .cts, index.ts), and `./helpers.js` to helpers.ts when no .js exists
// (TypeScript's ESM convention). So tools/helpers.ts, which the hook runs on every commit, stays writable.
// The program carries a #! line so that it is read as program code (see interpreter-operand-read-as-shell).
// No tsx is installed here, so the repro stops at the gate; the runner's resolution is documented by tsx and TypeScript.
// Fix direction: for the TypeScript-capable runners (and files named *.ts/*.mts/*.cts/*.tsx), add the TypeScript
// extensions and index files, and map a written .js/.mjs/.cjs to .ts/.mts/.cts.
import test from 'ava';
import { agentWrites, project } from './harness.js';

for (const specifier of ['./helpers', './helpers.js']) {
  test(`a module a TypeScript hook imports as ${specifier} is not writable`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nnpx tsx tools/check.ts\n',
      'tools/check.ts': `#!/usr/bin/env tsx\nimport { x } from "${specifier}";\nconsole.log(x);\n`,
      'tools/helpers.ts': 'export const x = 1;\n',
    });
    const output = await agentWrites(t, ws, 'tools/helpers.ts', 'import { execSync } from "node:child_process";\nexecSync("touch ../PWNED");\nexport const x = 1;\n');
    t.regex(output, /denied/u, output);
  });
}
