// What ts-node loads by its own options: the "ts-node" key of each tsconfig of the `extends` chain (`require`,
// `compiler`, `transpiler`, `swc`) and its command (`--compiler`, `--swc`, TS_NODE_COMPILER). A relative module is
// protected as a program file (with the names node and the runners try) and read on; a package name is looked up
// through node_modules from the tsconfig's directory; a value zotbox cannot list is unresolved. compilerOptions.plugins
// loads nothing under ts-node or tsx. Expected sets are stated by hand.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

function workspace(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-ts-node-')), 'ws');
  for (const [name, content] of Object.entries({ 'tools/check.ts': 'console.log("ok");\n', ...files })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  return ws;
}

/** What the reader protects (relative) and what it cannot read, for the workspace's pre-commit hook. */
function read(ws: string) {
  const found = toolFileReferences([], [ws], { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { paths: new Set(found.locations.map((l) => path.relative(ws, l.path))), unresolved: found.unresolved };
}

const hook = (command: string) => ({ '.git/hooks/pre-commit': `#!/bin/sh\n${command}\n` });
const json = (value: unknown) => JSON.stringify(value, null, 2);

test('"ts-node" require in tsconfig.json: the module, relative to the tsconfig, is protected and read on', (t) => {
  const ws = workspace(t, {
    ...hook('npx ts-node tools/check.ts'),
    'config/tsconfig.json': json({ 'ts-node': { require: ['../tools/setup'] } }),
    'tsconfig.json': json({ extends: './config/tsconfig.json' }),
    'tools/setup.js': 'require("./more");\n',
    'tools/more.js': '',
    'src/app.ts': '',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  // From config/ (the base that names it): ../tools/setup is tools/setup.js (or .ts, a directory's index); what it requires runs too.
  for (const expected of ['tools/setup.js', 'tools/setup.ts', 'tools/setup/index.js', 'tools/more.js']) t.true(paths.has(expected), expected);
  t.false(paths.has('config/tools/setup.js'));
  t.false(paths.has('src/app.ts'));
});

test('"ts-node" compiler, transpiler (with its swc option) and require by package name are looked up through node_modules', (t) => {
  const ws = workspace(t, {
    ...hook('npx ts-node tools/check.ts'),
    'tsconfig.json': json({ 'ts-node': { require: ['@acme/setup'], compiler: 'acme-ts', transpiler: ['./tools/transpile.js', { swc: 'acme-swc' }] } }),
    'tools/transpile.js': '',
    'packages/setup/package.json': json({ name: '@acme/setup', main: 'index.js' }),
    'packages/setup/index.js': '',
    'src/app.ts': '',
  });
  // A workspace package linked into node_modules is the project's code: its files are protected (node-linked-packages.ts).
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  symlinkSync('../../packages/setup', path.join(ws, 'node_modules/@acme/setup'));
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const expected of ['tools/transpile.js', 'node_modules/@acme/setup', 'packages/setup/index.js', 'node_modules/acme-ts', 'node_modules/acme-swc']) t.true(paths.has(expected), expected);
  t.false(paths.has('src/app.ts'));
});

test('"swc": true in tsconfig.json loads ts-node\'s swc transpiler and @swc/core from the project', (t) => {
  const ws = workspace(t, { ...hook('npx ts-node tools/check.ts'), 'tsconfig.json': json({ 'ts-node': { swc: true } }) });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const expected of ['node_modules/ts-node', 'node_modules/@swc/core', 'node_modules/@swc/wasm']) t.true(paths.has(expected), expected);
});

test("the modules ts-node's command names (-C, --swc, TS_NODE_COMPILER) are looked up from where it runs, with no tsconfig", (t) => {
  const ws = workspace(t, { 'tools/other.ts': '', ...hook('npx ts-node -C acme-ts --swc tools/check.ts\nTS_NODE_COMPILER=@acme/tsc ts-node tools/other.ts') });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const expected of ['node_modules/acme-ts', 'node_modules/@swc/core', 'node_modules/@acme/tsc']) t.true(paths.has(expected), expected);
});

test("ts-node's module options in the space form (--compiler X, --transpiler X, -r X) load X, and the program after them is read as the program", (t) => {
  for (const command of ['npx ts-node --compiler acme-ts tools/check.ts', 'npx ts-node --transpiler acme-ts tools/check.ts', 'ts-node-esm --compilerOptions {} -r acme-ts tools/check.ts']) {
    const ws = workspace(t, {
      ...hook(command),
      'tools/check.ts': 'import "./lib";\n',
      'tools/lib.ts': '',
      'packages/acme-ts/package.json': json({ name: 'acme-ts', main: 'index.js' }),
      'packages/acme-ts/index.js': '',
      'src/app.ts': '',
    });
    mkdirSync(path.join(ws, 'node_modules'));
    symlinkSync('../packages/acme-ts', path.join(ws, 'node_modules/acme-ts'));
    const { paths, unresolved } = read(ws);
    t.deepEqual(unresolved, [], command);
    // The compiler (a workspace package linked into node_modules) and what the program imports.
    for (const expected of ['node_modules/acme-ts', 'packages/acme-ts/index.js', 'tools/check.ts', 'tools/lib.ts']) t.true(paths.has(expected), `${command}: ${expected}`);
    t.false(paths.has('src/app.ts'), command);
  }
});

test("ts-node's value options (-O JSON, --dir D, -I pattern) are no program; an option ts-node 10.9 lacks is unresolved", (t) => {
  const ws = workspace(t, { ...hook("npx ts-node -O '{}' --dir . -I node_modules --scopeDir . -T tools/check.ts"), 'tools/check.ts': 'import "./lib";\n', 'tools/lib.ts': '' });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  t.true(paths.has('tools/lib.ts'));
  const unknown = workspace(t, { ...hook('npx ts-node --future-option acme tools/check.ts') });
  t.true(read(unknown).unresolved.some((reason) => reason.includes('--future-option')));
});

test('"ts-node" options zotbox cannot list are unresolved, never "nothing there"', (t) => {
  for (const options of [{ require: './tools/setup.js' }, { require: [42] }, { compiler: ['x'] }, { transpiler: { name: 'x' } }, { swc: 'yes' }, { require: [''] }]) {
    const ws = workspace(t, { ...hook('npx ts-node tools/check.ts'), 'tsconfig.json': json({ 'ts-node': options }) });
    const { unresolved } = read(ws);
    t.true(
      unresolved.some((reason) => reason.includes('ts-node loads modules through')),
      JSON.stringify(options),
    );
  }
  const ws = workspace(t, { ...hook('npx ts-node tools/check.ts'), 'tsconfig.json': json({ 'ts-node': 'fast' }) });
  t.true(read(ws).unresolved.some((reason) => reason.includes('its "ts-node" is no object')));
  const computed = workspace(t, { ...hook('TS_NODE_COMPILER=$TSC ts-node tools/check.ts') });
  t.true(read(computed).unresolved.some((reason) => reason.includes('the command names the map file or module "$TSC"')));
});

test('control: options that load nothing (and compilerOptions.plugins, which ts-node never loads) leave project files writable', (t) => {
  const ws = workspace(t, {
    ...hook('npx ts-node tools/check.ts'),
    'tsconfig.json': json({
      compilerOptions: { strict: true, plugins: [{ name: 'typescript-plugin-css-modules' }, { transform: './tools/transform.js' }] },
      'ts-node': { transpileOnly: true, swc: false, files: true, moduleTypes: { 'tools/**': 'cjs' }, scope: true, compilerOptions: { module: 'commonjs' } },
    }),
    'tools/transform.js': '',
    'src/app.ts': '',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  t.true(paths.has('tsconfig.json'));
  for (const free of ['tools/transform.js', 'src/app.ts', 'node_modules/@swc/core']) t.false(paths.has(free), free);
});

test('plugins under a "ts-node" compiler other than typescript (ttypescript loads their transforms) are unresolved', (t) => {
  const ws = workspace(t, {
    ...hook('npx ts-node tools/check.ts'),
    'tsconfig.json': json({ extends: './tsconfig.base.json', 'ts-node': { compiler: 'ttypescript' } }),
    'tsconfig.base.json': json({ compilerOptions: { plugins: [{ transform: './tools/transform.js' }] } }),
  });
  t.true(read(ws).unresolved.some((reason) => reason.includes('may load the "transform" modules')));
});
