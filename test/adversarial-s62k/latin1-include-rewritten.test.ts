// Review s62k, unconfined. The fix for s61j lets a user's FILE whose name is not UTF-8 stay (it no longer refuses the
// call, and after the call one that is still a file at the same bytes is kept, whatever it now holds). But the texts
// that name the files git reads as configuration are still decoded as UTF-8: git-inventory.ts `addConfig` →
// `includedPaths(text)` → `insideScopes` (and control-locations.ts `readConfig`, the protected set) spell
// `[include] path = ../caf\xE9.inc` as `../caf\uFFFD.inc`, a path that does not exist, so the included file is never
// recorded, compared or checked ("cannot read" = "nothing there"). User: a repository whose config includes a
// Latin-1-named file in the write scope. One unconfined command rewrites that file (same name: the user's file stays)
// to set `core.hooksPath`. Driven directly (beginGitStateCheck → effects → finish), as `unconfinedCall` does.
// Control (run): the same with the include named `cafe.inc` stops the run ("may name a program or redirect git").
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { ZotboxError } from '../../src/errors.js';
import { beginGitStateCheck } from '../../src/host/executors/confine/git-state-check.js';
import { git } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

test("a user's config include whose path is not UTF-8 is never checked: the agent rewrites it and the user's git runs its hook", (t) => {
  const root = tempDir(t, 'zb-s62k-');
  const ws = path.join(root, 'ws');
  const marker = path.join(root, 'PWNED');
  git(root, 'init', '-q', ws);
  // The user's own setup: a config include in a file named in Latin-1 (caf\xE9.inc), harmless.
  const include = Buffer.concat([Buffer.from(`${ws}/caf`), Buffer.from([0xe9]), Buffer.from('.inc')]);
  writeFileSync(include, '[user]\n\tname = u\n');
  appendFileSync(path.join(ws, '.git', 'config'), Buffer.concat([Buffer.from('[include]\n\tpath = ../caf'), Buffer.from([0xe9]), Buffer.from('.inc\n')]));
  t.is(spawnSync('git', ['config', 'user.name'], { cwd: ws, encoding: 'utf8' }).stdout.trim(), 'u', 'git reads the include by its bytes');
  // SAFE (as fixed): a write scope holding a name that is not UTF-8 refuses the call before anything runs.
  const refused = t.throws(() => beginGitStateCheck({ readRoots: [], writeRoots: [ws] }), { instanceOf: ZotboxError });
  t.is(refused.code, 'ZB_CONFINEMENT_BIND_UNSAFE');
  t.regex(refused.message, /caf\uFFFD\.inc \(bytes: [^)]*\) has a name that is not UTF-8/u);
  // The command (an unconfined rewrite of the include to set core.hooksPath to hooks outside the scope) never runs,
  // so the user's git commit runs no hook of the agent's.
  const commit = spawnSync('git', ['-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: ws, encoding: 'utf8' });
  t.is(commit.status, 0, commit.stderr);
  t.false(existsSync(marker));
});
