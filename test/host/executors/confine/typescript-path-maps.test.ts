// The TypeScript runners' module maps: what a hook program's bare specifiers load through tsconfig.json (`paths`,
// `baseUrl`, the `extends` chain) and deno's import maps is protected, and so are the map files; what zotbox cannot map
// is unresolved; a program plain node runs, and project files no hook program reaches, stay writable. Expected sets
// are stated by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

function workspace(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-ts-maps-')), 'ws');
  for (const [name, content] of Object.entries(files)) {
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

test("tsconfig paths: the exact key, else the pattern with the longest prefix; targets relative to baseUrl, with the runners' extensions", (t) => {
  const ws = workspace(t, {
    ...hook('npx tsx scripts/check.ts'),
    'tsconfig.json': json({ compilerOptions: { baseUrl: 'src', paths: { '@lib/*': ['lib/*'], '@lib/special/*': ['special/*', 'fallback/*'], zod: ['../vendor/zod.ts'] } } }),
    'scripts/check.ts': 'import { a } from "@lib/special/a";\nimport { z } from "zod";\nimport "@lib/b.js";\n',
    'src/special/a.ts': '',
    'src/lib/b.ts': 'import { c } from "@lib/c";\n',
    'src/lib/c.ts': '',
    'src/lib/special/a.ts': '',
    'src/app.ts': '',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const expected of ['tsconfig.json', 'scripts/tsconfig.json', 'src/special/a.ts', 'src/fallback/a.ts', 'vendor/zod.ts', 'src/lib/b.ts', 'src/lib/c.ts', 'src/zod.ts', 'src/zod/index.ts'])
    t.true(paths.has(expected), expected);
  // The longer prefix wins: @lib/special/a is not lib/special/a; a file no import reaches is ordinary work.
  for (const free of ['src/lib/special/a.ts', 'src/app.ts']) t.false(paths.has(free), free);
});

test('the extends chain: a relative base written without .json and a package base in node_modules, ${configDir} the leaf directory', (t) => {
  const ws = workspace(t, {
    ...hook('npx tsx tools/check.ts'),
    'tsconfig.json': json({ extends: ['@acme/tsconfig/base.json', './configs/paths'] }),
    'configs/paths.json': '{\n  // paths relative to this file\n  "compilerOptions": { "paths": { "@x/*": ["../x/*",], }, },\n}\n',
    'node_modules/@acme/tsconfig/base.json': json({ compilerOptions: { baseUrl: '${configDir}/lib' } }),
    'tools/check.ts': 'import "@x/one";\nimport "two";\n',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  // baseUrl (from the package base, ${configDir} = the workspace) is what paths resolve against: lib/../x/one.
  for (const expected of ['tsconfig.json', 'configs/paths.json', 'node_modules/@acme/tsconfig/base.json', 'x/one.ts', 'lib/two.ts', 'lib/two/index.ts']) t.true(paths.has(expected), expected);
  t.false(paths.has('configs/x/one.ts'));
});

test('paths without baseUrl resolve from the tsconfig that sets them; a nearer tsconfig.json not yet written is protected', (t) => {
  const ws = workspace(t, {
    ...hook('cd packages/app && npx tsx scripts/check.ts'),
    'packages/app/tsconfig.json': json({ compilerOptions: { paths: { '~/*': ['./src/*'] } } }),
    'packages/app/scripts/check.ts': 'import "~/rules";\n',
    'packages/app/src/rules.ts': '',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const expected of ['packages/app/tsconfig.json', 'packages/app/scripts/tsconfig.json', 'packages/app/src/rules.ts']) t.true(paths.has(expected), expected);
});

test('a config the command names (TS_NODE_PROJECT, --tsconfig) is read and protected', (t) => {
  const ws = workspace(t, {
    ...hook('TS_NODE_PROJECT=tsconfig.hooks.json npx ts-node tools/a.ts && npx tsx --tsconfig cfg/b.json tools/b.ts'),
    'tsconfig.hooks.json': json({ compilerOptions: { paths: { '@a': ['./a-impl.ts'] } } }),
    'cfg/b.json': json({ compilerOptions: { paths: { '@b': ['../b-impl.ts'] } } }),
    'tools/a.ts': 'import "@a";\n',
    'tools/b.ts': 'import "@b";\n',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const expected of ['tsconfig.hooks.json', 'a-impl.ts', 'cfg/b.json', 'b-impl.ts']) t.true(paths.has(expected), expected);
});

test("deno's maps: deno.jsonc imports (exact and prefix), scopes, the importMap file; npm: and jsr: targets are no project file", (t) => {
  const ws = workspace(t, {
    ...hook('deno run -A tools/check.ts'),
    'deno.jsonc':
      '{\n  // the project map\n  "imports": { "@lib/": "./src/lib/", "std": "jsr:@std/path", "zod": "npm:zod" },\n  "scopes": { "./tools/": { "cfg": "./config/cfg.ts" } },\n  "importMap": "./maps/extra.json",\n}\n',
    'maps/extra.json': json({ imports: { extra: './extra/index.ts', './legacy.ts': './new-legacy.ts' } }),
    'tools/check.ts': 'import "@lib/rules.ts";\nimport "std";\nimport "zod";\nimport "cfg";\nimport "extra";\n',
    'src/lib/rules.ts': '',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const expected of ['deno.jsonc', 'deno.json', 'tools/deno.json', 'maps/extra.json', 'src/lib/rules.ts', 'config/cfg.ts', 'maps/extra/index.ts', 'maps/new-legacy.ts'])
    t.true(paths.has(expected), expected);
  for (const free of ['npm:zod', 'jsr:@std/path', 'npm:zod.ts', 'jsr:@std/path.ts']) t.false(paths.has(free), free);
});

test('a program node runs without a TypeScript loader needs none of the maps: tsconfig.json and what it maps stay writable', (t) => {
  const ws = workspace(t, {
    ...hook('node scripts/check.js'),
    'tsconfig.json': json({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } }),
    'deno.json': json({ imports: { '@d/': './src/d/' } }),
    'scripts/check.js': 'const lib = require("@lib/rules");\nrequire("@d/x.js");\n',
    'src/lib/rules.ts': '',
    'src/d/x.js': '',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  for (const free of ['tsconfig.json', 'deno.json', 'src/lib/rules.ts', 'src/d/x.js', 'scripts/tsconfig.json']) t.false(paths.has(free), free);
});

test('a JavaScript program bun runs passes the runner on to its imports: their bare specifiers are mapped too', (t) => {
  const ws = workspace(t, {
    ...hook('bun run scripts/check.js'),
    'tsconfig.json': json({ compilerOptions: { paths: { '@lib/*': ['./src/lib/*'] } } }),
    'scripts/check.js': 'import "@lib/helper.js";\n',
    'src/lib/helper.js': 'import "@lib/deep";\n',
    'src/lib/deep.ts': '',
  });
  const { paths, unresolved } = read(ws);
  t.deepEqual(unresolved, []);
  // helper.js is JavaScript: only the runner passed on from check.js maps its "@lib/deep".
  for (const expected of ['tsconfig.json', 'src/lib/helper.js', 'src/lib/deep.ts']) t.true(paths.has(expected), expected);
});

test('what zotbox cannot map is unresolved: two "*", a template it cannot spell out, a JSONC it cannot parse, a computed map file, a network import map', (t) => {
  for (const [files, command] of [
    [{ 'tsconfig.json': json({ compilerOptions: { paths: { '@a/*/x/*': ['src/*/*'] } } }) }, 'npx tsx tools/check.ts'],
    [{ 'tsconfig.json': json({ compilerOptions: { paths: { '@a/*': ['${rootDir}/src/*'] } } }) }, 'npx tsx tools/check.ts'],
    [{ 'tsconfig.json': json({ compilerOptions: { baseUrl: '${home}/src' } }) }, 'npx tsx tools/check.ts'],
    [{ 'tsconfig.json': '{ "compilerOptions": { /* open } }' }, 'npx tsx tools/check.ts'],
    [{ 'tsconfig.json': json({ compilerOptions: { paths: { '@a/*': 'src/*' } } }) }, 'npx tsx tools/check.ts'],
    [{ 'tsconfig.json': json({ extends: 7 }) }, 'npx tsx tools/check.ts'],
    [{ 'tsconfig.json': json({ extends: './tsconfig.json' }) }, 'npx tsx tools/check.ts'],
    [{}, 'npx tsx --tsconfig "$CFG" tools/check.ts'],
    [{ 'deno.json': '{ "imports": [1] }' }, 'deno run tools/check.ts'],
    [{ 'deno.json': json({ importMap: 'https://example.invalid/map.json' }) }, 'deno run tools/check.ts'],
  ] as const) {
    const ws = workspace(t, { ...hook(command), ...files, 'tools/check.ts': 'import "@a/one/x/two";\n' });
    t.true(read(ws).unresolved.length > 0, JSON.stringify(files));
  }
});
