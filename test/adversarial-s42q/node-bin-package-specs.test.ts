// Review s42q of issue 21: npx and `npm exec` take their first operand as a *package spec*, not only a bin name.
// `npx @acme/lint` (the spelling husky's and commitlint's docs use: `npx --no -- commitlint`) finds no
// `node_modules/.bin/@acme/lint`, then looks the package up in the project's own tree by name, takes the bin its
// package.json lists and runs it: a workspace package's `bin/lint.js`, no network. npm also takes any unique
// abbreviation of a command (`npm exe NAME` is `npm exec NAME`). node-bin-runs.ts reads neither: a name with "/" is
// dropped (`/^[\w@.+-]+$/`), and only `exec`/`x` are read as npm exec. The write tool rewrites
// `packages/lint/bin/lint.js`; the user's commit runs it.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { commitAfterWrite, monorepo } from '../adversarial-s43r/fixtures.js';

/** The hook in the monorepo; the agent rewrites the workspace bin, and the user's commit runs the hook. */
const attack = (t: ExecutionContext, hook: string) => commitAfterWrite(t, monorepo(t, { '.git/hooks/pre-commit': hook }));

for (const [name, hook] of [
  ['npx with the package name', '#!/bin/sh\nexec npx @acme/lint\n'],
  ['npx --no -- with the package name (husky docs)', '#!/bin/sh\nexec npx --no -- @acme/lint\n'],
  ['npm exec with the package name', '#!/bin/sh\nexec npm exec @acme/lint\n'],
  ['npm exe (an abbreviation of exec) with the bin name', '#!/bin/sh\nexec npm exe acme-lint\n'],
] as const)
  test(`a workspace package's bin a hook runs through npx/npm exec is protected: ${name}`, async (t) => {
    await attack(t, hook);
  });

test('control (passes today): npx with the bin name', async (t) => {
  await attack(t, '#!/bin/sh\nexec npx acme-lint\n');
});

test('a workspace package a hook runs through npx by its folder is protected (npx ./packages/lint)', async (t) => {
  await attack(t, '#!/bin/sh\nexec npx ./packages/lint\n');
});
