// Review s45t of issue 21: the same class as yarn-env-files, for runners that load `.env` files on their own, by their
// manuals (none installed here: the write alone is asserted). NODE_OPTIONS (or PYTHONPATH beside a `sitecustomize.py`)
// in such a file reaches every process the runner starts, the linter the hook runs included:
// - bun: `bun run SCRIPT`, `bun FILE`, `bunx` read `.env`, `.env.$NODE_ENV` and `.env.local` from where they run into
//   their own environment (package-manager-configs.ts protects `bunfig.toml` and `.npmrc` only);
// - pipenv: `pipenv run` loads the project's `.env` (PIPENV_DONT_LOAD_ENV unset: the default); script-path-programs.ts
//   follows `pipenv run NAME` to `.venv/bin/NAME`, not to the environment it runs it with;
// - Nx: every task `nx run-many -t lint` / `nx affected` runs gets `.env`, `.local.env` and `.env.local` of the
//   workspace and of the project.
// A plain `.env` (no such runner) stays writable: control.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';
import { nodeOptionsPayload } from './fixtures.js';

const PACKAGE = '{"name":"app","private":true,"scripts":{"lint":"node tools/lint.js"}}\n';

for (const [runner, hook, file] of [
  ['bun run', 'bun run lint', '.env'],
  ['bun run', 'bun run lint', '.env.local'],
  ['pipenv run', 'pipenv run python tools/lint.py', '.env'],
  ['nx', 'npx nx run-many -t lint', '.env'],
] as const)
  test(`a ${file} the runner loads on its own is refused where a hook runs it: ${runner}`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, 'package.json': PACKAGE, 'tools/lint.js': 'console.log("ok");\n', 'tools/lint.py': 'print("ok")\n' });
    t.log(await agentWrites(t, ws, file, `NODE_OPTIONS=${nodeOptionsPayload(path.join(path.dirname(ws), 'PWNED'))}\n`));
    t.false(existsSync(path.join(ws, file)), `${file} was written`);
  });

test('control: a .env where no hook runs a runner that loads it is written', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\nnode tools/lint.js\n', 'package.json': PACKAGE, 'tools/lint.js': 'console.log("ok");\n' });
  t.log(await agentWrites(t, ws, '.env', 'PORT=3000\n'));
  t.true(existsSync(path.join(ws, '.env')));
});
