// Review s44s of issue 21: ts-node reads its own options from the `"ts-node"` key of tsconfig.json (through
// `"extends"`), and `"require": ["./tools/setup.js"]` loads those modules before the program it runs (so do
// `"transpiler"` and `"compiler"`, module names it requires). A hook running `npx ts-node tools/check.ts` has
// tsconfig.json (and the base it extends) protected, as the file the TypeScript runner reads for the program's paths,
// but what its "ts-node" key names is neither protected nor unresolved: the write tool rewrites `tools/setup.js`; the
// user's commit runs it first (checked by hand with ts-node 10.9.2 and typescript 5 from npm: the payload ran). ts-node
// is not installed here: the fixture installs a stand-in that loads the options as ts-node does (fixed: ts-node-options.ts). Control:
// tsconfig.json itself is refused today.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { attack, installedBin, nodePayload, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';

/** ts-node's option loading, as the stand-in does it: "extends" first, a "require" entry from its tsconfig's directory. */
const TS_NODE = `#!/usr/bin/env node
const fs = require("fs"), path = require("path");
function load(file) {
  const config = JSON.parse(fs.readFileSync(file, "utf8"));
  const base = config.extends === undefined ? [] : load(path.resolve(path.dirname(file), config.extends));
  const own = (config["ts-node"] && config["ts-node"].require) || [];
  return [...base, ...own.map((name) => (name.startsWith(".") ? path.resolve(path.dirname(file), name) : name))];
}
for (const name of load(path.resolve("tsconfig.json"))) require(name);
require(path.resolve(process.argv[2]));
`;

function tsNodeProject(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = project(t, {
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name":"app","private":true}\n',
    '.git/hooks/pre-commit': '#!/bin/sh\nexec npx ts-node tools/check.ts\n',
    'tools/check.ts': 'console.log("check ok");\n',
    'tools/setup.js': 'process.env.TZ = "UTC";\n',
    ...files,
  });
  installedBin(ws, 'ts-node', TS_NODE);
  return ws;
}

test('a module tsconfig.json\'s "ts-node" require names is protected when a hook runs ts-node', async (t) => {
  const ws = tsNodeProject(t, { 'tsconfig.json': '{"compilerOptions":{"strict":true},"ts-node":{"require":["./tools/setup.js"]}}\n' });
  await attack(t, ws, 'tools/setup.js', nodePayload);
});

test('a module the extended tsconfig\'s "ts-node" require names is protected when a hook runs ts-node', async (t) => {
  const ws = tsNodeProject(t, {
    'tsconfig.json': '{"extends":"./tsconfig.base.json","compilerOptions":{"strict":true}}\n',
    'tsconfig.base.json': '{"ts-node":{"require":["./tools/setup.js"]}}\n',
  });
  await attack(t, ws, 'tools/setup.js', nodePayload);
});

test('control (passes today): tsconfig.json itself is refused', async (t) => {
  const ws = tsNodeProject(t, { 'tsconfig.json': '{"compilerOptions":{"strict":true}}\n' });
  await attack(t, ws, 'tsconfig.json', () => '{"ts-node":{"require":["./tools/setup.js"]}}\n');
});

test('control: with "ts-node" require and swc set, an ordinary write (a file no option names) is accepted', async (t) => {
  const ws = tsNodeProject(t, { 'tsconfig.json': '{"extends":"./tsconfig.base.json","ts-node":{"swc":true}}\n', 'tsconfig.base.json': '{"ts-node":{"require":["./tools/setup.js"]}}\n' });
  await ordinaryWriteAccepted(t, ws);
});
