// Review s65n, finding 3: control-locations.ts `userGitEnvironment` takes GIT_CONFIG_NOSYSTEM as "no system config"
// unless it is 0/false/no/off; git reads it with git_env_bool (git_parse_maybe_bool, then an integer with strtoimax
// and a unit), so `00`, `0k`, ` 0`, `0x0`, `-0` are all false to git: it reads the system config, which zotbox then
// never reads (`GIT_CONFIG_NOSYSTEM=00 git config --show-origin --list`: the system file's entries, seen). The user's
// system config (here GIT_CONFIG_SYSTEM, outside the scopes) sets core.hooksPath to a directory in the workspace: not
// bound read-only. One confined call rewrites the hook; the user's `git commit` runs it. Control: `0` held.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';
import { agentThenUserCommitWith, gitWith, rewriteHook, userHook } from './fixtures.js';

for (const [title, value] of [
  ['00', '00'],
  ['control: 0', '0'],
] as const) {
  test(`GIT_CONFIG_NOSYSTEM=${title}: the hooks directory the system config names is protected`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': rewriteHook('scripts/hooks') });
    userHook(ws, 'scripts/hooks');
    const system = path.join(tempDir(t, 'zb-s65n-sys-'), 'gitconfig');
    writeFileSync(system, `[core]\n\thooksPath = ${path.join(ws, 'scripts', 'hooks')}\n`);
    const env = { GIT_CONFIG_NOSYSTEM: value, GIT_CONFIG_SYSTEM: system };
    t.is(gitWith(ws, env, 'config', 'core.hooksPath').trim(), path.join(ws, 'scripts', 'hooks'), 'git reads the system config');
    writeFileSync(path.join(ws, 'src.txt'), '2\n');
    // SAFE: the agent's hook never ran.
    t.false(await agentThenUserCommitWith(t, ws, env), "the user's git commit ran the agent's hook");
  });
}
