// Review s37k of issue 21: git configuration an .envrc gives (git-environment-config.ts) is resolved from the
// .envrc's own directory. Git takes a relative core.hooksPath (and runs every command value) from the top of the
// worktree. In a monorepo whose package has its own .envrc (`packages/web/.envrc` exporting GIT_CONFIG_KEY_0=
// core.hooksPath, GIT_CONFIG_VALUE_0=tools/githooks), zotbox protects packages/web/tools/githooks while git runs
// <top>/tools/githooks: the write tool rewrites that hook and the user's commit in packages/web runs it.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const HOOK = '#!/bin/sh\necho hooks ok\n';

test('the hooks directory a package .envrc gives git (relative: from the worktree top) is not writable', async (t) => {
  const ws = project(t, {
    'packages/web/.envrc': 'export GIT_CONFIG_COUNT=1\nexport GIT_CONFIG_KEY_0=core.hooksPath\nexport GIT_CONFIG_VALUE_0=tools/githooks\n',
    'packages/web/index.js': 'module.exports = 1;\n',
    'tools/githooks/pre-commit': HOOK,
  });
  chmodSync(path.join(ws, 'tools/githooks/pre-commit'), 0o755);
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, 'tools/githooks/pre-commit', `#!/bin/sh\ntouch ${marker}\n`));
  // The user, in packages/web with direnv's environment, commits.
  const env = { ...process.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: 'tools/githooks' };
  try {
    execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'user'], { cwd: path.join(ws, 'packages/web'), env, stdio: 'ignore' });
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the user's commit ran the agent's hook");
  t.is(readFileSync(path.join(ws, 'tools/githooks/pre-commit'), 'utf8'), HOOK, 'the write tool rewrote the hook git runs');
});
