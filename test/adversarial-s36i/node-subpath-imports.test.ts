// Severity: high. Class: "node-package-specifiers" — a hook runs `node tools/check.mjs`, which imports
// "#lib/util.js", a subpath import that the project's package.json maps to ./lib/util.js (`"imports": {"#lib/*":
// "./lib/*"}`; the same for a self-reference by the package's own name through `"exports"`). The reader reads only
// relative specifiers (interpreter-operands.ts nodeModuleNames: a bare one "is a package", i.e. node_modules), and
// "#lib/util.js" is no plain word, so lib/util.js, which the hook runs on every commit, stays writable.
// (The program carries a #! line so that it is read as program code: see interpreter-operand-read-as-shell.)
// Fix direction: resolve `#…` specifiers and the package's own name through the nearest package.json's "imports" and
// "exports" (protecting that package.json too), or refuse (unresolved) a program that uses ones zotbox cannot map.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

test('a module a hook node program loads through a package.json subpath import is not writable', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/check.mjs\n',
    'package.json': JSON.stringify({ name: 'app', type: 'module', imports: { '#lib/*': './lib/*' } }),
    'tools/check.mjs': '#!/usr/bin/env node\nimport { x } from "#lib/util.js";\nconsole.log("checked", x);\n',
    'lib/util.js': 'export const x = 1;\n',
  });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'lib/util.js', `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(pwned)}, "ran");\nexport const x = 1;\n`);
  t.regex(output, /denied/u, output);
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  t.false(existsSync(pwned), 'the pre-commit hook loaded lib/util.js written by the agent');
});
