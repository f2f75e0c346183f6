// Review s67p, finding 3: a `..` after a folder name in the NAME of a config file git reads (GIT_CONFIG_GLOBAL, set by
// an .envrc or in the user's own environment) is resolved lexically. git-environment-config.ts
// `gitEnvironmentNames` reads `path.resolve(place.directory, value)` and control-locations.ts the user's
// GIT_CONFIG_GLOBAL as written, with no climb check (lexical-climb.ts is applied to includes, hooksPath and command
// words, not to these names). `GIT_CONFIG_GLOBAL=<ws>/tools/cache/../gitconfig`: zotbox protects `tools/gitconfig`
// (and what it names); one confined call makes `evil/a/b`, writes `evil/a/gitconfig` (core.hooksPath = evil/hooks)
// and replaces `tools/cache` with a link to `../evil/a/b`. git opens `evil/a/b/..` = `evil/a/gitconfig`, and the
// user's `git commit` runs the agent's hook. Control: the plain name `tools/gitconfig` (the same swap).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';
import { agentWritesWith, gitWith } from '../adversarial-s65n/fixtures.js';

const swap = (ws: string, payload: string) => `set -e
mkdir -p evil/a/b evil/hooks
printf '${payload === 'hooks' ? `[core]\\n\\thooksPath = ${path.join(ws, 'evil', 'hooks')}` : '[core]\\n\\tfsmonitor = touch PWNED'}\\n' > evil/a/gitconfig
printf '#!/bin/sh\\ntouch "$(git rev-parse --show-toplevel)/PWNED"\\n' > evil/hooks/pre-commit
chmod +x evil/hooks/pre-commit
rm -rf tools/cache
ln -s ../evil/a/b tools/cache
`;

for (const [title, from, spelled, payload] of [
  ['an .envrc sets GIT_CONFIG_GLOBAL="$PWD/tools/cache/../gitconfig"', 'envrc', 'tools/cache/../gitconfig', 'hooks'],
  ["the user's own environment sets GIT_CONFIG_GLOBAL=<ws>/tools/cache/../gitconfig (core.hooksPath)", 'user', 'tools/cache/../gitconfig', 'hooks'],
  ["the user's own environment sets GIT_CONFIG_GLOBAL=<ws>/tools/cache/../gitconfig (core.fsmonitor = touch PWNED)", 'user', 'tools/cache/../gitconfig', 'fsmonitor'],
  ['control: an .envrc sets GIT_CONFIG_GLOBAL="$PWD/tools/gitconfig"', 'envrc', 'tools/gitconfig', 'hooks'],
] as const) {
  test(`${title}; the folder before the .. replaced by a link: git runs the user's config`, async (t) => {
    const home = tempDir(t, 'zb-s67p-home-');
    const ws = project(t, {
      'src.txt': '1\n',
      'tools/gitconfig': '[user]\n\tname = u\n',
      'tools/cache/.keep': '',
      ...(from === 'envrc' ? { '.envrc': `export GIT_CONFIG_GLOBAL="$PWD/${spelled}"\n` } : {}),
    });
    writeFileSync(path.join(ws, 'one.sh'), swap(ws, payload));
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '--no-verify', '-m', 'script');
    // Not path.join: it would drop the `cache/..` itself.
    const env = { HOME: home, GIT_CONFIG_GLOBAL: `${ws}/${spelled}` };
    const zotboxEnv = from === 'user' ? env : { HOME: home };
    t.log('run:', (await agentWritesWith(t, ws, zotboxEnv, 'sh one.sh')).slice(-1500));
    writeFileSync(path.join(ws, 'src.txt'), 'user change\n');
    try {
      gitWith(ws, env, 'add', 'src.txt');
      gitWith(ws, env, 'commit', '-q', '-m', 'user change');
    } catch (error) {
      t.log('user git failed:', String(error).slice(0, 300));
    }
    // SAFE: the agent's hook never ran.
    t.false(existsSync(path.join(ws, 'PWNED')), "the user's git commit ran the agent's hook");
  });
}
