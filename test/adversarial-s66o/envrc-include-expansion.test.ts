// Review s66o, finding 2: an include in a config file an .envrc names (GIT_CONFIG_GLOBAL) is read by
// git-environment-config.ts `entryNames` as `path.resolve(directory, value)`: no `~`, `~NAME` or `%(prefix)/`
// expansion (control-locations.ts `expandHome` is not used there). git's interpolate_path expands them, so
// `path = %(prefix)//abs/team.inc` is `/abs/team.inc` to git and `<dir>/%(prefix)/abs/team.inc` (absent: "nothing
// there") to zotbox; the included file's `core.hooksPath` names a hooks directory in the workspace that zotbox
// never protects. One confined call rewrites the hook; the user's `git commit` (in the shell direnv set up: GIT_CONFIG_GLOBAL) runs it.
// Seen open for `%(prefix)//abs`; `~/team.inc` HELD (commandWords reads the value `~/team.inc` as a word outside what
// zotbox reads here: refused), as did the control (the same include spelled as an absolute path).
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { rewriteHook } from '../adversarial-s64m/fixtures.js';
import { tempDir } from '../fixtures/temp.js';
import { agentWritesWith, gitWith } from '../adversarial-s65n/fixtures.js';

for (const [title, spelling] of [
  ['~/team.inc', (home: string) => `~/${path.relative(home, path.join(home, 'team.inc'))}`],
  ['%(prefix)//abs/team.inc', (home: string) => `%(prefix)/${path.join(home, 'team.inc')}`],
  ['control: the absolute path', (home: string) => path.join(home, 'team.inc')],
] as const) {
  test(`an .envrc's GIT_CONFIG_GLOBAL includes ${title}, which sets core.hooksPath in the workspace: git runs the user's hooks`, async (t) => {
    const home = tempDir(t, 'zb-s66o-home-');
    const ws = project(t, {
      'src.txt': '1\n',
      'one.sh': rewriteHook('githooks'),
      '.envrc': 'export GIT_CONFIG_GLOBAL="$PWD/tools/gitconfig"\n',
      'tools/gitconfig': `[include]\n\tpath = ${spelling(home)}\n`,
    });
    mkdirSync(path.join(ws, 'githooks'));
    writeFileSync(path.join(ws, 'githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(ws, 'githooks', 'pre-commit'), 0o755);
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '--no-verify', '-m', 'hooks');
    writeFileSync(path.join(home, 'team.inc'), `[core]\n\thooksPath = ${path.join(ws, 'githooks')}\n`);
    const env = { HOME: home, GIT_CONFIG_GLOBAL: path.join(ws, 'tools', 'gitconfig') };
    // git reads the include and takes its hooksPath.
    t.is(gitWith(ws, env, 'rev-parse', '--git-path', 'hooks/pre-commit').trim(), path.join(ws, 'githooks', 'pre-commit'));
    // zotbox runs from a shell direnv has not set up (its own environment: HOME only); it reads the .envrc itself.
    t.log('run:', (await agentWritesWith(t, ws, { HOME: home }, 'sh one.sh')).slice(-1500));
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
