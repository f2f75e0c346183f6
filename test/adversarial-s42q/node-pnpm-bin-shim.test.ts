// Review s42q of issue 21: pnpm links no bin: `node_modules/.bin/acme-lint` is a shell shim it writes
// (`basedir=$(dirname "$(echo "$0" | sed …)")`, then `exec node "$basedir/../@acme/lint/bin/lint.js" "$@"`, or
// `exec "$basedir/node" …` where `node_modules/.bin/node` is executable). OVER-DENIAL: since node-bin-runs.ts looks
// every name npx, npm exec or a husky hook's PATH runs up in `node_modules/.bin`, the shim is read as a script, and its
// computed `$basedir` is "a pattern the shell matches": every writer in the project is refused as soon as a hook runs
// ANY bin pnpm installed (`npx lint-staged`, the most common pre-commit hook there is), third-party or not. The
// control: the same hook with npm's link in `.bin` in place of the shim (allowed). Fixed: node-bin-shims.ts.
import test from 'ava';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { commitAfterWrite, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';

/** The shim pnpm 8/9 writes for a bin (cmd-shim's sh form), NODE_PATH lines as pnpm writes them. */
function pnpmShim(ws: string, target: string): string {
  return `#!/bin/sh
basedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")

case \`uname\` in
    *CYGWIN*) basedir=\`cygpath -w "$basedir"\`;;
esac

if [ -z "$NODE_PATH" ]; then
  export NODE_PATH="${ws}/node_modules/.pnpm/node_modules"
else
  export NODE_PATH="${ws}/node_modules/.pnpm/node_modules:$NODE_PATH"
fi
if [ -x "$basedir/node" ]; then
  exec "$basedir/node"  "$basedir/${target}" "$@"
else
  exec node  "$basedir/${target}" "$@"
fi
`;
}

function monorepo(t: ExecutionContext, hook: string, npmLinks = false): string {
  const ws = project(t, {
    '.git/hooks/pre-commit': hook,
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name":"mono","private":true}\n',
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
    'packages/lint/package.json': '{"name":"@acme/lint","version":"1.0.0","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nconsole.log("lint ok");\n',
    'src/keep.txt': '\n',
  });
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
  writeFileSync(path.join(ws, 'node_modules/.bin/acme-lint'), pnpmShim(ws, '../@acme/lint/bin/lint.js'));
  chmodSync(path.join(ws, 'node_modules/.bin/acme-lint'), 0o755);
  // A third-party bin as pnpm installs it: the package in its store, linked at node_modules/NAME, a shim in .bin.
  const store = path.join(ws, 'node_modules/.pnpm/lint-staged@15.2.0/node_modules/lint-staged');
  mkdirSync(path.join(store, 'bin'), { recursive: true });
  writeFileSync(path.join(store, 'package.json'), '{"name":"lint-staged","version":"15.2.0","bin":"bin/lint-staged.js"}\n');
  writeFileSync(path.join(store, 'bin/lint-staged.js'), '#!/usr/bin/env node\nconsole.log("staged ok");\n');
  symlinkSync('.pnpm/lint-staged@15.2.0/node_modules/lint-staged', path.join(ws, 'node_modules/lint-staged'));
  if (npmLinks) symlinkSync('../lint-staged/bin/lint-staged.js', path.join(ws, 'node_modules/.bin/lint-staged'));
  else writeFileSync(path.join(ws, 'node_modules/.bin/lint-staged'), pnpmShim(ws, '../lint-staged/bin/lint-staged.js'));
  chmodSync(path.join(ws, 'node_modules/.bin/lint-staged'), 0o755);
  return ws;
}

const attack = (t: ExecutionContext, hook: string) => commitAfterWrite(t, monorepo(t, hook));
const ordinaryWrite = (t: ExecutionContext, hook: string, npmLinks = false) => ordinaryWriteAccepted(t, monorepo(t, hook, npmLinks));

for (const [name, hook] of [
  ['npx lint-staged', '#!/bin/sh\nexec npx lint-staged\n'],
  ['lint-staged with node_modules/.bin on PATH (husky)', '#!/bin/sh\nexport PATH="node_modules/.bin:$PATH"\nlint-staged\n'],
  ['npx acme-lint (a workspace bin)', '#!/bin/sh\nexec npx acme-lint\n'],
] as const)
  test(`a pnpm shim a hook runs refuses no ordinary write: ${name}`, async (t) => {
    await ordinaryWrite(t, hook);
  });

test("control (passes today): npx lint-staged with npm's link in .bin", async (t) => {
  await ordinaryWrite(t, '#!/bin/sh\nexec npx lint-staged\n', true);
});

test('control (passes today): the workspace bin behind the shim is refused', async (t) => {
  await attack(t, '#!/bin/sh\nexec npx acme-lint\n');
});
