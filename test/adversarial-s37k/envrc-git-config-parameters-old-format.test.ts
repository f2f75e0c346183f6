// Review s37k of issue 21: git reads GIT_CONFIG_PARAMETERS in two formats, `'key'='value'` and the older
// `'key=value'` (one quoted word; git 2.39 here reads both). git-environment-config.ts parameterEntries takes the
// older one for a key `core.hooksPath=tools/githooks` with the value "true": nothing unresolved, the hooks directory
// unprotected. The write tool rewrites the hook; the user's commit with direnv's environment runs it.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const HOOK = '#!/bin/sh\necho hooks ok\n';

test("the hooks directory an .envrc gives through GIT_CONFIG_PARAMETERS='key=value' is not writable", async (t) => {
  const ws = project(t, {
    '.envrc': `export GIT_CONFIG_PARAMETERS="'core.hooksPath=tools/githooks'"\n`,
    'tools/githooks/pre-commit': HOOK,
  });
  chmodSync(path.join(ws, 'tools/githooks/pre-commit'), 0o755);
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, 'tools/githooks/pre-commit', `#!/bin/sh\ntouch ${marker}\n`));
  const env = { ...process.env, GIT_CONFIG_PARAMETERS: "'core.hooksPath=tools/githooks'" };
  try {
    execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'user'], { cwd: ws, env, stdio: 'ignore' });
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the user's commit ran the agent's hook");
  t.is(readFileSync(path.join(ws, 'tools/githooks/pre-commit'), 'utf8'), HOOK);
});
