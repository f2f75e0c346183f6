// The bare specifiers a program loads or resolves as require does (node-module-resolution.ts packageSpecifiers):
// require/import, and the resolve calls that find a package's file by name for the program to run it
// (require.resolve, import.meta.resolve, createRequire(...) and a name bound to it). Expected outcomes by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageSpecifiers, resolveCallsWithOptions } from '../../../../src/host/executors/confine/node-module-resolution.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const texts = (code: string) => packageSpecifiers(code).map((found) => found.text);

test('packageSpecifiers: require, import and the resolve calls, with a bare literal', (t) => {
  for (const [code, expected] of [
    ['require("@acme/utils")', ['@acme/utils']],
    ['require.resolve("@acme/utils/bin.js")', ['@acme/utils/bin.js']],
    ['require . resolve ( "@acme/utils/bin.js" )', ['@acme/utils/bin.js']],
    ['import.meta.resolve("@acme/utils/bin.js")', ['@acme/utils/bin.js']],
    ['createRequire(import.meta.url).resolve("@acme/utils/bin.js")', ['@acme/utils/bin.js']],
    ['createRequire(fileURLToPath(import.meta.url))("@acme/utils")', ['@acme/utils']],
    ['const req = createRequire(import.meta.url);\nreq.resolve("@acme/utils/bin.js");\nreq("@acme/other");', ['@acme/utils/bin.js', '@acme/other']],
    ['const $r = module.createRequire(__filename);\n$r.resolve("@acme/utils/bin.js");', ['@acme/utils/bin.js']],
  ] as const)
    t.deepEqual(texts(code), [...expected], code);
});

test('packageSpecifiers: relative literals, built-ins and other resolve calls are no package specifiers', (t) => {
  for (const code of [
    'require.resolve("./x.js")',
    'import.meta.resolve("../y.mjs")',
    'require.resolve("node:fs")',
    'path.resolve("dist")',
    'new URL("x", import.meta.url)',
    'req.resolve("@acme/utils")',
  ])
    t.deepEqual(texts(code), [], code);
});

test('resolveCallsWithOptions: a resolve call given a second argument (node looks from the directories it names), relative or bare, over lines', (t) => {
  for (const [code, expected] of [
    ['require.resolve("@acme/utils/bin.js", { paths: [dir] })', [{ text: '@acme/utils/bin.js', line: 0 }]],
    ["x;\nrequire.resolve('./bin.js',\n  { paths: ['packages/utils'] })", [{ text: './bin.js', line: 1 }]],
    ['createRequire(import.meta.url).resolve("@acme/utils", { paths })', [{ text: '@acme/utils', line: 0 }]],
    ['const req = createRequire(__filename);\nreq.resolve(`@acme/utils`, opts);', [{ text: '@acme/utils', line: 1 }]],
    ['import.meta.resolve("@acme/utils", parentURL)', [{ text: '@acme/utils', line: 0 }]],
  ] as const)
    t.deepEqual(resolveCallsWithOptions(code), [...expected], code);
  // One argument, path.resolve and other objects' resolve, a name not bound to createRequire: none.
  for (const code of [
    'require.resolve("@acme/utils")',
    'path.resolve("a", "b")',
    'promise.resolve("a", 1)',
    'Promise.resolve("x", y)',
    'req.resolve("@acme/utils", { paths })',
    'other.require.resolve("a", b)',
  ])
    t.deepEqual(resolveCallsWithOptions(code), [], code);
});

test('a hook program that resolves a file from directories its options name is unresolved; path.resolve is not', (t) => {
  const withPaths = read(
    t,
    'const bin = require.resolve("./bin.js", { paths: [require("path").join(__dirname, "../packages/utils")] });\nrequire("child_process").execFileSync(process.execPath, [bin]);\n',
  );
  // Line 1's resolve call; line 2 hands node that computed file too (program-computed-operands.ts).
  t.true(
    withPaths.unresolved.some((reason) => /check\.js line 1 /u.test(reason)),
    withPaths.unresolved.join('\n'),
  );
  // Over-denial control: path.resolve with two arguments, and a one-argument require.resolve, refuse nothing.
  const ordinary = read(t, 'const out = require("path").resolve(__dirname, "out");\nrequire.resolve("@acme/utils");\n');
  t.deepEqual(ordinary.unresolved, []);
  t.false(ordinary.protects('packages/utils/other.js'));
});

function read(t: Parameters<typeof tempDir>[0], code: string, program = 'tools/check.js') {
  const ws = path.join(realpathSync(tempDir(t, 'zb-node-resolve-')), 'ws');
  const files: Record<string, string> = {
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'packages/utils/package.json': '{"name":"@acme/utils","main":"index.js"}\n',
    'packages/utils/index.js': 'module.exports = {};\n',
    'packages/utils/bin.js': 'console.log("checked");\n',
    'packages/utils/other.js': 'x\n',
    [program]: code,
    '.git/hooks/pre-commit': `#!/bin/sh\nexec node ${program}\n`,
    '.git/HEAD': 'ref: refs/heads/main\n',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  symlinkSync('../../packages/utils', path.join(ws, 'node_modules/@acme/utils'));
  const found = toolFileReferences([], [ws], { environment: { PATH: process.env['PATH'] ?? '' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const [name, code, program] of [
  ['require.resolve', 'require("child_process").execFileSync(process.execPath, [require.resolve("@acme/utils/bin.js")]);\n', 'tools/check.js'],
  ['import.meta.resolve', 'import { fork } from "node:child_process";\nfork(new URL(import.meta.resolve("@acme/utils/bin.js")));\n', 'tools/check.mjs'],
  ['createRequire(...).resolve', 'import { createRequire } from "node:module";\nconst r = createRequire(import.meta.url);\nr.resolve("@acme/utils/bin.js");\n', 'tools/check.mjs'],
] as const)
  test(`a workspace file a hook program finds by package name (${name}) is protected; the package's other files are not`, (t) => {
    const { unresolved, protects } = read(t, code, program);
    t.deepEqual(unresolved, []);
    t.true(protects('packages/utils/bin.js'));
    t.true(protects('packages/utils/package.json'));
    t.false(protects('packages/utils/other.js'));
  });

test('a hook program that hands node a file it resolves from a computed name refuses every writer; a literal package path refuses nothing', (t) => {
  const computed = read(t, 'const name = process.argv[2];\nrequire("child_process").execFileSync(process.execPath, [require.resolve(name)]);\n');
  t.true(
    computed.unresolved.some((reason) => /check\.js line 2 /u.test(reason)),
    computed.unresolved.join('\n'),
  );
  const literal = read(t, 'require("child_process").execFileSync(process.execPath, [require.resolve("@acme/utils/bin.js")]);\n');
  t.deepEqual(literal.unresolved, []);
});

test("review s15i: packageSpecifiers reads a call whose literal stands on a later line, each with the literal's line", (t) => {
  t.deepEqual(packageSpecifiers('require(\n  "#rules/a.js"\n);'), [{ text: '#rules/a.js', line: 1 }]);
  t.deepEqual(packageSpecifiers('x();\nrequire.resolve(\n\n  "proj/tools/a.js");'), [{ text: 'proj/tools/a.js', line: 3 }]);
  t.deepEqual(texts('import(\n  "#lib/x.js"\n);\nimport {\n  a,\n} from\n  "#lib/y.js";'), ['#lib/x.js', '#lib/y.js']);
});
