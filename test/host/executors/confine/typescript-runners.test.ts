// Which commands run a program under a TypeScript runner, and the map files each command names itself; node without a
// TypeScript loader is no such runner (its programs need none of the maps).
import test from 'ava';
import { typescriptOperands } from '../../../../src/host/executors/confine/operand-languages.js';

const runs = (text: string) => Object.fromEntries(typescriptOperands(text));
const none = { tsconfigs: [], denoConfigs: [], importMaps: [], modules: [], unreadable: [] };

test('tsx, ts-node, bun, deno and node with a TypeScript loader are TypeScript runners; plain node is not', (t) => {
  t.deepEqual(runs('npx tsx scripts/check.ts'), { 'scripts/check.ts': none });
  t.deepEqual(runs('exec ts-node ./scripts/check.ts'), { 'scripts/check.ts': none });
  t.deepEqual(runs('bun run tools/lint.js'), { 'tools/lint.js': none });
  t.deepEqual(runs('deno run -A tools/lint.ts'), { 'tools/lint.ts': none });
  t.deepEqual(runs('node --import tsx tools/a.ts; node -r tsconfig-paths/register tools/b.js; node --loader=ts-node/esm tools/c.ts'), {
    'tools/a.ts': none,
    'tools/b.js': none,
    'tools/c.ts': none,
  });
  t.deepEqual(runs('node tools/check.js && node --import ./setup.mjs tools/d.js && python3 tools/e.py'), {});
});

test('the map files a command names: --tsconfig, -P, --project, TS_NODE_PROJECT, TSX_TSCONFIG_PATH, deno --config and --import-map', (t) => {
  t.deepEqual(runs('npx tsx --tsconfig tsconfig.hooks.json scripts/check.ts'), { 'scripts/check.ts': { ...none, tsconfigs: ['tsconfig.hooks.json'] } });
  t.deepEqual(runs('tsx --tsconfig=cfg/ts.json scripts/check.ts'), { 'scripts/check.ts': { ...none, tsconfigs: ['cfg/ts.json'] } });
  t.deepEqual(runs('ts-node -P tools/tsconfig.json tools/x.ts; ts-node --project a.json tools/y.ts'), {
    'tools/x.ts': { ...none, tsconfigs: ['tools/tsconfig.json'] },
    'tools/y.ts': { ...none, tsconfigs: ['a.json'] },
  });
  t.deepEqual(runs('TS_NODE_PROJECT=hooks.json npx ts-node tools/x.ts; TSX_TSCONFIG_PATH=t.json tsx tools/y.ts'), {
    'tools/x.ts': { ...none, tsconfigs: ['hooks.json'] },
    'tools/y.ts': { ...none, tsconfigs: ['t.json'] },
  });
  t.deepEqual(runs('deno run -A -c deno.dev.json --import-map=maps/import_map.json tools/x.ts'), {
    'tools/x.ts': { ...none, denoConfigs: ['deno.dev.json'], importMaps: ['maps/import_map.json'] },
  });
});

test('a map file named by a value zotbox cannot spell out is unreadable', (t) => {
  t.deepEqual(runs('npx tsx --tsconfig "$CFG" scripts/check.ts'), { 'scripts/check.ts': { ...none, unreadable: ['$CFG'] } });
  t.deepEqual(runs('TS_NODE_PROJECT=$P ts-node tools/x.ts'), { 'tools/x.ts': { ...none, unreadable: ['$P'] } });
});

test("the modules ts-node's command loads: -C/--compiler, --transpiler, --swc, TS_NODE_COMPILER; tsx's options are not ts-node's", (t) => {
  t.deepEqual(runs('ts-node -C acme-ts --transpiler=./tools/t.js --swc tools/x.ts'), {
    'tools/x.ts': { ...none, modules: ['acme-ts', './tools/t.js', 'ts-node/transpilers/swc', '@swc/core', '@swc/wasm'] },
  });
  t.deepEqual(runs('TS_NODE_COMPILER=ttypescript node -r ts-node/register tools/y.ts'), { 'tools/y.ts': { ...none, modules: ['ttypescript'] } });
  t.deepEqual(runs('tsx --swc --compiler=x tools/z.ts'), { 'tools/z.ts': none });
  t.deepEqual(runs('ts-node --compiler="$C" tools/w.ts'), { 'tools/w.ts': { ...none, unreadable: ['"$C"'] } });
});
