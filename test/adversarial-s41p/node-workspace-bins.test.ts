// Review s41p of issue 21: a monorepo's own command-line tool, a workspace package with a `bin` (`packages/lint`,
// `"bin": {"acme-lint": "bin/lint.js"}`), which npm, yarn and pnpm link into `node_modules/.bin/acme-lint ->
// ../@acme/lint/bin/lint.js` (through the workspace link `node_modules/@acme/lint -> ../../packages/lint`). A hook that
// runs it by its name, as husky (v9 puts `node_modules/.bin` first on PATH for every hook) and lefthook hooks usually do,
// runs `packages/lint/bin/lint.js`, the project's own tracked source: `acme-lint` with `node_modules/.bin` on PATH, `npx
// acme-lint`, `npm exec -- acme-lint` (npx and npm exec look in the project's `node_modules/.bin` first, no network).
// zotbox follows the link when the hook names `node_modules/.bin/acme-lint` itself (control), and follows workspace
// links for `require("@acme/lint")` (s39n), but takes a name npx, npm exec or PATH finds in `node_modules/.bin` as
// "the project's dependencies" (shell-command-reading.ts drops `node_modules` entries of PATH; npx is only a wrapper
// in operand-languages.ts) without looking where it leads. The write tool rewrites `packages/lint/bin/lint.js`; the
// user's commit runs it.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites } from '../adversarial-s36i/harness.js';
import { commitAfterWrite, monorepo } from '../adversarial-s43r/fixtures.js';

/** The hook in an npm-workspaces monorepo (s43r's fixture); the agent rewrites the workspace bin, the user's commit runs the hook. */
const attack = (t: ExecutionContext, hook: string) => commitAfterWrite(t, monorepo(t, { '.git/hooks/pre-commit': hook }));

for (const [name, hook] of [
  ['by name with node_modules/.bin on PATH (husky v9)', '#!/bin/sh\nexport PATH="node_modules/.bin:$PATH"\nacme-lint\n'],
  ['npx', '#!/bin/sh\nexec npx acme-lint\n'],
  ['npm exec', '#!/bin/sh\nexec npm exec -- acme-lint\n'],
] as const)
  test(`a workspace package's bin a hook runs is protected: ${name}`, async (t) => {
    await attack(t, hook);
  });

// direnv's `PATH_add node_modules/.bin` (what `layout node` does): zotbox protects `node_modules/.bin` whole and
// follows its links to the workspace files (direnv-stdlib.ts): the same PATH a hook script sets is not read so.
test("control (passes today): the bin an .envrc puts on PATH (PATH_add node_modules/.bin), run in the user's direnv shell", async (t) => {
  const ws = monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\n' });
  execFileSync('sh', ['-c', 'printf "PATH_add node_modules/.bin\\n" > .envrc && git add .envrc && git -c user.name=u -c user.email=u@e commit -qm envrc'], { cwd: ws });
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, 'packages/lint/bin/lint.js', `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\n`));
  // The user's shell in the project, the .envrc allowed (a private direnv state), runs the project's lint command.
  const home = path.join(path.dirname(ws), 'home');
  mkdirSync(home);
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  execFileSync('direnv', ['allow', ws], { env, stdio: 'ignore' });
  try {
    execFileSync('direnv', ['exec', ws, 'acme-lint'], { cwd: ws, env, stdio: 'ignore' });
  } catch {
    // what ran is what counts
  }
  t.false(existsSync(marker), "the agent-written workspace bin ran in the user's direnv shell");
});

test('control (passes today): the hook names node_modules/.bin/acme-lint itself', async (t) => {
  await attack(t, '#!/bin/sh\nexec node_modules/.bin/acme-lint\n');
});
