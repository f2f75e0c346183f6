// A file a tool runs is read by the program that runs it: an interpreter's operand as that language's code (its
// imports protected), node's package.json subpath imports and self-references as node maps them, and the TypeScript
// runners' .ts files for ./x and ./x.js. Expected sets are stated by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { interpreterOperands } from '../../../../src/host/executors/confine/operand-languages.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { typescriptCandidates } from '../../../../src/host/executors/confine/typescript-resolution.js';
import { tempDir } from '../../../fixtures/temp.js';

function workspace(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-program-readings-')), 'ws');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

/** What the reader protects (directories with a "/") and how many things it cannot read, for a hook and tool entries. */
function read(ws: string, entries: readonly string[] = []) {
  const found = toolFileReferences(
    entries.map((entry) => path.join(ws, entry)),
    [ws],
    // The user's PATH, as `zotbox run` passes it on: an interpreter zotbox cannot find makes an import it cannot place unresolved.
    { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: { PATH: process.env['PATH'] } },
  );
  return { paths: found.locations.map((l) => `${path.relative(ws, l.path)}${l.tree ? '/' : ''}`), unresolved: found.unresolved };
}

test('an interpreter operand without a #! line is read as its program code, not as a shell script', (t) => {
  for (const [hook, program, code, module] of [
    ['python3 tools/check.py', 'tools/check.py', 'import helpers\n', 'tools/helpers.py'],
    ['python3 tools/check', 'tools/check', 'from helpers import x\n', 'tools/helpers.py'],
    // Behind a runner the operand reading does not pass (timeout): the file's name says it is Python.
    ['timeout 60 python3 tools/check.py', 'tools/check.py', 'import helpers\n', 'tools/helpers.py'],
    ['node tools/check.js', 'tools/check.js', 'require("./helpers");\n', 'tools/helpers.js'],
    ['exec node tools/check', 'tools/check', 'import { x } from "./helpers.mjs";\n', 'tools/helpers.mjs'],
    ['npx tsx tools/check.ts', 'tools/check.ts', 'import { x } from "./helpers.js";\n', 'tools/helpers.ts'],
  ] as const) {
    const ws = workspace(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, [program]: code });
    const { paths, unresolved } = read(ws);
    // A module named with its extension is protected as written, whole (a directory of that name would be its package).
    t.true(paths.includes(module) || paths.includes(`${module}/`), `${hook}: ${paths.join(' ')}`);
    t.deepEqual(unresolved, [], hook);
  }
});

test("a settings file's shell text runs an interpreter's operand as program code too (lefthook run:, pre-commit entry:)", (t) => {
  const lefthook = workspace(t, { 'lefthook.yml': 'pre-commit:\n  commands:\n    check:\n      run: python3 tools/check.py\n', 'tools/check.py': 'import helpers\n' });
  t.true(read(lefthook, ['lefthook.yml']).paths.includes('tools/helpers.py'));
  const preCommit = workspace(t, {
    '.pre-commit-config.yaml': 'repos:\n  - repo: local\n    hooks:\n      - id: check\n        name: check\n        entry: node tools/check.js\n        language: system\n',
    'tools/check.js': 'require("./helpers");\n',
  });
  t.true(read(preCommit, ['.pre-commit-config.yaml']).paths.includes('tools/helpers.js'));
});

test('a file a shell runs is still a shell script: `sh tools/run` sources what it names', (t) => {
  const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/sh\nsh tools/run\n', 'tools/run': '. tools/lib.sh\n', 'tools/lib.sh': 'sh tools/deep.sh\n', 'tools/deep.sh': 'true\n' });
  t.true(read(ws).paths.includes('tools/deep.sh'));
});

test('interpreterOperands: the operand of each interpreter a line runs, past wrappers and assignments', (t) => {
  t.deepEqual(
    [...interpreterOperands('A=1 python3 -u tools/a.py x && npx tsx ./tools/b.ts; uv run python tools/c.py | node --import ./r.mjs tools/d\nsh tools/e.sh')],
    [
      ['tools/a.py', 'python'],
      ['tools/b.ts', 'node'],
      ['tools/c.py', 'python'],
      ['tools/d', 'node'],
    ],
  );
});

test("node's subpath imports and a package's self-reference are the files its package.json maps, with that package.json", (t) => {
  const ws = workspace(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/check.mjs\n',
    'package.json': JSON.stringify({
      name: 'app',
      type: 'module',
      imports: { '#lib/*': './lib/*', '#cfg': { node: './cfg/node.js', default: './cfg/web.js' }, '#dep': 'left-pad' },
      exports: { '.': './src/index.js', './util': './src/util.js' },
    }),
    'tools/check.mjs': 'import { x } from "#lib/util.js";\nimport "#cfg";\nimport "#dep";\nimport "app";\nimport "app/util";\nimport "chalk";\n',
  });
  const { paths, unresolved } = read(ws);
  for (const expected of ['package.json', 'lib/util.js', 'lib/util.ts', 'cfg/node.js', 'cfg/web.js', 'src/index.js', 'src/util.js'])
    t.true(paths.includes(expected), `${expected}: ${paths.join(' ')}`);
  t.deepEqual(unresolved, []);
});

test('a subpath import or self-reference zotbox cannot map is unresolved, never nothing', (t) => {
  for (const [pkg, code] of [
    [{ name: 'app' }, 'import "#lib/x.js";\n'],
    [{ name: 'app', imports: { '#lib/*': '../outside/*' } }, 'import "#lib/x.js";\n'],
    [{ name: 'app', exports: { './a': './a.js' } }, 'import "app/b";\n'],
    [undefined, 'const x = require("#x");\n'],
  ] as const) {
    const ws = workspace(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/check.js\n', 'tools/check.js': code, ...(pkg === undefined ? {} : { 'package.json': JSON.stringify(pkg) }) });
    t.is(read(ws).unresolved.length, 1, `${JSON.stringify(pkg)} ${code}`);
  }
});

test("typescriptCandidates: the TypeScript runners' files for a relative specifier", (t) => {
  t.deepEqual(typescriptCandidates('./helpers'), ['./helpers.ts', './helpers.tsx', './helpers.mts', './helpers.cts']);
  t.deepEqual(typescriptCandidates('./helpers.js'), ['./helpers.ts', './helpers.tsx']);
  t.deepEqual(typescriptCandidates('./helpers.mjs'), ['./helpers.mts']);
  t.deepEqual(typescriptCandidates('./helpers.cjs'), ['./helpers.cts']);
  t.deepEqual(typescriptCandidates('./helpers.ts'), []);
  t.deepEqual(typescriptCandidates('.'), ['./index.ts', './index.tsx', './index.mts', './index.cts']);
});
