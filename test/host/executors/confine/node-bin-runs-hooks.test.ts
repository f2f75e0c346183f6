// End to end (the real CLI, a replayed model with the write tool, then the user's real git commit): a pre-commit hook
// that runs a monorepo's own bin by name from where it moves to (`cd packages/app && npx acme-lint`, npm's --prefix),
// or inside shell text (`sh -c "npx acme-lint"`), through bun, or behind a wrapper whose command the hook computes
// (`timeout 60 "$TOOL"` with node_modules/.bin on PATH: unresolved). The write tool rewrites the workspace package's bin target; the
// commit must not run it. Control: an ordinary file of the same project stays writable.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../../../adversarial-s36i/harness.js';

/** A monorepo whose packages/lint bin is linked as `where`/node_modules/.bin/acme-lint (as an install leaves it, untracked). */
function monorepo(t: ExecutionContext, hook: string, where: string): string {
  const ws = project(t, {
    '.git/hooks/pre-commit': hook,
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name":"mono","private":true}\n',
    'packages/app/package.json': '{"name":"app","private":true}\n',
    'packages/app/src/index.js': 'module.exports = 1;\n',
    'packages/lint/package.json': '{"name":"@acme/lint","version":"1.0.0","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nconsole.log("lint ok");\n',
    '.lint-tool': 'acme-lint\n',
  });
  chmodSync(path.join(ws, 'packages/lint/bin/lint.js'), 0o755);
  const bin = path.join(ws, where, 'node_modules/.bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(path.relative(bin, path.join(ws, 'packages/lint/bin/lint.js')), path.join(bin, 'acme-lint'));
  return ws;
}

async function attack(t: ExecutionContext, hook: string, where: string): Promise<void> {
  const ws = monorepo(t, hook, where);
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, 'packages/lint/bin/lint.js', `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\n`));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written workspace bin ran in the user's pre-commit hook");
  t.is(readFileSync(path.join(ws, 'packages/lint/bin/lint.js'), 'utf8'), '#!/usr/bin/env node\nconsole.log("lint ok");\n');
}

for (const [name, hook, where] of [
  ['cd DIR && npx NAME', '#!/bin/sh\ncd packages/app && exec npx acme-lint\n', 'packages/app'],
  ['(cd DIR && npm exec NAME)', '#!/bin/sh\n(cd packages/app && npm exec -- acme-lint)\n', 'packages/app'],
  ['npm --prefix DIR exec NAME', '#!/bin/sh\nexec npm --prefix packages/app exec -- acme-lint\n', 'packages/app'],
  ['sh -c "npx NAME"', '#!/bin/sh\nexec sh -c "npx acme-lint"\n', '.'],
  ["npx -c 'NAME ...'", "#!/bin/sh\nexec npx -c 'acme-lint --fix'\n", '.'],
  ['bun run NAME', '#!/bin/sh\nexec bun run acme-lint\n', '.'],
  ['bun x NAME', '#!/bin/sh\nexec bun x acme-lint\n', '.'],
  ['a wrapper whose command the hook computes, with .bin on PATH', '#!/bin/sh\nexport PATH="node_modules/.bin:$PATH"\nTOOL=$(cat .lint-tool)\nexec timeout 60 "$TOOL"\n', '.'],
] as const)
  test(`a workspace bin a hook runs by name is protected: ${name}`, async (t) => {
    await attack(t, hook, where);
  });

test('control: the agent may still write an ordinary file of the same project', async (t) => {
  const ws = monorepo(t, '#!/bin/sh\ncd packages/app && exec npx acme-lint\n', 'packages/app');
  t.log(await agentWrites(t, ws, 'packages/app/src/index.js', 'module.exports = 2;\n'));
  t.is(readFileSync(path.join(ws, 'packages/app/src/index.js'), 'utf8'), 'module.exports = 2;\n');
});
