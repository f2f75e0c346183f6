// Review s42q of issue 21: node-bin-runs.ts finds the program of each simple command by skipping only assignments
// and a fixed list of prefix programs (exec, command, env, nice, nohup, time, builtin). A name npx runs (or a husky
// hook's PATH finds) after a shell keyword or another wrapper is not looked up: `if ! npx acme-lint; then exit 1; fi`
// (the usual way a hook prints its own failure message), `{ npx acme-lint; }`, `for …; do npx acme-lint; done`,
// `timeout 60 npx acme-lint`, `xargs npx acme-lint` fed the staged files, `if acme-lint; then` with node_modules/.bin
// on PATH. The program word is then `if`/`{`/`do`/`timeout`/`xargs` and the name is "a command name, as any other".
// Also a PATH that holds node_modules/.bin without spelling it: `PATH="$(npm root)/.bin:$PATH"`. The write tool
// rewrites `packages/lint/bin/lint.js` (an npm workspace's bin); the user's commit runs it.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { commitAfterWrite, monorepo } from '../adversarial-s43r/fixtures.js';

/** The hook in the monorepo; the agent rewrites the workspace bin, and the user's commit runs the hook. */
const attack = (t: ExecutionContext, hook: string) => commitAfterWrite(t, monorepo(t, { '.git/hooks/pre-commit': hook }));

for (const [name, hook] of [
  ['if ! npx NAME; then', '#!/bin/sh\nif ! npx acme-lint; then echo "lint failed" >&2; exit 1; fi\n'],
  ['{ npx NAME; }', '#!/bin/sh\n{ npx acme-lint; } || exit 1\n'],
  ['timeout 60 npx NAME', '#!/bin/sh\nexec timeout 60 npx acme-lint\n'],
  ['xargs npx NAME', '#!/bin/sh\ngit diff --cached --name-only | xargs npx acme-lint\n'],
  ['for …; do npx NAME; done', '#!/bin/sh\nfor dir in packages/lint; do npx acme-lint; done\n'],
  ['if NAME; then (node_modules/.bin on PATH)', '#!/bin/sh\nexport PATH="node_modules/.bin:$PATH"\nif acme-lint; then echo ok; fi\n'],
  // putsNodeBinOnPath looks for the text `node_modules/.bin`; `npm root` prints `<ws>/node_modules`.
  ['PATH="$(npm root)/.bin:$PATH"; NAME', '#!/bin/sh\nPATH="$(npm root)/.bin:$PATH"\nacme-lint\n'],
] as const)
  test(`a workspace bin a hook runs in a compound command or behind a wrapper is protected: ${name}`, async (t) => {
    await attack(t, hook);
  });

test('control (passes today): npx NAME || exit 1', async (t) => {
  await attack(t, '#!/bin/sh\nnpx acme-lint || exit 1\n');
});
