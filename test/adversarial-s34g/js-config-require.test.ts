// Finding (node resolution in tool files that are code): lint-staged.config.js (also .lintstagedrc.js, any *.js a tool
// entry holds) is JavaScript its tool loads; `require('./tools/lint-base')` loads tools/lint-base.js. The reader took
// the file word by word: `./tools/lint-base` was protected as written (no such file), never as node resolves it.
// The agent's write tool replaced tools/lint-base.js and the user's next commit (hook: lint-staged) ran it unconfined.
// Safe outcome, stated by hand without lint-staged (not installed here): the write is refused (the file keeps its text),
// for each of node's resolutions of a relative require from the config file's directory.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentRun, world } from './harness.js';

const cases: Record<string, { config: Record<string, string>; file: string }> = {
  'lint-staged.config.js, ./tools/lint-base → .js': {
    config: { 'lint-staged.config.js': "const base = require('./tools/lint-base');\nmodule.exports = base;\n" },
    file: 'tools/lint-base.js',
  },
  '.lintstagedrc.mjs, import from ./tools/base → index.js': {
    config: { '.lintstagedrc.mjs': "import base from './tools/base';\nexport default base;\n" },
    file: 'tools/base/index.js',
  },
  '.vscode/x.js requiring ../tools/y (from the file, not the top)': {
    config: { '.vscode/x.js': "require('../tools/y');\n" },
    file: 'tools/y.cjs',
  },
};

for (const [name, { config, file }] of Object.entries(cases)) {
  test(`a JS tool file's relative require is protected as node resolves it (${name})`, async (t) => {
    const w = world(t, { ...config, [file]: "module.exports = { '*.md': 'echo' };\n" });
    const planted = `require('fs').writeFileSync(${JSON.stringify(w.marker)}, '');\nmodule.exports = { '*.md': 'echo' };\n`;
    const result = await agentRun(w, [{ name: 'write', input: { path: file, content: planted } }]);
    t.is(readFileSync(path.join(w.ws, file), 'utf8'), "module.exports = { '*.md': 'echo' };\n", `${result.stdout}${result.stderr}`);
  });
}
