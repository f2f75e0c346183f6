// Found while fixing the zero-install cache (issue 21): under Plug'n'Play a hook's `yarn lint`, whose package.json
// script is `eslint .` (eslint a registry dependency, its code in `.yarn/cache/eslint-npm-….zip`), left the cache
// neither protected nor unresolved: the script's bare `eslint` was read as a word, not looked up as yarn does (a
// script yarn runs gets the dependencies' bins through Plug'n'Play, with no node_modules/.bin). The write tool rewrote
// the zip; the user's commit runs it. `yarn eslint .` itself was protected. Expected by hand, through the real CLI: a
// write into the cache zip is refused (or put back) and the commit runs nothing of the agent's, for `yarn lint`,
// `yarn run lint` and a script that runs another script (`yarn verify` → `yarn lint` → `eslint .`); an ordinary
// write is accepted. yarn is not installed here: the project is as committed (zotbox's reading needs no yarn).
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { attack, nodePayload, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';

const ZIP = '.yarn/cache/eslint-npm-9.0.0-abc-123.zip';

function pnpProject(t: ExecutionContext, hook: string): string {
  return project(t, {
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
    '.yarnrc.yml': 'nodeLinker: pnp\nenableGlobalCache: false\n',
    '.pnp.cjs': '#!/usr/bin/env node\n"use strict";\n',
    'package.json': JSON.stringify({
      name: 'app',
      private: true,
      scripts: { lint: 'eslint .', verify: 'yarn lint && echo verified' },
      devDependencies: { eslint: '^9.0.0' },
    }),
    'yarn.lock': '# yarn lockfile v8\n',
    [ZIP]: 'PK stand-in\n',
    'src/app.js': 'console.log(1);\n',
  });
}

for (const hook of ['exec yarn lint', 'exec yarn run lint', 'exec yarn verify'])
  test(`the cache zip of a dependency's bin a yarn script runs under Plug'n'Play is protected: ${hook}`, async (t) => {
    await attack(t, pnpProject(t, hook), ZIP, nodePayload);
  });

test("control: an ordinary write is accepted where a hook runs a yarn script under Plug'n'Play", async (t) => {
  await ordinaryWriteAccepted(t, pnpProject(t, 'exec yarn lint'));
});
