// Review s46u of issue 21: program-path-joins.ts takes `require.resolve("pkg/x")` of a literal package path as the
// value `pkg/x` (the module reading protects the file node finds) and joins it like any other piece. Joined on, it is
// no longer that module: `path.join(require.resolve("@acme/lint/package.json"), "..", "bin", "lint.js")` (the idiom for
// a file beside a package's manifest), `path.resolve(…, "../bin/lint.js")` and `+ "/../bin/lint.js"` are spelled as the
// top's `@acme/lint/bin/lint.js` (nothing there), while node runs the workspace package's `packages/lint/bin/lint.js`
// through node_modules/@acme/lint: neither protected nor unresolved. The write tool rewrites it, the user's commit runs
// it (end to end, in an npm-workspaces monorepo as npm links it). Controls: the whole `require.resolve("@acme/lint/bin/
// lint.js")` is refused today, and `path.dirname(require.resolve(…))` is unresolved (refused).
import test from 'ava';
import { commitAfterWrite, monorepo, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';

const hook = (operand: string) => ({
  '.git/hooks/pre-commit': `#!/usr/bin/env node\nconst { execFileSync } = require("node:child_process");\nconst path = require("node:path");\nexecFileSync("node", [${operand}], { stdio: "inherit" });\n`,
});

for (const operand of [
  'path.join(require.resolve("@acme/lint/package.json"), "..", "bin", "lint.js")',
  'path.resolve(require.resolve("@acme/lint/package.json"), "../bin/lint.js")',
  'require.resolve("@acme/lint/package.json") + "/../bin/lint.js"',
])
  test(`a file joined onto a package's resolved manifest is protected: ${operand}`, async (t) => {
    await commitAfterWrite(t, monorepo(t, hook(operand)));
  });

for (const operand of ['require.resolve("@acme/lint/bin/lint.js")', 'path.join(path.dirname(require.resolve("@acme/lint/package.json")), "bin", "lint.js")'])
  test(`control (passes today): ${operand}`, async (t) => {
    await commitAfterWrite(t, monorepo(t, hook(operand)));
  });

test('control: an ordinary write is accepted', async (t) => {
  await ordinaryWriteAccepted(t, monorepo(t, hook('require.resolve("@acme/lint/bin/lint.js")')));
});
