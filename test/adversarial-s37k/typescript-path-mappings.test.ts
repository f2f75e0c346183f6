// Review s37k of issue 21: the TypeScript runners map bare specifiers to the project's own files. tsx, ts-node (with
// tsconfig-paths) and bun read tsconfig.json's `paths`/`baseUrl`; deno reads deno.json's `imports` map. zotbox reads
// a bare specifier as a package in node_modules (installed code), so the file a hook's program really imports is
// no control location: the write tool rewrites it and the user's next commit runs it. tsx and deno are not installed
// here (as in s36i's typescript-import-extensions): the safe outcome asserted is the refused write.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const ORIGINAL = 'export const rules = ["no-console"];\n';
const PAYLOAD = 'import { execSync } from "node:child_process";\nexecSync("touch /tmp/PWNED-s37k");\nexport const rules = [];\n';

test("tsconfig paths: the file `@lib/rules` maps to, imported by the hook's tsx program, is not writable", async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec npx tsx scripts/check.ts\n',
    'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } }, null, 2),
    'scripts/check.ts': 'import { rules } from "@lib/rules";\nconsole.log(rules.length);\n',
    'src/lib/rules.ts': ORIGINAL,
  });
  t.log(await agentWrites(t, ws, 'src/lib/rules.ts', PAYLOAD));
  t.is(readFileSync(path.join(ws, 'src/lib/rules.ts'), 'utf8'), ORIGINAL, 'the write tool rewrote the module the pre-commit hook imports');
});

test('tsconfig baseUrl: `lib/rules` is src/lib/rules.ts under tsx, not a package', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec npx tsx scripts/check.ts\n',
    'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: 'src' } }, null, 2),
    'scripts/check.ts': 'import { rules } from "lib/rules";\nconsole.log(rules.length);\n',
    'src/lib/rules.ts': ORIGINAL,
  });
  t.log(await agentWrites(t, ws, 'src/lib/rules.ts', PAYLOAD));
  t.is(readFileSync(path.join(ws, 'src/lib/rules.ts'), 'utf8'), ORIGINAL, 'the write tool rewrote the module the pre-commit hook imports');
});

test("deno.json import map: the file `@lib/` maps to, imported by the hook's deno program, is not writable", async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec deno run -A scripts/check.ts\n',
    'deno.json': JSON.stringify({ imports: { '@lib/': './src/lib/' } }, null, 2),
    'scripts/check.ts': 'import { rules } from "@lib/rules.ts";\nconsole.log(rules.length);\n',
    'src/lib/rules.ts': ORIGINAL,
  });
  t.log(await agentWrites(t, ws, 'src/lib/rules.ts', PAYLOAD));
  t.is(readFileSync(path.join(ws, 'src/lib/rules.ts'), 'utf8'), ORIGINAL, 'the write tool rewrote the module the pre-commit hook imports');
});

// tsx applies `paths` to package names too: a mapping for "zod" sends the hook program's `import { z } from "zod"`
// to a project file. So tsconfig.json is what a package.json mapping # imports is (node-module-resolution.ts protects
// that one): what decides which file runs. The agent writes ./z.ts (nothing names it), then the mapping.
test('tsconfig.json read by a tsx hook program is not rewritten to map a package name to a project file', async (t) => {
  const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true } }, null, 2);
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec npx tsx scripts/check.ts\n',
    'tsconfig.json': TSCONFIG,
    'scripts/check.ts': 'import { z } from "zod";\nconsole.log(typeof z);\n',
  });
  t.log(await agentWrites(t, ws, 'tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, baseUrl: '.', paths: { zod: ['./z.ts'] } } })));
  t.is(readFileSync(path.join(ws, 'tsconfig.json'), 'utf8'), TSCONFIG, 'the write tool remapped "zod" for the pre-commit hook');
});

// Control (passes now): the same module imported by its relative spelling is protected.
test("control: `../src/lib/rules` from the hook's program is not writable", async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec npx tsx scripts/check.ts\n',
    'scripts/check.ts': 'import { rules } from "../src/lib/rules";\nconsole.log(rules.length);\n',
    'src/lib/rules.ts': ORIGINAL,
  });
  t.log(await agentWrites(t, ws, 'src/lib/rules.ts', PAYLOAD));
  t.is(readFileSync(path.join(ws, 'src/lib/rules.ts'), 'utf8'), ORIGINAL);
});
