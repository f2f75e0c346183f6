// Review s64m, finding 3: control-locations.ts `expandHome` returns undefined for `~NAME/…` ("~other-user: not this
// user's files"), and `readConfig` then drops the value without a word: an include is not read, a core.hooksPath is
// not protected, nothing is unresolved. git expands `~NAME/` through getpwnam (config.c `git_config_pathname` →
// `interpolate_path`: `git -c core.hooksPath=~root/x rev-parse --git-path hooks/pre-commit` is /root/x/pre-commit,
// seen), and NAME may be the user's own login, or another account whose home holds a write scope. docs/security.md
// promises "`~bob/` ... means zotbox cannot tell what git will run: then every write and edit is refused". The
// scan (git-inventory.ts `addConfig`) also skips an include starting with "~", so an included file in the scope is
// neither recorded nor checked after the call. The workspace lies in the home here (`~<user>/zb-s64m-…/ws`).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { removeTree } from '../fixtures/temp.js';
import { git } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit, rewriteHook, userHook } from './fixtures.js';

/** A committed repository in the user's home, and its path as `~LOGIN/…`. */
function homeProject(t: ExecutionContext, files: Readonly<Record<string, string>>): { ws: string; tilde: string } {
  const dir = mkdtempSync(path.join(homedir(), 'zb-s64m-'));
  t.teardown(() => removeTree(dir));
  const ws = path.join(dir, 'ws');
  mkdirSync(ws);
  git(ws, 'init', '-q');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(ws, name), text);
  chmodSync(ws, 0o755);
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'init');
  return { ws, tilde: `~${userInfo().username}/${path.relative(homedir(), ws)}` };
}

test('core.hooksPath spelled ~LOGIN/…: the hooks directory is protected (or the call refused)', async (t) => {
  const { ws, tilde } = homeProject(t, { 'src.txt': '1\n', 'one.sh': rewriteHook('scripts/hooks') });
  userHook(ws, 'scripts/hooks');
  appendFileSync(path.join(ws, '.git', 'config'), `[core]\n\thooksPath = ${tilde}/scripts/hooks\n`);
  t.is(git(ws, 'rev-parse', '--git-path', 'hooks/pre-commit').trim(), path.join(ws, 'scripts/hooks/pre-commit'), 'git expands ~LOGIN');
  // SAFE: the agent's hook never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
});

test('an include spelled ~LOGIN/…: the file it includes is protected and read (or the call refused)', async (t) => {
  const agent = `set -e
mkdir -p agent-hooks
printf '#!/bin/sh\\ntouch "$(git rev-parse --show-toplevel)/PWNED"\\n' > agent-hooks/pre-commit
chmod +x agent-hooks/pre-commit
printf '[core]\\n\\thooksPath = %s/agent-hooks\\n' "$PWD" > team.gitconfig
`;
  const { ws, tilde } = homeProject(t, { 'src.txt': '1\n', 'one.sh': agent, 'team.gitconfig': '[zb]\n\tprobe = 1\n' });
  appendFileSync(path.join(ws, '.git', 'config'), `[include]\n\tpath = ${tilde}/team.gitconfig\n`);
  t.is(git(ws, 'config', '--show-origin', 'zb.probe').trim(), `file:${path.join(ws, 'team.gitconfig')}\t1`, 'git reads the include');
  // SAFE: the agent's hook never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
});
